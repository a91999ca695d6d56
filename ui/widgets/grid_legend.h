// SPDX-License-Identifier: Apache-2.0
//
// GridLegend: what the marks of a wakeup on the grids mean — the W, P and T
// tags, the orange scan numbers, and the ring and arrow colours by distance
// from the waker — in the window's font, wrapping when narrow.
#pragma once

#include <QLabel>

namespace wb {

class GridLegend : public QLabel {
    Q_OBJECT

public:
    explicit GridLegend(QWidget* parent = nullptr);
};

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// The line-per-policy charts (throughput, latency CDF) share how their
// lines are made: one per policy, named after it, 2 px in its colour.
#pragma once

#include <QColor>
#include <QList>
#include <QStringList>
#include <vector>

class QAbstractAxis;
class QChart;
class QLineSeries;

namespace wb {

// Removes and deletes `series` from `chart`, then fills it with one new line
// per policy attached to `x` and `y`. A policy without a colour in
// `colours` takes the palette's.
void reset_policy_lines(QChart* chart, std::vector<QLineSeries*>& series, const QStringList& names,
                        const QList<QColor>& colours, QAbstractAxis* x, QAbstractAxis* y);

}  // namespace wb

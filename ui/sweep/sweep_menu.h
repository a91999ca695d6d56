// SPDX-License-Identifier: Apache-2.0
//
// Results > Sweep: open a sweep's result, or run a sweep file in the
// background; each in a SweepWindow of its own.
#pragma once

class QMenu;
class QWidget;

namespace wb {

void add_sweep_menu(QMenu* results, QWidget* parent);

}  // namespace wb

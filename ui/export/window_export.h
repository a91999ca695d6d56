// SPDX-License-Identifier: Apache-2.0
//
// The window's views composed for export: which widgets a target shows,
// and the caption around them, taken from what the window has loaded and
// run (scenario, machine, case and workload, simulated time; each policy's
// name, colour and headline figure so far).
#pragma once

#include "export/export_frame.h"
#include "export/export_target.h"

namespace wb {

class MainWindow;

// `target` as --view names it. The window itself is drawn whole, without
// a caption: its grids, status bar and charts already carry one.
ExportFrame window_export_frame(MainWindow& window, ExportTarget target);

// One of the window's views (Ctrl+E's focused view): a topology grid is
// framed under its policy's name, any other view is drawn alone.
ExportFrame window_export_frame(MainWindow& window, QWidget* view);

// What the export dialog calls that view: "baseline's grid", "the decision
// diagram", a chart's title.
QString window_view_label(MainWindow& window, QWidget* view);

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// What a headless picture (--view) or an export shows: the whole window, or
// one of its views composed for a slide. The names are the command line's.
#pragma once

#include <QString>
#include <QStringList>
#include <optional>

namespace wb {

enum class ExportTarget { Window, Grids, Decision, Throughput, Latency, Headline, Placement };

// "window", "grids", ... in the order --help and the errors list them.
QStringList export_target_names();
QString export_target_name(ExportTarget target);
std::optional<ExportTarget> parse_export_target(const QString& name);

// The headline chart shows every policy x case x seed only once the
// scenario's comparison has run; before that it holds the one seed on screen.
bool export_target_needs_comparison(ExportTarget target);

}  // namespace wb

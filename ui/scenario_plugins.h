// SPDX-License-Identifier: Apache-2.0
//
// The policy plugins a scenario's policies come from: the `--plugin` words
// of the wakesim commands that reproduce the window, and the "plugins" a
// saved scenario file lists so that wakesim and the next window can load
// them before they read its policies.
#pragma once

#include <QString>
#include <QStringList>
#include <string>
#include <vector>

#include "io/scenario_json.h"

namespace wb {

// The plugin file of every part of every spec ("a+b:x=off" has two parts),
// once each, in the order met; shipped policies add nothing.
QStringList plugins_of_policies(const std::vector<std::string>& specs);

// `command` ("wakesim run ...") with "--plugin PATH" for each of `plugins`
// after the program's name: wakesim loads plugins before its command word.
QString with_plugin_options(const QString& command, const QStringList& plugins);

// The "plugins" to write when `scenario`, read from `from_path` (empty: none),
// is saved as `to_path`: the entries it has, still naming the same files
// from the new folder (a relative entry is made absolute when the folder
// changes), then any plugin its policies come from that no entry names,
// relative when it lies in the new folder or below, absolute otherwise.
std::vector<std::string> plugins_to_save(const Scenario& scenario, const QString& from_path, const QString& to_path);

}  // namespace wb

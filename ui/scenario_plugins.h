// SPDX-License-Identifier: Apache-2.0
//
// The "plugins" a saved scenario file lists, so that wakesim and the next
// window can load them before they read its policies. (The `--plugin` words
// of the wakesim commands come from core: session/scenario_session.h.)
#pragma once

#include <QString>
#include <string>
#include <vector>

#include "io/scenario_json.h"

namespace wb {

// The "plugins" to write when `scenario`, read from `from_path` (empty: none),
// is saved as `to_path`: the entries it has, still naming the same files
// from the new folder (a relative entry is made absolute when the folder
// changes), then any plugin its policies come from that no entry names,
// relative when it lies in the new folder or below, absolute otherwise.
std::vector<std::string> plugins_to_save(const Scenario& scenario, const QString& from_path, const QString& to_path);

}  // namespace wb

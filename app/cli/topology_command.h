// SPDX-License-Identifier: Apache-2.0
//
// `wakesim topology show|import|check`.
#pragma once

#include <string>
#include <vector>

namespace wb::cli {

// Each returns the process exit status; usage and input errors are thrown
// (UsageError, InputError) and turned into status 2 by main().
int topology_command(const std::vector<std::string>& args);

}  // namespace wb::cli

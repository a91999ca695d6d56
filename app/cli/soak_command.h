// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace wb::cli {

// wakesim soak: the engine run long with its invariants checked after every
// event, over machines, workloads and policies, watching memory.
int soak_command(const std::vector<std::string>& argv);

}  // namespace wb::cli

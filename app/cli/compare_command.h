// SPDX-License-Identifier: Apache-2.0
//
// `wakesim compare`: several policies x workload cases x seeds, summarised
// in the layout of the published comparisons.
#pragma once

#include <string>
#include <vector>

namespace wb::cli {

int compare_command(const std::vector<std::string>& args);

}  // namespace wb::cli

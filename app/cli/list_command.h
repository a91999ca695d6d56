// SPDX-License-Identifier: Apache-2.0
//
// `wakesim list topologies|workloads|policies|features`: what a user can name.
#pragma once

#include <string>
#include <vector>

namespace wb::cli {

int list_command(const std::vector<std::string>& args);

}  // namespace wb::cli

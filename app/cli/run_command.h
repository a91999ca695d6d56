// SPDX-License-Identifier: Apache-2.0
//
// `wakesim run`: one workload on one machine under one policy and seed.
#pragma once

#include <string>
#include <vector>

namespace wb::cli {

int run_command(const std::vector<std::string>& args);

}  // namespace wb::cli

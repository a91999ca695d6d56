// SPDX-License-Identifier: Apache-2.0
//
// `wakesim validate`: runs the validation cases (published measurements of
// real kernels) and prints the model's figures against them.
#pragma once

#include <string>
#include <vector>

namespace wb::cli {

// Exit status 0 when every figure is within its tolerance, 1 when one is
// not; usage and input errors throw (status 2).
int validate_command(const std::vector<std::string>& args);

}  // namespace wb::cli

// SPDX-License-Identifier: Apache-2.0
//
// `wakesim policy new NAME [--hook HOOK] [--dir DIR]`: writes the start of a
// user's own policy (a source with one hook, its unit test, a CMake project
// building the plugin against the installed SDK) into a folder of theirs.
#pragma once

#include <string>
#include <vector>

namespace wb::cli {

int policy_command(const std::vector<std::string>& args);

}  // namespace wb::cli

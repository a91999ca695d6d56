// SPDX-License-Identifier: Apache-2.0
//
// What `wakesim --version` and `wakebench --version` print:
// "wakesim 0.1.0 (1a2b3c4d5e6f)", the release and the commit the build was
// configured from, or "(unknown)" for a build from outside a git checkout.
// Defined in a file CMake generates (cmake/version.cpp.in), so that a new
// commit recompiles that one small file and nothing else.
#pragma once

#include <string>
#include <string_view>

namespace wb {

std::string version_line(std::string_view program);

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// Where a program finds the data Wakebench ships: the machine files, the
// scenarios and the validation cases. An installed program finds them from
// its own path, <prefix>/bin/wakesim reading <prefix>/share/wakebench/...,
// wherever the prefix is (/usr, /usr/local, a folder `dpkg -x` unpacked).
// Only a program run from the build tree reads the source tree's copies,
// so that an edit to them shows without an install.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace wb {

// A folder of shipped data: its name under share/wakebench once installed,
// and its path in the source tree.
struct ShippedFolder {
    std::string_view installed;
    std::string_view in_source;
};

inline constexpr ShippedFolder kShippedTopologies{"topologies", "topologies"};
inline constexpr ShippedFolder kShippedScenarios{"scenarios", "resources/scenarios"};
inline constexpr ShippedFolder kShippedValidation{"validation", "resources/validation"};
// The guest programs `wakesim kernel run` builds for the guest (C sources).
inline constexpr ShippedFolder kShippedGuest{"guest", "guest"};

// The folder for the running program (/proc/self/exe), built in this
// build tree.
std::string shipped_data_dir(const ShippedFolder& folder);

// The folder for the program at `exe`: the source tree's when `exe` lies in
// `build_tree`, else <exe's folder>/../share/wakebench/<installed>.
std::string shipped_data_dir(const ShippedFolder& folder, const std::filesystem::path& exe,
                             const std::filesystem::path& build_tree);

}  // namespace wb

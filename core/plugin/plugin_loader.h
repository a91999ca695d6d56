// SPDX-License-Identifier: Apache-2.0
//
// Loading policy plugins: shared libraries built against the SDK
// (sdk/include/wakebench/policy.h) whose policies then sit in the registry
// beside the shipped ones. A plugin is loaded from a private copy, so the
// user may rebuild the file while it is loaded and load it again: the new
// build's policies replace the old ones. A loaded copy is never unloaded,
// since results and decision records still point at its names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace wb {

struct LoadedPlugin {
    std::string path;                   // absolute, normalised: the plugin's identity
    std::vector<std::string> policies;  // the names it provides
};

// Loads the plugin at `path` (relative paths against the working
// directory, or against `base_dir` when it is not empty) and registers its
// policies. Throws InputError naming the file: not there, not loadable, not
// a plugin, built for another hook ABI version (both numbers), or a policy
// name already taken.
LoadedPlugin load_plugin(const std::string& path, const std::string& base_dir = {});

// Every plugin loaded so far, in the order of first load.
std::vector<LoadedPlugin> loaded_plugins();

// The hook ABI version this build accepts (WAKEBENCH_HOOK_ABI_VERSION).
int hook_abi_version();

}  // namespace wb

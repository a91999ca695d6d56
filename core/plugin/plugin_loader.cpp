// SPDX-License-Identifier: Apache-2.0
#include "plugin/plugin_loader.h"

#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <mutex>
#include <system_error>

#include "io/input_error.h"
#include "plugin/plugin_policy.h"
#include "policies/registry.h"
#include "wakebench/policy.h"

namespace wb {
namespace {

namespace fs = std::filesystem;

std::mutex g_mutex;
std::vector<LoadedPlugin> g_loaded;

[[noreturn]] void refuse(const std::string& path, const std::string& message)
{
    throw InputError(Diagnostic{path, 0, 0, "", message});
}

// A private copy of the file to load: the dynamic loader hands back an
// already loaded library for the same file, and the user's build may
// replace the file at any time. The copy is removed once mapped.
fs::path private_copy(const fs::path& file)
{
    static std::atomic<int> counter{0};
    const fs::path dir = fs::temp_directory_path() / ("wakebench-plugins-" + std::to_string(::getpid()));
    std::error_code ec;
    fs::create_directories(dir, ec);
    const fs::path copy = dir / (std::to_string(counter++) + "-" + file.filename().string());
    fs::copy_file(file, copy, fs::copy_options::overwrite_existing, ec);
    if (ec)
        refuse(file.string(), "cannot copy the plugin for loading to " + copy.string() + ": " + ec.message());
    return copy;
}

}  // namespace

int hook_abi_version()
{
    return WAKEBENCH_HOOK_ABI_VERSION;
}

LoadedPlugin load_plugin(const std::string& path, const std::string& base_dir)
{
    fs::path file(path);
    if (file.is_relative() && !base_dir.empty())
        file = fs::path(base_dir) / file;
    file = fs::absolute(file).lexically_normal();
    const std::string name = file.string();
    std::error_code ec;
    if (!fs::is_regular_file(file, ec))
        refuse(path, "expected a policy plugin (a shared library built with WAKEBENCH_PLUGIN): no such file" +
                         (name != path ? " (looked for " + name + ")" : std::string()));

    const fs::path copy = private_copy(file);
    void* handle = ::dlopen(copy.c_str(), RTLD_NOW | RTLD_LOCAL);
    fs::remove(copy, ec);
    if (!handle) {
        const char* why = ::dlerror();
        refuse(name, std::string("cannot load the plugin: ") + (why ? why : "unknown dynamic loader error"));
    }
    using VersionFn = int (*)();
    using ManifestFn = const wakebench::PluginManifest* (*)();
    const auto version = reinterpret_cast<VersionFn>(::dlsym(handle, "wakebench_hook_abi_version"));
    if (!version)
        refuse(name, "expected a policy plugin: it has no wakebench_hook_abi_version() (add WAKEBENCH_PLUGIN(...) "
                     "to one of its sources)");
    if (version() != WAKEBENCH_HOOK_ABI_VERSION)
        refuse(name, "the plugin was built for hook ABI version " + std::to_string(version()) +
                         "; this build of wakebench has version " + std::to_string(WAKEBENCH_HOOK_ABI_VERSION) +
                         ": rebuild it against this Wakebench SDK");
    const auto manifest_fn = reinterpret_cast<ManifestFn>(::dlsym(handle, "wakebench_plugin_manifest"));
    const wakebench::PluginManifest* manifest = manifest_fn ? manifest_fn() : nullptr;
    if (!manifest || manifest->count == 0)
        refuse(name, "expected a policy plugin providing at least one policy (WAKEBENCH_PLUGIN(MyPolicy))");

    LoadedPlugin loaded{name, {}};
    std::vector<PluginPolicyEntry> entries;
    for (std::size_t i = 0; i < manifest->count; ++i) {
        const wakebench::PolicyEntry entry = manifest->policies[i];
        const PolicyInfo* info = &entry.info();
        if (info->name.empty())
            refuse(name, "expected every policy of the plugin to have a name; policy " + std::to_string(i + 1) +
                             " has none");
        loaded.policies.emplace_back(info->name);
        entries.push_back({info, [entry, info](std::vector<bool> on) -> std::unique_ptr<PlacementPolicy> {
                               std::unique_ptr<wakebench::Policy> impl = entry.make(on);
                               return std::make_unique<PluginPolicy>(*info, std::move(on), std::move(impl));
                           }});
    }
    register_plugin_policies(name, std::move(entries));

    const std::lock_guard<std::mutex> lock(g_mutex);
    bool known = false;
    for (LoadedPlugin& p : g_loaded)
        if (p.path == name) {
            p = loaded;
            known = true;
        }
    if (!known)
        g_loaded.push_back(loaded);
    return loaded;
}

std::vector<LoadedPlugin> loaded_plugins()
{
    const std::lock_guard<std::mutex> lock(g_mutex);
    return g_loaded;
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "kernel/kernel_modules.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "kernel/elf_object.h"
#include "kernel/file_bytes.h"
#include "kernel/kernel_check_error.h"
#include "kernel/subprocess.h"

namespace fs = std::filesystem;

namespace wb {

namespace {

// "virtio-rng.ko.xz" -> "virtio_rng": module names use '_' for '-'.
std::string module_name(const std::string& file)
{
    std::string name = file.substr(0, file.find(".ko"));
    for (char& c : name)
        if (c == '-')
            c = '_';
    return name;
}

std::string load_module(const fs::path& path)
{
    const std::string file = path.filename().string();
    const char* tool = file.ends_with(".ko.xz")    ? "xz"
                       : file.ends_with(".ko.zst") ? "zstd"
                       : file.ends_with(".ko.gz")  ? "gzip"
                                                   : nullptr;
    if (!tool)
        return file_bytes(path.string());
    const CommandResult r = run_command({tool, "-dc", path.string()});
    if (!r.ok())
        throw KernelCheckError("cannot decompress the module " + path.string() + " with " + tool +
                               (r.started ? ": " + r.err : std::string(": it is not installed")));
    return r.out;
}

}  // namespace

std::vector<std::string> module_depends(std::string_view elf, const std::string& label)
{
    const std::optional<std::string_view> info = elf_section(elf, ".modinfo", label);
    if (!info)
        throw KernelCheckError(label + ": no .modinfo section (not a kernel module)");
    // NUL-separated "key=value" strings.
    std::size_t at = 0;
    while (at < info->size()) {
        const std::size_t end = std::min(info->find('\0', at), info->size());
        const std::string_view entry = info->substr(at, end - at);
        if (entry.starts_with("depends=")) {
            std::vector<std::string> deps;
            std::istringstream list{std::string(entry.substr(8))};
            for (std::string dep; std::getline(list, dep, ',');)
                if (!dep.empty())
                    deps.push_back(dep);
            return deps;
        }
        at = end + 1;
    }
    return {};
}

std::vector<KernelModule> modules_to_load(const std::string& modules_dir, const std::vector<std::string>& wanted)
{
    std::set<std::string> builtin;
    {
        std::ifstream in(fs::path(modules_dir) / "modules.builtin");
        for (std::string line; std::getline(in, line);)
            builtin.insert(module_name(fs::path(line).filename().string()));
    }
    std::map<std::string, fs::path> files;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(fs::path(modules_dir) / "kernel", ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
        const std::string file = it->path().filename().string();
        if (file.find(".ko") != std::string::npos)
            files.emplace(module_name(file), it->path());
    }

    std::vector<KernelModule> order;
    std::set<std::string> placed;
    // Depth first: a module goes in after everything it depends on.
    auto place = [&](auto&& self, const std::string& name, const std::string& needed_by) -> void {
        if (placed.count(name) || builtin.count(name))
            return;
        placed.insert(name);
        const auto found = files.find(name);
        if (found == files.end())
            throw KernelCheckError("the guest kernel has no " + name +
                                   (needed_by.empty() ? "" : " (needed by " + needed_by + ")") +
                                   ": it is neither built in (" + modules_dir +
                                   "/modules.builtin) nor a module under " + modules_dir + "/kernel");
        KernelModule m{name, found->second.string(), load_module(found->second)};
        for (const std::string& dep : module_depends(m.bytes, m.path))
            self(self, dep, name);
        order.push_back(std::move(m));
    };
    for (const std::string& name : wanted)
        place(place, name, "");
    return order;
}

}  // namespace wb

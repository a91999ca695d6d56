// SPDX-License-Identifier: Apache-2.0
#include "kernel/kernel_modules.h"

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "kernel/kernel_check_error.h"
#include "kernel/subprocess.h"

namespace fs = std::filesystem;

namespace wb {

namespace {

template <typename T>
T read_le(std::string_view bytes, std::size_t at)
{
    T v{};
    if (at + sizeof(T) <= bytes.size())
        std::memcpy(&v, bytes.data() + at, sizeof(T));  // x86-64 and ELFCLASS64/ELFDATA2LSB: both little-endian
    return v;
}

// "virtio-rng.ko.xz" -> "virtio_rng": module names use '_' for '-'.
std::string module_name(const std::string& file)
{
    std::string name = file.substr(0, file.find(".ko"));
    for (char& c : name)
        if (c == '-')
            c = '_';
    return name;
}

std::string read_file(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string load_module(const fs::path& path)
{
    const std::string file = path.filename().string();
    const char* tool = file.ends_with(".ko.xz") ? "xz" : file.ends_with(".ko.zst") ? "zstd"
                                                      : file.ends_with(".ko.gz")   ? "gzip"
                                                                                   : nullptr;
    if (!tool)
        return read_file(path);
    const CommandResult r = run_command({tool, "-dc", path.string()});
    if (!r.ok())
        throw KernelCheckError("cannot decompress the module " + path.string() + " with " + tool +
                               (r.started ? ": " + r.err : std::string(": it is not installed")));
    return r.out;
}

}  // namespace

std::vector<std::string> module_depends(std::string_view elf, const std::string& label)
{
    if (elf.size() < 64 || elf.substr(0, 4) != "\x7f" "ELF" || elf[4] != 2 || elf[5] != 1)
        throw KernelCheckError(label + ": not a 64-bit little-endian ELF object");
    const auto shoff = read_le<std::uint64_t>(elf, 0x28);
    const auto shentsize = read_le<std::uint16_t>(elf, 0x3A);
    const auto shnum = read_le<std::uint16_t>(elf, 0x3C);
    const auto shstrndx = read_le<std::uint16_t>(elf, 0x3E);
    auto section = [&](std::size_t i) { return shoff + i * shentsize; };
    if (shstrndx >= shnum || section(shnum) > elf.size())
        throw KernelCheckError(label + ": its section headers lie outside the file");
    const auto names_at = read_le<std::uint64_t>(elf, section(shstrndx) + 0x18);
    for (std::size_t i = 0; i < shnum; ++i) {
        const auto name_at = names_at + read_le<std::uint32_t>(elf, section(i));
        if (name_at >= elf.size() || std::strncmp(elf.data() + name_at, ".modinfo", elf.size() - name_at) != 0)
            continue;
        const auto offset = read_le<std::uint64_t>(elf, section(i) + 0x18);
        const auto size = read_le<std::uint64_t>(elf, section(i) + 0x20);
        if (offset + size > elf.size())
            break;
        // NUL-separated "key=value" strings.
        const std::string_view info = elf.substr(offset, size);
        std::size_t at = 0;
        while (at < info.size()) {
            const std::size_t end = std::min(info.find('\0', at), info.size());
            const std::string_view entry = info.substr(at, end - at);
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
    throw KernelCheckError(label + ": no .modinfo section (not a kernel module)");
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
            throw KernelCheckError("the guest kernel has no " + name + (needed_by.empty() ? "" : " (needed by " + needed_by + ")") +
                                   ": it is neither built in (" + modules_dir + "/modules.builtin) nor a module under " +
                                   modules_dir + "/kernel");
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

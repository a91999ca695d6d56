// SPDX-License-Identifier: Apache-2.0
#include "kernel/guest_kernel.h"

#include <filesystem>
#include <fstream>

#include "io/input_error.h"

namespace fs = std::filesystem;

namespace wb {

namespace {

[[noreturn]] void fail(const std::string& what, const std::string& message)
{
    throw InputError(Diagnostic{what, 0, 0, "", message});
}

}  // namespace

KernelChoice parse_kernel_choice(const std::string& text)
{
    if (text == "debian")
        return {KernelSource::Debian612, ""};
    if (text == "debian-6.1")
        return {KernelSource::Debian61, ""};
    std::error_code ec;
    if (!fs::is_regular_file(text, ec) || !std::ifstream(text))
        fail("--kernel '" + text + "'",
             "expected debian (Debian 12's 6.12), debian-6.1 (its default 6.1) or the path of a readable bzImage or "
             "vmlinuz");
    return {KernelSource::File, text};
}

GuestKernel user_kernel(const std::string& image, const std::string& modules)
{
    GuestKernel k;
    k.image = image;
    k.description = "the kernel image " + image;
    if (modules.empty())
        return k;
    std::error_code ec;
    fs::path dir = modules;
    if (!fs::is_directory(dir, ec))
        fail("--modules '" + modules + "'", "expected a directory: lib/modules/RELEASE or a tree holding it");
    // An INSTALL_MOD_PATH tree: its one lib/modules/RELEASE.
    if (!fs::exists(dir / "modules.builtin", ec) && fs::is_directory(dir / "lib" / "modules", ec)) {
        int found = 0;
        for (const fs::directory_entry& e : fs::directory_iterator(dir / "lib" / "modules", ec)) {
            if (e.is_directory()) {
                dir = e.path();
                ++found;
            }
        }
        if (found != 1)
            fail("--modules '" + modules + "'",
                 "lib/modules holds " + std::to_string(found) + " releases; give the one that matches the kernel");
    }
    if (!fs::exists(dir / "modules.builtin", ec))
        fail("--modules '" + modules + "'",
             "no modules.builtin here: expected lib/modules/RELEASE as `make modules_install` writes it");
    k.modules_dir = dir.string();
    return k;
}

}  // namespace wb

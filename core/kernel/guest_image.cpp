// SPDX-License-Identifier: Apache-2.0
#include "kernel/guest_image.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <vector>

#include <unistd.h>

#include "kernel/content_hash.h"
#include "kernel/cpio_archive.h"
#include "kernel/elf_object.h"
#include "kernel/file_bytes.h"
#include "kernel/guest_init.h"
#include "kernel/guest_kernel.h"
#include "kernel/guest_programs.h"
#include "kernel/kernel_check_error.h"
#include "kernel/kernel_modules.h"

namespace fs = std::filesystem;

namespace wb {

namespace {

const char* const kBusybox = "/bin/busybox";

std::string busybox()
{
    const std::string bytes = file_bytes(kBusybox);
    if (bytes.empty())
        throw KernelCheckError(std::string("no ") + kBusybox +
                               ": the guest's tools are busybox's (apt-get install busybox-static, or "
                               "scripts/install-deps --kernel-check)");
    if (elf_is_dynamic(bytes))
        throw KernelCheckError(std::string(kBusybox) +
                               " is dynamically linked and the guest has no C library: install busybox-static");
    return bytes;
}

}  // namespace

std::string guest_initramfs(const GuestKernel& kernel, const std::string& cache_dir, std::ostream& log)
{
    const std::string box = busybox();
    const std::map<std::string, std::string> programs = build_guest_programs(cache_dir, log);
    std::vector<KernelModule> modules;
    if (!kernel.modules_dir.empty())
        modules = modules_to_load(kernel.modules_dir, kGuestPortModules);

    CpioArchive cpio;
    for (const char* dir : {"bin", "dev", "proc", "sys", "tmp", "modules"})
        cpio.add_directory(dir);
    cpio.add_char_device("dev/console", 5, 1);
    cpio.add_file("bin/busybox", box, 0755);
    cpio.add_file("init", guest_init_script(), 0755);
    for (const auto& [name, bytes] : programs)
        cpio.add_file("bin/" + name, bytes, 0755);
    std::string order;
    for (const KernelModule& m : modules) {
        cpio.add_file("modules/" + m.name + ".ko", m.bytes);
        order += m.name + "\n";
    }
    if (!modules.empty())
        cpio.add_file("modules/order", order);
    const std::string& image = cpio.finish();

    const fs::path path = fs::path(cache_dir) / "initramfs" / (ContentHash().add(image).hex() + ".cpio");
    std::error_code ec;
    if (fs::exists(path, ec))
        return path.string();
    fs::create_directories(path.parent_path(), ec);
    const std::string tmp = path.string() + ".tmp" + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary);
        out.write(image.data(), static_cast<std::streamsize>(image.size()));
        if (!out)
            throw KernelCheckError("cannot write " + tmp);
    }
    fs::rename(tmp, path, ec);
    if (ec)
        throw KernelCheckError("cannot move the initramfs to " + path.string() + ": " + ec.message());
    log << "built the guest's initramfs " << path.string();
    if (!modules.empty()) {
        log << " (modules:";
        for (const KernelModule& m : modules)
            log << " " << m.name;
        log << ")";
    }
    log << "\n";
    return path.string();
}

}  // namespace wb

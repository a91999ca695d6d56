// SPDX-License-Identifier: Apache-2.0
#include "kernel/guest_programs.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>

#include <unistd.h>

#include "base/data_dir.h"
#include "kernel/content_hash.h"
#include "kernel/file_bytes.h"
#include "kernel/kernel_check_error.h"
#include "kernel/subprocess.h"

namespace fs = std::filesystem;

namespace wb {

namespace {

const char* const kPrograms[] = {"pipe", "messaging", "schbench"};

std::string read_file(const fs::path& path)
{
    std::string bytes = file_bytes(path.string());
    if (bytes.empty())
        throw KernelCheckError("cannot read " + path.string());
    return bytes;
}

}  // namespace

std::string guest_source_dir()
{
    if (const char* env = std::getenv("WAKEBENCH_GUEST"); env && *env)
        return env;
    return shipped_data_dir(kShippedGuest);
}

std::map<std::string, std::string> build_guest_programs(const std::string& cache_dir, std::ostream& log)
{
    const fs::path src = guest_source_dir();
    const std::string common = read_file(src / "guest_util.h");
    if (!program_in_path("cc"))
        throw KernelCheckError(
            "the guest programs are built with the host's C compiler, and `cc` is not installed "
            "(apt-get install build-essential)");
    std::map<std::string, std::string> out;
    for (const char* name : kPrograms) {
        const fs::path source = src / (std::string(name) + ".c");
        const std::string text = read_file(source);
        const fs::path dir = fs::path(cache_dir) / "guest-bin" / ContentHash().add(common).add(text).hex();
        const fs::path binary = dir / name;
        std::error_code ec;
        if (!fs::exists(binary, ec)) {
            log << "building the guest program " << name << " (cc -static) from " << source.string() << "\n";
            fs::create_directories(dir, ec);
            const std::string tmp = binary.string() + ".tmp" + std::to_string(::getpid());
            const CommandResult r = run_command({"cc", "-static", "-O2", "-pthread", "-o", tmp, source.string()});
            if (!r.ok())
                throw KernelCheckError("building the guest program " + source.string() +
                                       " failed (a static C library is needed: libc6-dev):\n" + r.err);
            fs::rename(tmp, binary, ec);
            if (ec)
                throw KernelCheckError("cannot move the guest program to " + binary.string() + ": " + ec.message());
        }
        out[name] = read_file(binary);
    }
    return out;
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "io/input_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <tuple>

namespace wb {

namespace fs = std::filesystem;

std::string errno_text()
{
    return std::strerror(errno);
}

void require_regular_file(const std::string& path, std::string_view what)
{
    std::error_code ec;
    const fs::file_type type = fs::status(path, ec).type();
    const char* kind = nullptr;
    switch (type) {
    case fs::file_type::directory: kind = "a directory"; break;
    case fs::file_type::fifo: kind = "a FIFO (a named pipe)"; break;
    case fs::file_type::socket: kind = "a socket"; break;
    case fs::file_type::character: kind = "a character device"; break;
    case fs::file_type::block: kind = "a block device"; break;
    default: return;  // regular, missing or unknown: opening it tells
    }
    throw InputError(Diagnostic{path, 0, 0, "", "is " + std::string(kind) + "; expected a " + std::string(what)});
}

void throw_too_large(const std::string& path, std::string_view what, std::uintmax_t max_bytes)
{
    throw InputError(Diagnostic{path, 0, 0, "",
                                "is larger than " + std::to_string(max_bytes >> 20) + " MB, the bound for a " +
                                    std::string(what) + " (docs/reliability.md)"});
}

std::string read_input_file(const std::string& path, std::string_view what, std::uintmax_t max_bytes)
{
    require_regular_file(path, what);
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(
            Diagnostic{path, 0, 0, "", "cannot open: " + errno_text() + "; expected a readable " + std::string(what)});
    // Read in pieces rather than trusting the size the file system reports
    // (procfs and sysfs files report 0 or 4096 whatever they hold).
    std::string text;
    char buf[1 << 16];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        text.append(buf, static_cast<std::size_t>(in.gcount()));
        if (text.size() > max_bytes)
            throw_too_large(path, what, max_bytes);
    }
    if (in.bad())
        throw InputError(Diagnostic{path, 0, 0, "", "cannot read: " + errno_text()});
    return text;
}

void throw_in_reading_order(std::vector<Diagnostic> diagnostics)
{
    std::stable_sort(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
        return std::tie(a.line, a.column) < std::tie(b.line, b.column);
    });
    throw InputError(std::move(diagnostics));
}

}  // namespace wb

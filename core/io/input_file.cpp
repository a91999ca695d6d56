// SPDX-License-Identifier: Apache-2.0
#include "io/input_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>

namespace wb {

std::string errno_text()
{
    return std::strerror(errno);
}

std::string read_input_file(const std::string& path, std::string_view what)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw InputError(Diagnostic{path, 0, 0, "", "is a directory; expected a " + std::string(what)});
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(
            Diagnostic{path, 0, 0, "", "cannot open: " + errno_text() + "; expected a readable " + std::string(what)});
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
        throw InputError(Diagnostic{path, 0, 0, "", "cannot read: " + errno_text()});
    return text.str();
}

void throw_in_reading_order(std::vector<Diagnostic> diagnostics)
{
    std::stable_sort(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
        return std::tie(a.line, a.column) < std::tie(b.line, b.column);
    });
    throw InputError(std::move(diagnostics));
}

}  // namespace wb

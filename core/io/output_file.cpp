// SPDX-License-Identifier: Apache-2.0
#include "io/output_file.h"

#include <cerrno>
#include <filesystem>

#include "io/input_error.h"
#include "io/input_file.h"

namespace wb {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void cannot_write(const std::string& path, const std::string& why)
{
    throw InputError(Diagnostic{path, 0, 0, "", "cannot write: " + why});
}

// Why the writes since errno was cleared failed; a stream that failed
// earlier has lost the reason.
std::string failure_since_cleared()
{
    return errno != 0 ? errno_text() : "a write to it failed (is the disk full?)";
}

}  // namespace

void finish_output(std::ofstream& out, const std::string& path)
{
    errno = 0;
    if (out)
        out.flush();
    const std::string why = out ? "" : failure_since_cleared();
    out.close();
    if (!why.empty())
        cannot_write(path, why);
    if (!out)
        cannot_write(path, failure_since_cleared());
}

void write_output_file(const std::string& path, std::string_view text)
{
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    const bool replace = !fs::exists(status) || fs::is_regular_file(status);
    const std::string target = replace ? path + ".tmp" : path;
    std::ofstream out(target, std::ios::binary | std::ios::trunc);
    if (!out)
        cannot_write(path, errno_text());
    errno = 0;
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.flush();
    const std::string why = out ? "" : failure_since_cleared();
    out.close();
    if (!why.empty() || !out) {
        if (replace)
            fs::remove(target, ec);
        cannot_write(path, why.empty() ? failure_since_cleared() : why);
    }
    if (!replace)
        return;
    fs::rename(target, path, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(target, ignored);
        cannot_write(path, ec.message());
    }
}

}  // namespace wb

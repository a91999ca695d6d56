// SPDX-License-Identifier: Apache-2.0
#include "io/trace_input.h"

#include <zlib.h>

#include <filesystem>

#include "io/input_error.h"
#include "io/input_file.h"

namespace wb {

std::string read_trace_file(const std::string& path)
{
    const char* const what = "trace (the text of tracefs's trace, trace-cmd report or perf script, or it gzipped)";
    require_regular_file(path, what);
    // gzopen() reads a file that is not gzip as it is.
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f)
        throw InputError(Diagnostic{path, 0, 0, "", "cannot open: " + errno_text() + "; expected a readable " + what});
    std::string text;
    char buf[1 << 16];
    for (;;) {
        const int n = gzread(f, buf, sizeof buf);
        if (n < 0) {
            int code = 0;
            const std::string why = gzerror(f, &code);
            gzclose(f);
            throw InputError(Diagnostic{path, 0, 0, "", "cannot read: " + why});
        }
        if (n == 0)
            break;
        text.append(buf, static_cast<std::size_t>(n));
        if (text.size() > kMaxTraceFileBytes) {
            gzclose(f);
            throw_too_large(path, "trace's text", kMaxTraceFileBytes);
        }
    }
    gzclose(f);
    return text;
}

}  // namespace wb

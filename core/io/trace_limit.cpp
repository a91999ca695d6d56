// SPDX-License-Identifier: Apache-2.0
#include "io/trace_limit.h"

#include <charconv>

namespace wb {

std::string TraceLimit::describe() const
{
    if (until)
        return format_duration(*until) + " of simulated time";
    return std::to_string(events) + " events";
}

bool parse_trace_limit(std::string_view text, TraceLimit& out)
{
    std::uint64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec == std::errc() && end == text.data() + text.size()) {
        if (n == 0)
            return false;
        out.events = n;
        out.until.reset();
        return true;
    }
    Time t;
    if (!parse_duration(text, t))
        return false;
    out.until = t;
    return true;
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// printf-style lines for the trace commands' text reports.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace wb::report_text {

template <typename... A>
void line(std::string& out, const char* fmt, A... args)
{
    char buf[512];
    std::snprintf(buf, sizeof buf, fmt, args...);
    out += buf;
}

inline unsigned long long ull(std::uint64_t v)
{
    return static_cast<unsigned long long>(v);
}

}  // namespace wb::report_text

// SPDX-License-Identifier: Apache-2.0
#include "base/sim_time.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace wb {

namespace {

struct Unit {
    std::string_view name;
    double ns;
};

constexpr Unit kUnits[] = {{"ns", 1.0}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};

}  // namespace

bool parse_duration(std::string_view text, Time& out)
{
    std::size_t split = 0;
    while (split < text.size() && (std::isdigit(static_cast<unsigned char>(text[split])) || text[split] == '.'))
        ++split;
    if (split == 0)
        return false;
    double value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + split, value);
    if (ec != std::errc{} || ptr != text.data() + split)
        return false;
    const std::string_view unit = text.substr(split);
    for (const Unit& u : kUnits) {
        if (u.name == unit) {
            const double ns = value * u.ns;
            if (!(ns < 9.2e18))
                return false;
            out = Time::ns(static_cast<std::int64_t>(std::llround(ns)));
            return true;
        }
    }
    return false;
}

std::string format_duration(Time t)
{
    const std::int64_t ns = t.ns();
    for (auto it = std::rbegin(kUnits); it != std::rend(kUnits); ++it) {
        const double v = static_cast<double>(ns) / it->ns;
        if (std::fabs(v) >= 1.0 || it->ns == 1.0) {
            char buf[48];
            std::snprintf(buf, sizeof buf, "%.6g%.*s", v, static_cast<int>(it->name.size()), it->name.data());
            return buf;
        }
    }
    return "0ns";
}

}  // namespace wb

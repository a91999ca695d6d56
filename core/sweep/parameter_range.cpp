// SPDX-License-Identifier: Apache-2.0
#include "sweep/parameter_range.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace wb {

namespace {

// Ranges end at `to` "inclusive" in decimal terms: 0.1 + 2 * 0.1 is a hair
// above 0.3 in binary, and must still count as reaching it.
bool at_or_below(double value, double to)
{
    return value <= to + 1e-9 * std::max(1.0, std::fabs(to));
}

std::string too_many(double from, double to)
{
    return "expands to more than " + std::to_string(kMaxRangeValues) + " values between " +
           spec_number_text(from) + " and " + spec_number_text(to);
}

// value(0), value(1), ... up to `to`.
template <class Value>
RangeValues expand(double from, double to, Value value)
{
    RangeValues out;
    for (std::size_t i = 0;; ++i) {
        const double v = value(static_cast<double>(i));
        if (!at_or_below(v, to))
            return out;
        if (out.values.size() == kMaxRangeValues)
            return {{}, too_many(from, to)};
        out.values.push_back(v);
    }
}

}  // namespace

RangeValues arithmetic_range(double from, double to, double step)
{
    if (!(step > 0))
        return {{}, "expected \"step\" above 0"};
    if (!(to >= from))
        return {{}, "expected \"to\" at or above \"from\""};
    return expand(from, to, [&](double i) { return from + i * step; });
}

RangeValues geometric_range(double from, double to, double factor)
{
    if (!(from > 0))
        return {{}, "expected \"from\" above 0 for a geometric range"};
    if (!(factor > 1))
        return {{}, "expected \"factor\" above 1"};
    if (!(to >= from))
        return {{}, "expected \"to\" at or above \"from\""};
    return expand(from, to, [&](double i) { return from * std::pow(factor, i); });
}

std::string spec_number_text(double value)
{
    char buf[64];
    if (std::fabs(value) < 9.007199254740992e15 && value == std::nearbyint(value))
        std::snprintf(buf, sizeof buf, "%.0f", value);
    else
        std::snprintf(buf, sizeof buf, "%.12g", value);
    return buf;
}

ParameterValue parameter_value(std::string text)
{
    ParameterValue v{std::move(text), std::nullopt};
    const char* begin = v.text.c_str();
    char* end = nullptr;
    const double number = std::strtod(begin, &end);
    // "500us" is 500 and "4" is 4, but "0-3" (a cpulist) is no number.
    const std::string_view unit(end, static_cast<std::size_t>(begin + v.text.size() - end));
    const bool unit_only = std::all_of(unit.begin(), unit.end(), [](char c) {
        return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '%';
    });
    if (end != begin && std::isfinite(number) && unit_only)
        v.number = number;
    return v;
}

}  // namespace wb

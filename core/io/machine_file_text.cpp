// SPDX-License-Identifier: Apache-2.0
//
// The machine-file helpers shared by reading and writing (machine_file_text.h):
// exact decimal formatting of scaled numbers, cost units, JSON string quoting
// and machine names.
#include "io/machine_file_text.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace wb::machine_file_text {

std::string format_scaled(double value, int exp10)
{
    if (value == 0)
        return "0";
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
    std::string_view s(buf, static_cast<std::size_t>(end - buf));  // "-1.25e+03"
    std::string out;
    if (s.front() == '-') {
        out += '-';
        s.remove_prefix(1);
    }
    const std::size_t e = s.find('e');
    std::string digits;
    for (char c : s.substr(0, e))
        if (c != '.')
            digits += c;
    int exponent = 0;
    std::string_view exp_text = s.substr(e + 1);
    const bool negative = exp_text.front() == '-';
    if (exp_text.front() == '-' || exp_text.front() == '+')
        exp_text.remove_prefix(1);
    std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), exponent);
    const long lead = (negative ? -exponent : exponent) - exp10;  // power of ten of the first digit
    const auto len = static_cast<long>(digits.size());
    if (lead >= 0 && lead < 21) {
        if (len <= lead + 1)
            out += digits + std::string(static_cast<std::size_t>(lead + 1 - len), '0');
        else
            out += digits.substr(0, static_cast<std::size_t>(lead + 1)) + "." +
                   digits.substr(static_cast<std::size_t>(lead + 1));
    } else if (lead < 0 && lead >= -6) {
        out += "0." + std::string(static_cast<std::size_t>(-lead - 1), '0') + digits;
    } else {
        out += digits.substr(0, 1);
        if (len > 1)
            out += "." + digits.substr(1);
        out += "e" + std::to_string(lead);
    }
    return out;
}

std::span<const UnitScale> units_of(CostKind kind)
{
    static constexpr UnitScale kTime[] = {{"ns", 0}, {"us", 3}, {"ms", 6}, {"s", 9}};
    static constexpr UnitScale kFrequency[] = {{"GHz", 0}, {"MHz", -3}};
    static constexpr UnitScale kRate[] = {{"Hz", 0}};
    // GB/s is bytes per ns, the unit the engine divides by.
    static constexpr UnitScale kBandwidth[] = {{"GB/s", 0}, {"MB/s", -3}};
    switch (kind) {
    case CostKind::Time:
        return kTime;
    case CostKind::Frequency:
        return kFrequency;
    case CostKind::Rate:
        return kRate;
    case CostKind::Bandwidth:
        return kBandwidth;
    case CostKind::Ratio:
        break;
    }
    return {};
}

std::string json_string(std::string_view s)
{
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
                out += buf;
            } else {
                out += c;
            }
        }
    }
    return out + '"';
}

bool valid_machine_name(std::string_view name)
{
    auto ok = [](char c, bool first) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (!first && (c == '.' || c == '_' || c == '-'));
    };
    if (name.empty() || !ok(name.front(), true))
        return false;
    return std::all_of(name.begin() + 1, name.end(), [&](char c) { return ok(c, false); });
}

}  // namespace wb::machine_file_text

// SPDX-License-Identifier: Apache-2.0
#include "workload/workload_params.h"

#include <charconv>

#include "io/input_error.h"

namespace wb {

void WorkloadParams::fail(const std::string& message) const
{
    throw InputError(Diagnostic{"workload '" + spec_ + "'", 0, 0, "", message});
}

void WorkloadParams::fail_at(const std::string& name, const std::string& message) const
{
    const auto it = columns_.find(name);
    if (it == columns_.end())
        fail(message);
    throw InputError(Diagnostic{"workload '" + spec_ + "'", 1, static_cast<int>(it->second), "", message});
}

std::uint64_t WorkloadParams::count(const std::string& name, std::uint64_t min, std::uint64_t max) const
{
    const std::string t = text(name);
    std::uint64_t v = 0;
    auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc{} || ptr != t.data() + t.size() || v < min || v > max)
        fail_at(name, name + "=" + t + ": expected a whole number from " + std::to_string(min) + " to " +
                          std::to_string(max));
    return v;
}

bool WorkloadParams::flag(const std::string& name) const
{
    const std::string t = text(name);
    if (t == "1" || t == "on" || t == "yes" || t == "true")
        return true;
    if (t == "0" || t == "off" || t == "no" || t == "false")
        return false;
    fail_at(name, name + "=" + t + ": expected 0 or 1 (on/off)");
}

double WorkloadParams::number(const std::string& name, double min, double max) const
{
    const std::string t = text(name);
    double v = 0;
    auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc{} || ptr != t.data() + t.size() || !(v >= min && v <= max))
        fail_at(name,
                name + "=" + t + ": expected a number from " + std::to_string(min) + " to " + std::to_string(max));
    return v;
}

Time WorkloadParams::duration(const std::string& name) const
{
    const std::string t = text(name);
    Time out;
    if (!parse_duration(t, out))
        fail_at(name, name + "=" + t + ": expected a duration such as 500us, 2ms or 1s");
    return out;
}

std::string WorkloadParams::choice(const std::string& name, const std::vector<std::string>& choices) const
{
    const std::string t = text(name);
    std::string valid;
    for (const std::string& c : choices) {
        if (c == t)
            return t;
        valid += (valid.empty() ? "" : ", ") + c;
    }
    fail_at(name, name + "=" + t + ": expected one of " + valid);
}

}  // namespace wb

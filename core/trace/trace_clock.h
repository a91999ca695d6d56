// SPDX-License-Identifier: Apache-2.0
//
// The clocks tracefs offers (/sys/kernel/tracing/trace_clock) and what their
// stamps are. The kernel prints a nanosecond clock's stamp as seconds with
// microseconds ("1609.207315:") and any other clock's raw count as a whole
// number ("123456789:"), so a trace's text says which kind it has but not
// which clock: `--clock` names it where that matters.
#pragma once

#include <array>
#include <string_view>

namespace wb {

struct TraceClock {
    std::string_view name;  // as trace_clock lists it
    bool in_ns;             // its stamps are nanoseconds (trace_clocks[].in_ns)
    std::string_view what;
};

inline constexpr std::array<TraceClock, 10> kTraceClocks{{
    {"local", true, "per-CPU sched_clock, not synchronised across CPUs (the default)"},
    {"global", true, "sched_clock synchronised across CPUs"},
    {"mono", true, "CLOCK_MONOTONIC (ktime_get_mono_fast_ns)"},
    {"mono_raw", true, "CLOCK_MONOTONIC_RAW, without NTP's adjustment"},
    {"boot", true, "CLOCK_BOOTTIME, counting suspend"},
    {"tai", true, "CLOCK_TAI"},
    {"perf", true, "perf's clock (local_clock)"},
    {"counter", false, "an atomic counter: an order of events, no time"},
    {"uptime", false, "jiffies: ticks of CONFIG_HZ"},
    {"x86-tsc", false, "raw TSC cycles"},
}};

inline const TraceClock* find_trace_clock(std::string_view name)
{
    for (const TraceClock& c : kTraceClocks)
        if (c.name == name)
            return &c;
    return nullptr;
}

}  // namespace wb

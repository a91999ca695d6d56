// SPDX-License-Identifier: Apache-2.0
//
// What a placement policy says about itself: its name, where it changes the
// wakeup path, the public discussion it comes from, and the switches that
// turn its parts off for ablation. `wakesim list policies` and the window
// show these. Shared by the shipped policies and by plugins.
#pragma once

#include <string_view>
#include <vector>

namespace wakebench {

struct PolicySwitch {
    std::string_view name;  // "smt_check": the spec writes `policy:smt_check=off`
    bool default_on = true;
    std::string_view meaning;  // what the patch does while it is on, and what off leaves
};

struct PolicyInfo {
    std::string_view name;        // the user-visible name: "sync-waker-v3"
    std::string_view summary;     // one line
    std::string_view where;       // where it changes the path, in kernel function names
    std::string_view discussion;  // the public discussion it comes from
    std::vector<PolicySwitch> switches;
};

// The idle searches' return points a policy may redirect (idle_search_return()).
enum class IdleSearchReturn {
    SelectIdleCore,      // select_idle_core(): every thread of the scanned CPU's core is idle
    SelectIdleCpu,       // select_idle_cpu(): a single idle CPU found outside idle-core mode
    SelectIdleCapacity,  // select_idle_capacity(): the immediate "fits on a preferred core" return
    CapacityBest,        // select_idle_capacity(): the best-ranked candidate at the end of the scan
};

}  // namespace wakebench

// SPDX-License-Identifier: Apache-2.0
//
// prev-cpu-hot-v2: prev-cpu-hot's check moved into select_idle_sibling()
// behind an EAS check.
//
// Models the v2 plan of the prev-cpu-hot patch (Ampere engineer, after the
// October 2025 review). Why: cpu_overutilized() only means something with
// Energy Aware Scheduling, so v2 tests sched_energy_enabled() first, and
// moves the check to the top of select_idle_sibling(), where the kernel's
// other "stay warm" early returns are.
//
// Where: the top of select_idle_sibling(): with EAS enabled and
// !cpu_overutilized(prev), return prev.
// Expected effect: none on machines without EAS (servers, SMT); on EAS
// systems wakeups stay on prev while it has spare capacity.
#pragma once

#include "sched/placement_policy.h"

namespace wb {

class PrevCpuHotV2 final : public PlacementPolicy {
public:
    enum Switch { kEasCheck, kOverutilized };
    static const PolicyInfo& info();
    explicit PrevCpuHotV2(std::vector<bool> on);

    CpuId select_idle_sibling_entry(const SchedState& s, const WakeupArgs& w, CpuId target,
                                    DecisionRecord* rec) const override;
};

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// prev-cpu-hot: place the wakee on its previous CPU unless that CPU is
// over-utilized.
//
// Models the patch by an Ampere engineer (October 2025). Why: a wakee's
// cache footprint is on prev; skipping select_idle_sibling() when prev has
// room keeps it warm. The reviewers' point, simulated faithfully here:
// cpu_overutilized() is false whenever Energy Aware Scheduling is off, so on
// an ordinary server every wakeup goes to prev whether or not prev is busy,
// and even with EAS prev is judged without the wakee's own utilisation.
//
// Where: the fast path of select_task_rq_fair(), before
// select_idle_sibling(): if !cpu_overutilized(prev), return prev.
// Expected effect: wakeups stack on prev behind whatever runs there; the
// idle search never runs on non-EAS machines. prev-cpu-hot-v2 is the plan
// that came out of the review.
#pragma once

#include "sched/placement_policy.h"

namespace wb {

class PrevCpuHot final : public PlacementPolicy {
public:
    enum Switch { kOverutilized };
    static const PolicyInfo& info();
    explicit PrevCpuHot(std::vector<bool> on);

    CpuId before_select_idle_sibling(const SchedState& s, const WakeupArgs& w, CpuId target,
                                     DecisionRecord* rec) const override;
};

}  // namespace wb

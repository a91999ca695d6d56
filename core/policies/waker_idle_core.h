// SPDX-License-Identifier: Apache-2.0
//
// waker-idle-core: for a sync wakeup, the waker's CPU counts as idle in
// select_idle_core().
//
// Models the patch by an IBM engineer (August 2026), which the thread only
// describes in prose; the code is not in our sources, so this is our reading
// of the description. Why: a sync waker that is alone on its CPU is about to
// sleep, so its core is about to be an idle core; mainline's idle-core scan
// rejects it and sends the wakee to a core far from the data the pair
// shares. Counting the waker's CPU as idle lets that core qualify, and the
// wakee lands on an idle sibling thread of the waker, sharing its L1/L2.
//
// Where: select_idle_core(), reached only in idle-core mode (the idle-cores
// hint is set). When mainline finds the core busy, and the core holds the
// waker's CPU, the wakeup is sync and the waker is the only runnable fair
// task there: if every other thread of the core is idle, place on the
// scanned CPU if it is not the waker's, else on the first idle sibling in
// the scan's mask; never on the waker's CPU itself.
// Expected effect: pairs on SMT machines share a core (one thread each)
// instead of taking a whole idle core elsewhere; nothing else changes.
#pragma once

#include "sched/placement_policy.h"

namespace wb {

class WakerIdleCore final : public PlacementPolicy {
public:
    enum Switch { kSync, kWakerAlone };
    static const PolicyInfo& info();
    explicit WakerIdleCore(std::vector<bool> on);

    CpuId select_idle_core_busy(const SchedState& s, const WakeupArgs& w, CpuId core, const CpuMask& cpus,
                                DecisionRecord* rec) const override;
};

}  // namespace wb

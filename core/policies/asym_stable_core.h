// SPDX-License-Identifier: Apache-2.0
//
// asym-stable-core: a stable representative CPU for an idle SMT core in
// select_idle_capacity().
//
// Models the patch by an NVIDIA engineer (June 2026), with the review
// refinement. Why: select_idle_capacity() scans from target, so two wakeups
// that see the same idle core from different targets take one sibling each
// and end up sharing the core while other idle cores wait. Returning the
// first CPU of the core's SMT mask makes both pick the same runqueue, so the
// second sees it busy and moves on. The thread also found that on the
// measured machine sibling 0 was faster than sibling 1 although firmware
// advertised equal capacity (a topology can say so with per-thread speed),
// which made the first sibling the better choice anyway.
//
// Where: only on asymmetric-capacity systems, inside select_idle_capacity():
// at the immediate "fits on a preferred core" return and at the best-
// candidate return at the end, when the CPU belongs to a fully idle SMT
// core, return the first CPU of that core's SMT mask inside the scan's mask
// (domain span and p's affinity). Review refinement: the core counts as
// idle when has_idle_core && preferred_core, not by is_core_idle() per CPU.
// Expected effect: fewer pairs of wakees doubled up on one core; on cores
// whose first thread is faster, more work done per wakeup.
#pragma once

#include "sched/placement_policy.h"

namespace wb {

class AsymStableCore final : public PlacementPolicy {
public:
    enum Switch { kFirstReturn, kBestReturn, kIdleCoreHint };
    static const PolicyInfo& info();
    explicit AsymStableCore(std::vector<bool> on);

    CpuId idle_search_return(const SchedState& s, TaskId p, IdleSearchReturn where, CpuId cpu, bool idle_core,
                             const CpuMask& cpus, DecisionRecord* rec) const override;
};

}  // namespace wb

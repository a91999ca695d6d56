// SPDX-License-Identifier: Apache-2.0
//
// sis-sync-stack: push the sync-wakeup decision into select_idle_sibling().
//
// Models the counter-proposal by an AMD reviewer in the sync-waker thread
// (against tip:sched/core, lightly tested on SMT-2). Why: instead of
// bypassing the idle search like sync-waker-v3, let select_idle_sibling()
// itself decide, with its knowledge of idle cores. Only when no idle core is
// advertised does it first try prev's SMT siblings (moved up from mainline's
// block before the LLC scan, now also before the asym-capacity scan) and
// then stack a reciprocal sync pair on the waker's CPU "for a while"; when
// an idle core exists, the LLC scan goes on to find it.
//
// Where: select_idle_sibling(), which gains `sync`, after the
// recent_used_cpu step:
//   1. has_idle_core = sched_smt_active() && test_idle_cores(target);
//   2. without an idle core:
//      a. SMT active and prev shares cache with target: the first idle SMT
//         sibling of prev, bounded by the root domain's span (the cpuset;
//         no cpusets are modelled, so every CPU) instead of the LLC's, and
//         on asym-capacity systems skipping siblings p does not fit;
//      b. sync, task context, target is the waker CPU, p->last_wakee ==
//         current, target runs at most one runnable fair task and
//         asym_fits_cpu(task_util, util_min, util_max, target) (the diff's
//         own call: true on symmetric systems; on asym-capacity ones p's
//         util fits target and, with SMT, target's core is idle, which
//         task_fits_cpu() does not ask): target;
//   3. mainline's SMT-sibling block before select_idle_cpu() is removed.
// Expected effect: pipe-like pairs stack on the waker's CPU when the LLC has
// no idle core; an idle core still wins; on asym+SMT systems prev's idle
// sibling now beats the capacity scan.
#pragma once

#include <string>

#include "sched/placement_policy.h"

namespace wb {

class SisSyncStack final : public PlacementPolicy {
public:
    // kFits is the older shorthand: off turns kScanFits and kStackFits off.
    enum Switch {
        kSmtScan,
        kStack,
        kNoIdleCore,
        kSync,
        kTaskContext,
        kWakerTarget,
        kReciprocal,
        kAlone,
        kScanFits,
        kStackFits,
        kFits
    };
    static const PolicyInfo& info();
    explicit SisSyncStack(std::vector<bool> on);

    AfterRecentUsedCpu after_recent_used_cpu(const SchedState& s, const WakeupArgs& w, CpuId target,
                                             DecisionRecord* rec) const override;

private:
    CpuId prev_smt_sibling(const SchedState& s, const WakeupArgs& w, DecisionRecord* rec) const;
    // Whether the stacking conditions hold; with `why` (only when a record
    // is made) *why receives the first that failed.
    bool stack_on_target(const SchedState& s, const WakeupArgs& w, CpuId target, std::string* why) const;
};

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// sync-waker-v4: the narrower plan for v4 of the sync-waker patch.
//
// Described by the Ampere engineer in the v3 thread (July 2026) as the plan
// for v4, after review. Why: v3 overrides wake_affine(), so a pair whose
// partner's prev CPU was the better choice by load is still pulled. v4
// keeps wake_affine()'s judgement and only shortcuts its outcome: when
// wake_affine() itself chose the waker's CPU (target == this_cpu, as it
// does for a sync waker alone on its CPU) and the five v3 conditions hold,
// the waker's CPU is returned without select_idle_sibling() moving the
// wakee to another idle CPU.
//
// Where: select_task_rq_fair(), right after wake_affine() (when the waker is
// prev and wake_affine() is skipped, target is prev, the waker's CPU).
// Expected effect: the same stacking as v3 where wake_affine() agrees, none
// where it chose prev.
#pragma once

#include "policies/sync_waker_v3.h"

namespace wb {

class SyncWakerV4 final : public PlacementPolicy {
public:
    enum Switch { kSync, kSmtCheck, kReciprocal, kWakerAlone, kFits, kTargetCheck };
    static const PolicyInfo& info();
    explicit SyncWakerV4(std::vector<bool> on);

    CpuId after_wake_affine(const SchedState& s, const WakeupArgs& w, int sd, CpuId target,
                            DecisionRecord* rec) const override;

private:
    SyncWakerChecks checks_;
};

}  // namespace wb

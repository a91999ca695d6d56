// SPDX-License-Identifier: Apache-2.0
#include "policies/sync_waker_v4.h"

#include "policies/policy_util.h"

namespace wb {

const PolicyInfo& SyncWakerV4::info()
{
    static const PolicyInfo kInfo{
        "sync-waker-v4",
        "sync-waker-v3's conditions, applied only when wake_affine() already chose the waker CPU",
        "select_task_rq_fair(): right after wake_affine(); returns the waker CPU, skipping select_idle_sibling()",
        "plan for v4 in the sync-waker v3 thread (Ampere engineer, July 2026)",
        {
            {"sync", true, "require WF_SYNC; off: any wakeup of a reciprocal pair"},
            {"smt_check", true, "require sched_smt_active() false; off: also on SMT machines"},
            {"reciprocal", true, "require p->last_wakee == current; off: any waker"},
            {"waker_alone", true, "require exactly one runnable fair task on the waker CPU; off: however busy"},
            {"fits", true, "on asym-capacity systems require task_fits_cpu(p, waker cpu); off: never checked"},
            {"target_check", true,
             "require wake_affine() to have chosen the waker CPU; off: v3's rule, after wake_affine()"},
        },
    };
    return kInfo;
}

SyncWakerV4::SyncWakerV4(std::vector<bool> on)
    : PlacementPolicy(info(), std::move(on)),
      checks_{this->on(kSync), this->on(kSmtCheck), this->on(kReciprocal), this->on(kWakerAlone), this->on(kFits)}
{
}

CpuId SyncWakerV4::after_wake_affine(const SchedState& s, const WakeupArgs& w, int, CpuId target,
                                     DecisionRecord* rec) const
{
    if (on(kTargetCheck) && target != w.waker.cpu) {
        if (rec)
            note_declined(rec, name(), cat("wake_affine chose cpu ", target, ", not the waker cpu ", w.waker.cpu));
        return kNoCpu;
    }
    std::string why;
    if (!sync_waker_conditions(s, w, checks_, rec ? &why : nullptr)) {
        if (rec)
            note_declined(rec, name(), std::move(why));
        return kNoCpu;
    }
    if (rec)
        note(rec, name(), target == w.waker.cpu ? "wake_affine chose the waker cpu" : "reciprocal sync pair: waker cpu",
             cat("target ", target, "; ", why), w.waker.cpu);
    return w.waker.cpu;
}

}  // namespace wb

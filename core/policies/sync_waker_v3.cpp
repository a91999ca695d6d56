// SPDX-License-Identifier: Apache-2.0
#include "policies/sync_waker_v3.h"

#include "policies/policy_util.h"

namespace wb {

bool sync_waker_conditions(const SchedState& s, const WakeupArgs& w, const SyncWakerChecks& checks, std::string* why)
{
    // Each failure returns at once, in the patch's order: the detail names
    // the first condition that failed, the one a reader would fix first.
    auto fail = [why](auto&& text) {
        if (why)
            *why = text();
        return false;
    };
    if (checks.sync && !w.sync)
        return fail([&] { return not_sync_text(s, w); });
    if (checks.smt_check && s.domains->sched_smt_active())
        return fail([] { return std::string("SMT active"); });
    if (checks.reciprocal && !reciprocal_wakeup(s, w))
        return fail([&] { return not_reciprocal_text(s, w); });
    const Rq& rq = s.rq(w.waker.cpu);
    if (checks.waker_alone && nr_runnable_fair(rq) != 1)
        return fail([&] { return fair_tasks_text("waker", w.waker.cpu, nr_runnable_fair(rq)); });
    // Only asymmetric systems can have a waker CPU too small for p.
    const bool asym = s.domains->sched_asym_cpucapacity();
    if (checks.fits && asym && !task_fits_cpu(s, w.p, w.waker.cpu))
        return fail([&] { return does_not_fit_text(s, w.p, w.waker.cpu); });
    if (why) {
        *why = cat(checks.sync ? "sync" : "sync not checked", checks.smt_check ? ", SMT inactive" : ", SMT not checked",
                   checks.reciprocal ? cat(", p's last_wakee is current (task ", w.waker.task, ")")
                                     : std::string(", last_wakee not checked"),
                   checks.waker_alone ? cat(", waker cpu ", w.waker.cpu, " runs 1 fair task")
                                      : std::string(", waker's runqueue not checked"),
                   !asym         ? ""
                   : checks.fits ? cat(", util ", task_util_est(synced_avg(s, w.p)), " fits capacity ",
                                       capacity_of(s, w.waker.cpu))
                                 : std::string(", fit not checked"));
    }
    return true;
}

const PolicyInfo& SyncWakerV3::info()
{
    static const PolicyInfo kInfo{
        "sync-waker-v3",
        "prefer the waker CPU for non-SMT reciprocal sync wakeups",
        "select_task_rq_fair(): affine domain found, before wake_affine(); returns the waker CPU, skipping "
        "wake_affine() and select_idle_sibling()",
        "patch v3 by an Ampere engineer, July 2026, on v7.2-rc5; reviewers measured the SMT-2 regression "
        "without the SMT condition",
        {
            {"sync", true, "require WF_SYNC; off: any wakeup of a reciprocal pair"},
            {"smt_check", true,
             "require sched_smt_active() false; off: also on SMT machines (the reviewed regression)"},
            {"reciprocal", true, "require p->last_wakee == current; off: any waker"},
            {"waker_alone", true, "require exactly one runnable fair task on the waker CPU; off: however busy"},
            {"fits", true, "on asym-capacity systems require task_fits_cpu(p, waker cpu); off: never checked"},
        },
    };
    return kInfo;
}

SyncWakerV3::SyncWakerV3(std::vector<bool> on)
    : PlacementPolicy(info(), std::move(on)),
      checks_{this->on(kSync), this->on(kSmtCheck), this->on(kReciprocal), this->on(kWakerAlone), this->on(kFits)}
{
}

CpuId SyncWakerV3::before_wake_affine(const SchedState& s, const WakeupArgs& w, int, DecisionRecord* rec) const
{
    std::string why;
    if (!sync_waker_conditions(s, w, checks_, rec ? &why : nullptr)) {
        if (rec)
            note_declined(rec, name(), std::move(why));
        return kNoCpu;
    }
    if (rec)
        note(rec, name(), "reciprocal sync pair: waker cpu", std::move(why), w.waker.cpu);
    return w.waker.cpu;
}

}  // namespace wb

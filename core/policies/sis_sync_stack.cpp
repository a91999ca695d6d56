// SPDX-License-Identifier: Apache-2.0
#include "policies/sis_sync_stack.h"

#include "policies/policy_util.h"

namespace wb {

const PolicyInfo& SisSyncStack::info()
{
    static const PolicyInfo kInfo{
        "sis-sync-stack",
        "select_idle_sibling() gets sync: without an idle core, try prev's SMT siblings, then stack a reciprocal "
        "sync pair on the waker CPU",
        "select_idle_sibling(): after recent_used_cpu, before the asym-capacity and LLC scans; mainline's "
        "SMT-sibling block before select_idle_cpu() is removed",
        "counter-proposal by an AMD reviewer in the sync-waker v3 thread (tip:sched/core, lightly tested on SMT-2)",
        {
            {"smt_scan", true,
             "scan prev's SMT siblings here (root-domain bound, fit per scan_fits) instead of mainline's block before "
             "select_idle_cpu(); off: mainline's block stays"},
            {"stack", true, "return target (the waker CPU) for a reciprocal sync pair; off: no stacking"},
            {"no_idle_core", true, "stack only when no idle core is advertised; off: even with the hint set"},
            {"sync", true, "stack only for WF_SYNC wakeups"},
            {"task_context", true, "stack only when woken from task context, not from an interrupt"},
            {"waker_target", true, "stack only when target is the waker CPU; off: on whatever target is"},
            {"reciprocal", true, "stack only when p->last_wakee == current"},
            {"alone", true, "stack only when target runs at most one runnable fair task"},
            {"scan_fits", true,
             "on asym-capacity systems the sibling scan skips siblings p does not fit (task_fits_cpu); off: every "
             "idle sibling"},
            {"stack_fits", true,
             "stack only where asym_fits_cpu(task_util, util_min, util_max, target) holds, as the diff checks: on "
             "asym-capacity systems p fits target and, with SMT, target's core is idle; off: no fit test"},
            {"fits", true, "shorthand kept for older specs: off turns both scan_fits and stack_fits off"},
        },
    };
    return kInfo;
}

namespace {

// fits=off was the single switch for both fit tests before they were split:
// it still turns both off, whatever scan_fits and stack_fits say.
std::vector<bool> fits_off_sets_both(std::vector<bool> on)
{
    if (!on[SisSyncStack::kFits]) {
        on[SisSyncStack::kScanFits] = false;
        on[SisSyncStack::kStackFits] = false;
    }
    return on;
}

// Why asym_fits_cpu(util, 0, 1024, target) failed: p's util does not fit,
// or (asym with SMT) target's core has a busy sibling.
std::string asym_misfit_text(const SchedState& s, unsigned long util, CpuId target)
{
    if (util_fits_cpu(s, util, 0, 1024, target) <= 0)
        return cat("asym_fits_cpu: util ", util, " does not fit capacity ", capacity_of(s, target));
    return cat("asym_fits_cpu: util ", util, " fits target ", target, " but its core is not idle");
}

}  // namespace

SisSyncStack::SisSyncStack(std::vector<bool> on) : PlacementPolicy(info(), fits_off_sets_both(std::move(on))) {}

CpuId SisSyncStack::prev_smt_sibling(const SchedState& s, const WakeupArgs& w, DecisionRecord* rec) const
{
    // The root domain spans every CPU (no cpusets), so unlike mainline's
    // select_idle_smt() the sibling need not be in the LLC domain's span.
    const Task& t = s.task(w.p);
    const bool check_fit = on(kScanFits) && s.domains->sched_asym_cpucapacity();
    for (CpuId cpu : SmtSiblings(s, w.prev)) {
        if (cpu == w.prev || !t.cpus_allowed.test(cpu))
            continue;
        if (check_fit && !task_fits_cpu(s, w.p, cpu))
            continue;
        if (rec)
            rec->scanned.push_back(cpu);
        if (choose_idle_cpu(s, cpu, t)) {
            if (rec)
                note(rec, name(), "idle sibling of prev",
                     cat("no idle core; sibling ", cpu, " of prev ", w.prev, " idle", check_fit ? ", p fits" : ""),
                     cpu);
            return cpu;
        }
    }
    return kNoCpu;
}

bool SisSyncStack::stack_on_target(const SchedState& s, const WakeupArgs& w, CpuId target, std::string* why) const
{
    auto fail = [why](auto&& text) {
        if (why)
            *why = text();
        return false;
    };
    if (on(kSync) && !w.sync)
        return fail([&] { return not_sync_text(s, w); });
    if (on(kTaskContext) && !w.waker.in_task_context)
        return fail([] { return std::string("woken from an interrupt, not task context"); });
    if (on(kWakerTarget) && target != w.waker.cpu)
        return fail([&] { return cat("target ", target, " is not the waker cpu ", w.waker.cpu); });
    if (on(kReciprocal) && !reciprocal_wakeup(s, w))
        return fail([&] { return not_reciprocal_text(s, w); });
    if (on(kAlone) && nr_runnable_fair(s.rq(target)) > 1)
        return fail([&] { return fair_tasks_text("target", target, nr_runnable_fair(s.rq(target))); });
    if (on(kStackFits) && s.domains->sched_asym_cpucapacity()) {
        // select_idle_sibling()'s task_util: p's synced util_est; per-task
        // uclamps are not modelled (0 and 1024).
        const unsigned long util = task_util_est(synced_avg(s, w.p));
        if (!asym_fits_cpu(s, util, 0, 1024, target))
            return fail([&] { return asym_misfit_text(s, util, target); });
    }
    return true;
}

PlacementPolicy::AfterRecentUsedCpu SisSyncStack::after_recent_used_cpu(const SchedState& s, const WakeupArgs& w,
                                                                        CpuId target, DecisionRecord* rec) const
{
    AfterRecentUsedCpu out;
    out.skip_smt_sibling = on(kSmtScan);
    const SchedDomains& dom = *s.domains;
    const bool has_idle_core = dom.sched_smt_active() && test_idle_cores(s, target);

    const bool scan = !has_idle_core && on(kSmtScan) && dom.sched_smt_active() && dom.cpus_share_cache(w.prev, target);
    if (scan) {
        out.cpu = prev_smt_sibling(s, w, rec);
        if (out.cpu != kNoCpu)
            return out;
    }
    std::string why;
    if (!on(kStack)) {
        if (rec)
            why = "switch stack off";
    } else if (has_idle_core && on(kNoIdleCore)) {
        if (rec)
            why = "idle core advertised (has_idle_cores)";
    } else if (stack_on_target(s, w, target, rec ? &why : nullptr)) {
        if (rec)
            note(rec, name(), "stack sync pair on target",
                 cat(has_idle_core ? "idle core advertised (check off)" : "no idle core", on(kSync) ? ", sync" : "",
                     on(kTaskContext) ? ", task context" : "",
                     on(kWakerTarget) ? cat(", target ", target, " is the waker cpu") : cat(", target ", target),
                     on(kReciprocal) ? ", p's last_wakee is current" : "",
                     on(kAlone) ? cat(", target runs ", nr_runnable_fair(s.rq(target)), " fair task(s)") : "",
                     on(kStackFits) && dom.sched_asym_cpucapacity() ? ", asym_fits_cpu(target)" : ""),
                 target);
        out.cpu = target;
        return out;
    }
    // Declined: the stacking condition that failed, after the sibling scan
    // that found nothing, if it ran.
    if (rec)
        note_declined(rec, name(), scan ? cat("no idle SMT sibling of prev ", w.prev, "; ", why) : std::move(why));
    return out;
}

}  // namespace wb

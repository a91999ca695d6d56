// SPDX-License-Identifier: Apache-2.0
#include "policies/waker_idle_core.h"

#include "policies/policy_util.h"

namespace wb {

const PolicyInfo& WakerIdleCore::info()
{
    static const PolicyInfo kInfo{
        "waker-idle-core",
        "sync wakeups: the waker's CPU counts idle in select_idle_core(); place on an idle sibling of the waker",
        "select_idle_core() (idle-core mode of select_idle_cpu()): a core busy only with the sync waker qualifies",
        "patch by an IBM engineer, August 2026, described in prose in the thread (implemented from that "
        "description)",
        {
            {"sync", true, "only for WF_SYNC wakeups; off: any wakeup"},
            {"waker_alone", true,
             "only when the waker is the only runnable fair task on its CPU; off: however busy the waker CPU"},
        },
    };
    return kInfo;
}

namespace {

// Worded without the core, so that the step is the same for every core of
// the scan that is not the waker's and note_declined() keeps only one.
std::string not_waker_core_text(CpuId waker_cpu)
{
    return cat("the scanned core does not hold the waker cpu ", waker_cpu);
}

// Why a busy core does not qualify: it is not the waker's core, or a thread
// of it besides the waker's is busy.
std::string busy_core_text(const SchedState& s, CpuId core, CpuId busy, CpuId waker_cpu)
{
    for (CpuId cpu : SmtSiblings(s, core))
        if (cpu == waker_cpu)
            return cat("the waker's sibling ", idle_text(s, busy));
    return not_waker_core_text(waker_cpu);
}

}  // namespace

WakerIdleCore::WakerIdleCore(std::vector<bool> on) : PlacementPolicy(info(), std::move(on)) {}

CpuId WakerIdleCore::select_idle_core_busy(const SchedState& s, const WakeupArgs& w, CpuId core, const CpuMask& cpus,
                                           DecisionRecord* rec) const
{
    const CpuId waker_cpu = w.waker.cpu;
    // Asked once per busy core of the scan: the wakeup's own conditions come
    // first, so that their step is the same for every core (note_declined()
    // keeps one), then what this core lacks.
    if (w.waker.task == kNoTask) {
        if (rec)
            note_declined(rec, name(), "no sync waker: woken from an interrupt");
        return kNoCpu;
    }
    if (on(kSync) && !w.sync) {
        if (rec)
            note_declined(rec, name(), not_sync_text(s, w));
        return kNoCpu;
    }
    if (on(kWakerAlone) && nr_runnable_fair(s.rq(waker_cpu)) != 1) {
        if (rec)
            note_declined(rec, name(), fair_tasks_text("waker", waker_cpu, nr_runnable_fair(s.rq(waker_cpu))));
        return kNoCpu;
    }

    bool has_waker = false;
    CpuId first_idle = kNoCpu;
    for (CpuId cpu : SmtSiblings(s, core)) {
        if (cpu == waker_cpu) {
            has_waker = true;
            continue;
        }
        if (!available_idle_cpu(s.rq(cpu))) {
            if (rec)
                note_declined(rec, name(), busy_core_text(s, core, cpu, waker_cpu));
            return kNoCpu;
        }
        if (first_idle == kNoCpu && cpus.test(cpu))
            first_idle = cpu;
    }
    if (!has_waker || first_idle == kNoCpu) {
        if (rec)
            note_declined(rec, name(),
                          !has_waker ? not_waker_core_text(waker_cpu)
                                     : cat("no idle sibling of the waker cpu ", waker_cpu, " in the scan mask"));
        return kNoCpu;
    }
    // As mainline returns the CPU the scan reached, unless that is the
    // waker's own CPU: the wakee would queue behind the waker there.
    const CpuId chosen = core != waker_cpu ? core : first_idle;
    if (rec)
        note(rec, name(), "waker's core idle but for the waker",
             cat("sync waker on cpu ", waker_cpu, " runs ", nr_runnable_fair(s.rq(waker_cpu)),
                 " fair task(s); its siblings idle: cpu ", chosen),
             chosen);
    return chosen;
}

}  // namespace wb

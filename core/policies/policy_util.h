// SPDX-License-Identifier: Apache-2.0
//
// The tests several patches share, written once with the kernel's meaning:
// runnable fair tasks on a runqueue, the reciprocal-pair test on
// p->last_wakee, cpu_overutilized(), and the SMT-sibling priority order that
// smt-asym-packing uses, and the "not taken" step of a hook that declined.
// Private to core/policies.
#pragma once

#include <string>
#include <string_view>

#include "sched/placement_policy.h"
#include "sched/fair_select.h"
#include "sched/fair_util.h"
#include "sched/select_idle.h"

namespace wb {

// Runnable fair tasks: delayed-dequeue entities are queued but do not run.
inline unsigned int nr_runnable_fair(const Rq& rq)
{
    return rq.nr_running - cfs_h_nr_delayed(rq);
}

// p->last_wakee == current: the wakee last woke the task now waking it, a
// ping-pong pair that will keep handing one CPU back and forth.
inline bool reciprocal_wakeup(const SchedState& s, const WakeupArgs& w)
{
    return w.waker.task != kNoTask && s.task(w.p).last_wakee == w.waker.task;
}

// cpu_overutilized() [NEW]: false whenever EAS is off; otherwise the CPU's
// CFS utilisation no longer fits its capacity (uclamp not modelled: 0/1024).
inline bool cpu_overutilized(const SchedState& s, CpuId cpu)
{
    if (!s.eas_enabled)
        return false;
    return util_fits_cpu(s, cpu_util_cfs(s, cpu), 0, 1024, cpu) == 0;
}

// "waker cpu 3 runs 2 fair tasks": why a runqueue is not the waker alone.
inline std::string fair_tasks_text(std::string_view what, CpuId cpu, unsigned int nr)
{
    return cat(what, " cpu ", cpu, " runs ", nr, nr == 1 ? " fair task" : " fair tasks");
}

// "util 812 does not fit capacity 446": why task_fits_cpu(p, cpu) failed.
inline std::string does_not_fit_text(const SchedState& s, TaskId p, CpuId cpu)
{
    return cat("util ", task_util_est(synced_avg(s, p)), " does not fit capacity ", capacity_of(s, cpu));
}

// "p's last_wakee is not current (task 4, current task 7)".
inline std::string not_reciprocal_text(const SchedState& s, const WakeupArgs& w)
{
    if (w.waker.task == kNoTask)
        return "p's last_wakee is not current (no current: woken from an interrupt)";
    const TaskId last = s.task(w.p).last_wakee;
    if (last == kNoTask)
        return cat("p's last_wakee is not current (p woke no task yet; current task ", w.waker.task, ")");
    return cat("p's last_wakee is not current (task ", last, ", current task ", w.waker.task, ")");
}

// "not WF_SYNC", or that an exiting waker never counts as sync (it will
// not sleep and hand its CPU over, whatever its wake flags say).
inline std::string not_sync_text(const SchedState& s, const WakeupArgs& w)
{
    if (w.waker.task != kNoTask && s.task(w.waker.task).exiting)
        return "not sync: the waker is exiting";
    return "not WF_SYNC";
}

// "cpu_overutilized(prev 3): util 900 does not fit capacity 446".
inline std::string overutilized_text(const SchedState& s, std::string_view what, CpuId cpu)
{
    return cat("cpu_overutilized(", what, " ", cpu, "): util ", cpu_util_cfs(s, cpu), " does not fit capacity ",
               capacity_of(s, cpu));
}

// The step of a hook that was consulted and declined: `detail` is the first
// condition that failed. Called only with a record, so the caller builds the
// detail only then. A hook consulted once per scanned core repeats the same
// answer for every core; one step stands for such a run, the scan's own
// record (DecisionRecord::scanned) says how many cores it looked at.
inline void note_declined(DecisionRecord* rec, std::string_view policy, std::string detail)
{
    if (!rec->steps.empty()) {
        const DecisionStep& last = rec->steps.back();
        if (last.function == policy && last.branch == kNotTaken && last.detail == detail)
            return;
    }
    note(rec, policy, kNotTaken, std::move(detail));
}

}  // namespace wb

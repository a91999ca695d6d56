// SPDX-License-Identifier: Apache-2.0
//
// The tests several patches share, written once with the kernel's meaning:
// runnable fair tasks on a runqueue, the reciprocal-pair test on
// p->last_wakee, cpu_overutilized(), and the SMT-sibling priority order that
// smt-asym-packing uses. Private to core/policies.
#pragma once

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

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// Rq: one CPU's runqueue (struct rq), the per-CPU state placement reads.
#pragma once

#include <cstdint>

#include "base/sim_time.h"
#include "sched/cfs_rq.h"

namespace wb {

struct Rq {
    CpuId cpu = kNoCpu;
    TaskId curr = kNoTask;          // kNoTask: the idle task runs
    unsigned int nr_running = 0;    // all queued tasks of all classes, delayed fair tasks included
    unsigned int ttwu_pending = 0;  // wakeups on the wake list not yet activated
    // Tasks asleep in io_schedule() that left this runqueue (__block_task()):
    // a delayed-dequeue sleeper counts only once its dequeue finishes.
    int nr_iowait = 0;
    CfsRq cfs;

    long cpu_capacity = 1024;       // capacity_of()
    long cpu_capacity_orig = 1024;  // arch_scale_cpu_capacity()
    // clock_pelt, lost_idle_time and the capacity that drives them
    // (pelt.h): every PELT update of this runqueue and its tasks reads
    // rq_clock_pelt() from here.
    PeltClock pelt_clock;

    // Idle bookkeeping.
    int idle_state = -1;              // index into Machine::idle_states while idle; -1 busy or not yet in a state
    Time idle_stamp;                  // when the CPU went idle (0: not idle)
    std::int64_t avg_idle = 1000000;  // ns, 2 x migration_cost initially
    std::int64_t max_idle_balance_cost = 500000;

    bool is_idle_task_running() const { return curr == kNoTask; }
};

// idle_cpu(): the idle task runs, nothing is queued and no wakeup is pending.
inline bool idle_cpu(const Rq& rq)
{
    return rq.curr == kNoTask && rq.nr_running == 0 && rq.ttwu_pending == 0;
}

// available_idle_cpu(): idle_cpu() on bare metal (no preempted vCPUs).
inline bool available_idle_cpu(const Rq& rq)
{
    return idle_cpu(rq);
}

// sched_idle_rq(): every runnable task is SCHED_IDLE.
inline bool sched_idle_rq(const Rq& rq)
{
    return rq.nr_running > 0 && rq.nr_running == rq.cfs.h_nr_idle;
}

// Delayed-dequeue fair tasks still queued: h_nr_queued - h_nr_runnable.
inline unsigned int cfs_h_nr_delayed(const Rq& rq)
{
    return rq.cfs.h_nr_queued - rq.cfs.h_nr_runnable;
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// CfsRq: one CPU's fair-class runqueue (struct cfs_rq), flat as in v7.3: all
// runnable fair tasks of the CPU in one EEVDF queue. The counters below are
// what placement reads; the queue itself and its operations (eevdf.h)
// maintain them.
#pragma once

#include <cstdint>
#include <vector>

#include "sched/pelt.h"
#include "sched/task.h"

namespace wb {

// cfs_rq->tasks_timeline: the EEVDF tree's root and its cached leftmost
// (earliest deadline) entity; the links are in each entity's run_node, the
// operations in sched/eevdf_tree.h.
struct Timeline {
    TaskId root = kNoTask;
    TaskId leftmost = kNoTask;

    bool empty() const { return root == kNoTask; }
};

struct CfsRq {
    // Counters (§10.1 of the wakeup-path reference).
    unsigned int h_nr_queued = 0;    // queued fair tasks, delayed ones included
    unsigned int h_nr_runnable = 0;  // the same minus delayed-dequeue tasks
    unsigned int h_nr_idle = 0;      // queued SCHED_IDLE tasks

    TaskId curr = kNoTask;  // the running fair task, if any
    TaskId next = kNoTask;  // next buddy

    // EEVDF queue state: the queued entities other than curr, and the
    // weighted vruntime sums that give the zero-lag point V (avg_vruntime).
    Timeline tasks_timeline;
    std::int64_t zero_vruntime = 0;
    std::int64_t sum_w_vruntime = 0;  // sum of weight * (vruntime - zero_vruntime) over the queue
    std::uint64_t sum_weight = 0;

    // cfs_rq->load.weight: unscaled weights of every queued entity, curr and
    // delayed ones included; the root PELT load accrues at this rate.
    std::uint64_t load_weight = 0;
    // resched_curr_lazy() was asked for and no pick has acted on it yet.
    bool need_resched = false;
    // Delayed entities whose dequeue was finished (by a pick that met them,
    // a move, an exit) since the load balancer last looked: the candidates
    // whose entries lb_task_picked() drops from its rq->cfs_tasks list.
    std::vector<TaskId> delayed_dequeued;

    SchedAvg avg;  // root PELT signals: cpu_load() = avg.load_avg, cpu_util_cfs() from avg.util_avg / util_est
};

}  // namespace wb

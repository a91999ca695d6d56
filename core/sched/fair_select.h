// SPDX-License-Identifier: Apache-2.0
//
// The fair class's wakeup placement (kernel/sched/fair.c, v7.3 merge window):
// select_task_rq_fair() and everything it calls, one function per kernel
// decision with the kernel's names and order of early returns. The
// reference is ../shared/reference/wakeup-path.md §1-8; docs/model.md lists
// where and why we differ.
#pragma once

#include "sched/decision.h"
#include "sched/sched_state.h"

namespace wb {

// Who runs the wakeup: the CPU executing try_to_wake_up() and its current
// task. From interrupt context (an I/O completion, a timer) the current task
// is whatever was interrupted, possibly the idle task (kNoTask).
struct WakerContext {
    CpuId cpu = kNoCpu;
    TaskId task = kNoTask;
    bool in_task_context = true;  // false in IRQ / softirq context
};

// Fills in who wakes whom, from where and when: the engine when it opens a
// wakeup's record, the selector when it starts deciding.
inline void begin_record(DecisionRecord& rec, const SchedState& s, const WakerContext& waker, TaskId p, CpuId prev,
                         unsigned int wake_flags)
{
    rec.time = s.now;
    rec.waker = waker.task;
    rec.wakee = p;
    rec.waker_cpu = waker.cpu;
    rec.prev_cpu = prev;
    rec.wake_flags = wake_flags;
}

// The wakeup being placed, as the policy hooks (sched/placement_policy.h)
// see it down the path: the kernel passes these as arguments, and a patch
// that needs one more (sis-sync-stack needs `sync` in select_idle_sibling)
// reads it here.
struct WakeupArgs {
    WakerContext waker;
    TaskId p = kNoTask;
    CpuId prev = kNoCpu;
    bool sync = false;  // WF_SYNC from a waker that is not exiting
    // Set by an idle search when a policy hook replaced the CPU it returns,
    // so that select_idle_sibling() reports WakePath::Policy.
    bool policy_placed = false;
};

// select_task_rq(): the class-independent wrapper. Calls the fair selector
// when p may run on more than one CPU (and ORs WF_RQ_SELECTED into
// *wake_flags), else returns the one allowed CPU. `rec` may be null; `path`,
// if not null, receives the branch that chose the CPU, recorded or not, so
// the engine can count paths without building a record.
CpuId select_task_rq(SchedState& s, const WakerContext& waker, TaskId p, CpuId prev, unsigned int* wake_flags,
                     DecisionRecord* rec, WakePath* path = nullptr);

// select_task_rq_fair(): the CPU for task p. Writes what the kernel writes
// on the way: the waker's last_wakee / wakee_flips (record_wakee),
// p->recent_used_cpu (select_idle_sibling step 4) and the idle-cores hints.
// Fills rec (if not null) with every step, the scanned CPUs, the target and
// the chosen CPU and path; returns the chosen CPU.
CpuId select_task_rq_fair(SchedState& s, const WakerContext& waker, TaskId p, CpuId prev, unsigned int wake_flags,
                          DecisionRecord* rec, WakePath* path = nullptr);

// The pieces, exposed for tests and for the policies that change them.
bool wake_wide(const SchedState& s, const WakerContext& waker, TaskId p);
void record_wakee(SchedState& s, const WakerContext& waker, TaskId p);
// `sync` is only read by policies (s.policy); mainline's select_idle_sibling()
// does not take it.
CpuId select_idle_sibling(SchedState& s, const WakerContext& waker, TaskId p, CpuId prev, CpuId target,
                          DecisionRecord* rec, WakePath* path, bool sync = false);

}  // namespace wb

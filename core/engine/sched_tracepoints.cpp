// SPDX-License-Identifier: Apache-2.0
//
// The simulator's tracepoints: what the kernel's trace_sched_*() calls
// would write at the same moments, handed to the attached SchedEventSink.
// Out of line and only reached when a sink is attached, so a run without
// one pays a null test at each site (docs/performance.md).
#include "engine/simulator.h"
#include "sched/decision.h"
#include "topology/sd_flags.h"

namespace wb {

void Simulator::set_event_sink(SchedEventSink* sink)
{
    trace_ = sink;
    if (!trace_)
        return;
    for (const Task& t : s_.tasks)
        trace_->task_created(t.id, t.name, t.nice);
}

// A decision is made: sched_waking on the waker's CPU with target_cpu =
// the prev CPU the placement counts measure from, so an importer counts
// the same classes; a fork's sched_wakeup_new on the parent's CPU.
void Simulator::trace_decision(const DecisionRecord& rec)
{
    trace_->decision(rec);
    SchedEvent e;
    e.time = s_.now;
    e.cpu = rec.waker_cpu;
    e.current = s_.rq(rec.waker_cpu).curr;
    e.p = rec.wakee;
    if (rec.wake_flags & WF_FORK) {
        e.kind = SchedEventKind::WakeupNew;
        e.target_cpu = rec.chosen;
    } else {
        e.kind = SchedEventKind::Waking;
        // No prev (never ran) counts as the same CPU: say the chosen one.
        e.target_cpu = rec.prev_cpu != kNoCpu ? rec.prev_cpu : rec.chosen;
    }
    trace_->event(e);
}

void Simulator::trace_wakeup(CpuId cpu, TaskId p, CpuId target)
{
    SchedEvent e;
    e.kind = SchedEventKind::Wakeup;
    e.time = s_.now;
    e.cpu = cpu;
    e.current = s_.rq(cpu).curr;
    e.p = p;
    e.target_cpu = target;
    trace_->event(e);
}

void Simulator::trace_migrate(CpuId cpu, TaskId p, CpuId orig, CpuId dest)
{
    SchedEvent e;
    e.kind = SchedEventKind::MigrateTask;
    e.time = s_.now;
    e.cpu = cpu;
    e.current = trace_sched_prev_.cpu == cpu ? trace_sched_prev_.prev : s_.rq(cpu).curr;
    e.p = p;
    e.orig_cpu = orig;
    e.dest_cpu = dest;
    trace_->event(e);
}

// Called before rq->curr changes: `prev` is still current on `cpu`.
void Simulator::trace_switch(CpuId cpu, TaskId prev, TaskId next)
{
    SchedEvent e;
    e.kind = SchedEventKind::Switch;
    e.time = s_.now;
    e.cpu = cpu;
    e.current = prev;
    e.prev = prev;
    e.p = next;
    if (prev != kNoTask) {
        const Task& t = s_.task(prev);
        if (t.state == TaskState::Dead)
            e.prev_state = PrevTaskState::Dead;
        else if (t.state == TaskState::Sleeping)
            e.prev_state = t.in_iowait ? PrevTaskState::IoWait : PrevTaskState::Sleeping;
    }
    trace_->event(e);
}

}  // namespace wb

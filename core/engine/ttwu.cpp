// SPDX-License-Identifier: Apache-2.0
//
// Wakeups, as kernel/sched/core.c does them (reference §1.2-1.5):
// try_to_wake_up() asks the fair class for a CPU, then either queues the
// task on the target's wake list and sends an IPI, or activates it directly
// under the target's runqueue lock. The target reads as busy from the moment
// it is chosen (ttwu_pending), as in the kernel.
#include <cassert>
#include <optional>

#include "engine/cost_time.h"
#include "engine/simulator.h"
#include "sched/eevdf.h"
#include "sched/fair_select.h"
#include "topology/distance.h"

namespace wb {

// A wakeup decision begins: it takes the next number, and gets a record
// only when a sink will read it (nothing is spent on one otherwise).
[[gnu::hot, gnu::always_inline]] inline std::optional<DecisionRecord> Simulator::begin_decision(
    const WakerContext& waker, TaskId p, CpuId prev_cpu, unsigned int wake_flags)
{
    const std::uint64_t seq = wakeup_seq_++;
    if (!sink_)
        return std::nullopt;
    return new_record(seq, waker, p, prev_cpu, wake_flags);
}

// Out of line: a run that records nothing keeps wake_up() as compact as if
// records did not exist.
[[gnu::noinline]] DecisionRecord Simulator::new_record(std::uint64_t seq, const WakerContext& waker, TaskId p,
                                                       CpuId prev_cpu, unsigned int wake_flags) const
{
    DecisionRecord rec;
    rec.seq = seq;
    // Most wakeups take five to thirteen steps: one allocation, not four.
    rec.steps.reserve(16);
    begin_record(rec, s_, waker, p, prev_cpu, wake_flags);
    return rec;
}

[[gnu::hot]] void Simulator::wake_up(TaskId p, unsigned int wake_flags)
{
    assert(current_cpu_ != kNoCpu && "wake_up() is called from a running task's step");
    Task& pt = s_.task(p);
    if (pt.state != TaskState::Sleeping)
        return;  // already awake: try_to_wake_up() finds nothing to do
    const CpuId this_cpu = current_cpu_;
    const WakerContext waker{this_cpu, s_.rq(this_cpu).curr, !in_irq_};
    wake_flags |= WF_TTWU;
    ++metrics_.wakeups;
    TaskExec& t = task_[static_cast<std::size_t>(p)];
    t.wake_started = s_.now;
    t.latency_pending = true;
    charge_waker(this_cpu, cost_time(machine_, Cost::wakeup_local));

    const CpuId wake_cpu = pt.wake_cpu;
    std::optional<DecisionRecord> rec = begin_decision(waker, p, wake_cpu, wake_flags);

    // ttwu_runnable(): a delayed-dequeue task is still queued where it
    // slept; it becomes runnable again in place, with no CPU selection.
    if (pt.se.on_rq && pt.se.sched_delayed) {
        if (pt.in_iowait) [[unlikely]]
            end_iowait(pt.cpu, pt, pt.cpu == this_cpu);
        if (rec) {
            rec->target = pt.cpu;
            rec->steps.push_back({"ttwu_runnable", "delayed task requeued in place", "", pt.cpu});
        }
        finish_decision(WakePath::NotSelected, this_cpu, wake_cpu, pt.cpu, rec);
        enqueue_task_fair(s_, pt.cpu, p, ENQUEUE_DELAYED);
        pt.state = TaskState::Runnable;
        mark_runnable(p);
        if (wakeup_preempt_fair(s_, pt.cpu, p, wake_flags)) {
            cpu_[static_cast<std::size_t>(pt.cpu)].need_resched = true;
            if (pt.cpu != this_cpu)
                kick_cpu(pt.cpu, cost_time(machine_, Cost::wakeup_ipi));
        }
        return;
    }

    // A task that never ran has no prev; it wakes where it was created.
    const CpuId prev = pt.wake_cpu != kNoCpu ? pt.wake_cpu : pt.cpu != kNoCpu ? pt.cpu : this_cpu;
    WakePath path = WakePath::TargetFallback;
    const CpuId cpu = select_task_rq(s_, waker, p, prev, &wake_flags, rec ? &*rec : nullptr, &path);
    if (pt.cpu != kNoCpu && cpu != pt.cpu) {
        wake_flags |= WF_MIGRATED;
        if (pt.in_iowait) [[unlikely]]
            end_iowait(pt.cpu, pt, false);
    }
    set_task_cpu(s_, p, cpu);
    finish_decision(path, this_cpu, wake_cpu, cpu, rec);
    ttwu_queue(waker, p, cpu, wake_flags);
}

void Simulator::wake_up_from_irq(TaskId p, CpuId cpu, unsigned int wake_flags)
{
    // The interrupt steals time from whatever runs on `cpu`: settle its
    // segment, let the wakeup's kernel work count as overhead, resume.
    const bool busy = s_.rq(cpu).curr != kNoTask;
    if (busy)
        settle_progress(cpu);
    current_cpu_ = cpu;
    in_irq_ = true;
    const Time before = cpu_[static_cast<std::size_t>(cpu)].overhead_left;
    wake_up(p, wake_flags);
    metrics_.irq_time += cpu_[static_cast<std::size_t>(cpu)].overhead_left - before;
    in_irq_ = false;
    current_cpu_ = kNoCpu;
    if (!busy) {
        cpu_[static_cast<std::size_t>(cpu)].overhead_left = Time();
        return;
    }
    if (cpu_[static_cast<std::size_t>(cpu)].need_resched)
        schedule(cpu, true);
    else
        start_segment(cpu);
}

// ttwu_queue(): the wake-list condition of ttwu_queue_cond(). A target in
// another LLC always gets the IPI (its runqueue lines would bounce); in the
// same LLC only an idle target does, which it must be woken for anyway.
// Inlined into wake_up(), its one caller: the call passed the waker through
// memory and saved registers twice.
[[gnu::hot, gnu::always_inline]] inline void Simulator::ttwu_queue(const WakerContext& waker, TaskId p, CpuId cpu,
                                                                   unsigned int wake_flags)
{
    Rq& rq = s_.rq(cpu);
    const bool wakelist = s_.feats(Feat::TTWU_QUEUE) && cpu != waker.cpu &&
                          (!domains_.cpus_share_cache(waker.cpu, cpu) || rq.nr_running == 0);
    if (wakelist) {
        // The signal leaves once the waker has done its part of the
        // wakeup. A busy target in another LLC always takes the IPI.
        const IdleWake wake = rq.curr == kNoTask ? idle_wake(cpu) : IdleWake{cost_time(machine_, Cost::wakeup_ipi), true};
        ++rq.ttwu_pending;
        s_.task(p).state = TaskState::Waking;
        task_[static_cast<std::size_t>(p)].pending_flags = wake_flags;
        metrics_.ipis += wake.ipi;
        const Time leaves = cpu_[static_cast<std::size_t>(waker.cpu)].overhead_left;
        events_.push({s_.now + leaves + wake.delay, 0, kWakeupArrive, cpu, 0, p});
        return;
    }
    if (cpu != waker.cpu)
        charge_waker(waker.cpu, cost_time(machine_, Cost::remote_rq_access));
    ttwu_do_activate(cpu, p, wake_flags, false);
}

// Inlined into the run loop (see dispatch()), its only caller.
[[gnu::hot, gnu::always_inline]] inline void Simulator::on_wakeup_arrive(CpuId cpu, TaskId p)
{
    Rq& rq = s_.rq(cpu);
    --rq.ttwu_pending;
    // The IPI already paid for leaving the idle state; the CPU is awake now.
    const unsigned int wake_flags = task_[static_cast<std::size_t>(p)].pending_flags;
    if (rq.curr == kNoTask) {
        // ttwu_do_activate() on its own idle target has nothing to kick:
        // only the activation, here without the call.
        activate_woken(cpu, p, wake_flags);
        leave_idle(cpu);
        schedule_idle(cpu);
        return;
    }
    ttwu_do_activate(cpu, p, wake_flags, true);
}

// ttwu_do_activate()'s enqueue.
[[gnu::hot, gnu::always_inline]] inline void Simulator::activate_woken(CpuId cpu, TaskId p, unsigned int wake_flags)
{
    unsigned int enqueue_flags = ENQUEUE_WAKEUP;
    if (wake_flags & WF_MIGRATED)
        enqueue_flags |= ENQUEUE_MIGRATED;
    if (wake_flags & WF_RQ_SELECTED)
        enqueue_flags |= ENQUEUE_RQ_SELECTED;
    Task& pt = s_.task(p);
    if (pt.in_iowait) [[unlikely]]
        end_iowait(cpu, pt, cpu == current_cpu_ || current_cpu_ == kNoCpu);
    enqueue_task_fair(s_, cpu, p, enqueue_flags);
    pt.state = TaskState::Runnable;
    mark_runnable(p);
    note_rq_change(cpu);
}

// ttwu_do_activate(): enqueue, then see whether the wakee preempts.
// `on_target`: running on the target CPU itself (its wake-list IPI), which
// needs no kick to notice the task.
void Simulator::ttwu_do_activate(CpuId cpu, TaskId p, unsigned int wake_flags, bool on_target)
{
    activate_woken(cpu, p, wake_flags);

    Rq& rq = s_.rq(cpu);
    if (rq.curr == kNoTask) {
        // An idle target must be woken: a reschedule IPI and its idle exit.
        if (on_target || cpu_[static_cast<std::size_t>(cpu)].resched_pending || rq.ttwu_pending > 0)
            return;
        // The interrupt that woke the task is on this very CPU: no signal, only its idle exit.
        if (cpu == current_cpu_) {
            kick_cpu(cpu, idle_exit_latency(cpu));
            return;
        }
        const IdleWake wake = idle_wake(cpu);
        metrics_.ipis += wake.ipi;
        kick_cpu(cpu, wake.delay);
        return;
    }
    // Besides the wakee's own claim, update_curr() inside may have found the
    // running task's slice over (rq.cfs.need_resched).
    if (wakeup_preempt_fair(s_, cpu, p, wake_flags) || rq.cfs.need_resched) {
        cpu_[static_cast<std::size_t>(cpu)].need_resched = true;
        if (cpu != current_cpu_ && !on_target) {
            ++metrics_.ipis;
            kick_cpu(cpu, cost_time(machine_, Cost::wakeup_ipi));
        }
    }
}

void Simulator::wake_up_new_task(TaskId p, CpuId parent_cpu)
{
    Task& pt = s_.task(p);
    pt.cpu = parent_cpu;
    pt.recent_used_cpu = parent_cpu;
    const WakerContext parent{parent_cpu, s_.rq(parent_cpu).curr, true};
    unsigned int flags = WF_FORK;
    std::optional<DecisionRecord> rec = begin_decision(parent, p, parent_cpu, flags);
    WakePath path = WakePath::TargetFallback;
    const CpuId cpu = select_task_rq(s_, parent, p, parent_cpu, &flags, rec ? &*rec : nullptr, &path);
    pt.cpu = cpu;
    pt.wake_cpu = cpu;
    finish_decision(path, parent_cpu, parent_cpu, cpu, rec);
    post_init_entity_util_avg(s_, p);
    enqueue_task_fair(s_, cpu, p, ENQUEUE_INITIAL);
    pt.state = TaskState::Runnable;
    TaskExec& t = task_[static_cast<std::size_t>(p)];
    t.wake_started = s_.now;
    t.latency_pending = true;
    mark_runnable(p);
    Rq& rq = s_.rq(cpu);
    if (rq.curr == kNoTask) {
        kick_cpu(cpu, cpu == parent_cpu ? idle_exit_latency(cpu) : idle_wake(cpu).delay);
    } else if (wakeup_preempt_fair(s_, cpu, p, WF_FORK)) {
        cpu_[static_cast<std::size_t>(cpu)].need_resched = true;
        kick_cpu(cpu, cost_time(machine_, Cost::wakeup_ipi));
    }
}

// The waker's CPU spends this kernel time before its task continues.
void Simulator::charge_waker(CpuId cpu, Time cost)
{
    cpu_[static_cast<std::size_t>(cpu)].overhead_left += cost;
}

// Counts the decision in the metrics and hands its record to the sink.
[[gnu::hot]] void Simulator::finish_decision(WakePath path, CpuId waker_cpu, CpuId prev_cpu, CpuId chosen,
                                             std::optional<DecisionRecord>& rec)
{
    // A record's prev_cpu is the one the selector started from, which it
    // wrote there (select_task_rq() begins the record); the placement
    // counts have always gone by the record's.
    if (rec)
        prev_cpu = rec->prev_cpu;
    ++metrics_.wakeups_by_path[static_cast<std::size_t>(path)];
    const DistanceClass from_waker = distance_class(machine_, waker_cpu, chosen);
    const DistanceClass from_prev =
        prev_cpu == kNoCpu ? DistanceClass::SameCpu : distance_class(machine_, prev_cpu, chosen);
    ++metrics_.placement_from_waker[static_cast<std::size_t>(from_waker)];
    ++metrics_.placement_from_prev[static_cast<std::size_t>(from_prev)];
    if (!rec)
        return;
    rec->path = path;
    rec->chosen = chosen;
    rec->from_waker = from_waker;
    rec->from_prev = from_prev;
    sink_(*rec);
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// Wakeups, as kernel/sched/core.c does them (reference §1.2-1.5):
// try_to_wake_up() asks the fair class for a CPU, then either queues the
// task on the target's wake list and sends an IPI, or activates it directly
// under the target's runqueue lock. The target reads as busy once the
// wakeup is queued there (ttwu_pending, or the enqueue), as in the kernel;
// another CPU's selection that overlaps the choosing in time does not see it
// (select_in_window()). A wakee still switching out on its CPU is queued
// there without a selection (ttwu_on_cpu()).
#include <algorithm>
#include <cassert>
#include <optional>

#include "engine/cost_time.h"
#include "engine/idle_wake.h"
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
    if (!sink_ && !trace_)
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

// select_task_rq() on the run's state, shown first to the decision probe.
[[gnu::hot, gnu::always_inline]] inline CpuId Simulator::select(const WakerContext& waker, TaskId p, CpuId prev,
                                                              unsigned int* wake_flags, DecisionRecord* rec,
                                                              WakePath* path)
{
    if (probe_) [[unlikely]]
        probe(waker, p, prev, *wake_flags);
    return select_task_rq(s_, waker, p, prev, wake_flags, rec, path);
}

void Simulator::probe(const WakerContext& waker, TaskId p, CpuId prev, unsigned int wake_flags) const
{
    probe_(s_, waker, p, prev, wake_flags);
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
        pt.in_iowait = false;  // still queued: it never counted in nr_iowait
        if (rec) {
            rec->target = pt.cpu;
            rec->steps.push_back({"ttwu_runnable", "delayed task requeued in place", "", pt.cpu});
        }
        finish_decision(WakePath::NotSelected, this_cpu, wake_cpu, pt.cpu, rec);
        // ttwu_do_wakeup() under p's runqueue lock, from the waker's CPU.
        if (trace_) [[unlikely]]
            trace_wakeup(this_cpu, p, pt.cpu);
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

    // p->on_cpu: p blocked and its CPU is still switching out of it.
    if (s_.now < t.on_cpu_until) [[unlikely]] {
        if (ttwu_on_cpu(waker, p, wake_flags, rec))
            return;
    }

    // A task that never ran has no prev; it wakes where it was created.
    const CpuId prev = pt.wake_cpu != kNoCpu ? pt.wake_cpu : pt.cpu != kNoCpu ? pt.cpu : this_cpu;
    WakePath path = WakePath::TargetFallback;
    CpuId cpu;
    if (s_.now < last_select_.end) [[unlikely]] {
        cpu = select_in_window(waker, p, prev, &wake_flags, rec ? &*rec : nullptr, &path);
    } else {
        // Nothing overlaps: decide as at one instant, and open the window.
        s_.cpus_examined = 0;
        cpu = select(waker, p, prev, &wake_flags, rec ? &*rec : nullptr, &path);
        last_select_ = {selection_end(), p, this_cpu};
    }
    if (pt.cpu != kNoCpu && cpu != pt.cpu) {
        wake_flags |= WF_MIGRATED;
        if (pt.in_iowait) [[unlikely]]
            end_iowait(pt.cpu, pt, false);
    }
    const CpuId orig_cpu = pt.cpu;
    set_task_cpu(s_, p, cpu);
    finish_decision(path, this_cpu, wake_cpu, cpu, rec);
    // sched_migrate_task after sched_waking, as set_task_cpu() follows
    // select_task_rq() in try_to_wake_up().
    if (trace_ && orig_cpu != kNoCpu && orig_cpu != cpu) [[unlikely]]
        trace_migrate(this_cpu, p, orig_cpu, cpu);
    ttwu_queue(waker, p, cpu, wake_flags);
}

// The selection just made ends this long after it began: its own path and
// one remote runqueue read per CPU its searches tested. The waker already
// pays it inside wakeup_local; here it only sets when the choice shows.
[[gnu::hot, gnu::always_inline]] inline Time Simulator::selection_end() const
{
    return s_.now + Time::ns(select_step_ns_ + select_cpu_ns_ * s_.cpus_examined);
}

// A selection that begins while other CPUs' selections are still open: in
// the kernel it reads their targets before those wakeups are queued, so
// their ttwu_pending or enqueue is hidden from it while it decides. A
// selection of this same CPU is not hidden: one CPU's wakeups follow each
// other. What is hidden is what the idle tests read (ttwu_pending,
// nr_running); loads and utilisation stay as they are.
[[gnu::noinline]] CpuId Simulator::select_in_window(const WakerContext& waker, TaskId p, CpuId prev,
                                                    unsigned int* wake_flags, DecisionRecord* rec, WakePath* path)
{
    // The two lists live on between calls, so that a selection allocates
    // nothing (on a busy wide machine most selections overlap another).
    std::vector<HiddenEffect>& hidden = hidden_scratch_;
    hidden.clear();
    std::vector<OpenSelection>& open = open_scratch_;
    open.clear();
    for (const OpenSelection& o : open_selects_)
        if (o.end > s_.now)
            open.push_back(o);
    open.push_back(last_select_);
    for (const OpenSelection& o : open) {
        if (o.waker == waker.cpu || o.p == kNoTask)
            continue;
        const Task& q = s_.task(o.p);
        Rq& rq = s_.rq(q.cpu);
        // Only an effect still in place is hidden: the wakee may have run
        // and blocked again meanwhile.
        if (q.state == TaskState::Waking && rq.ttwu_pending > 0) {
            --rq.ttwu_pending;
            hidden.push_back({&rq, true});
        } else if (q.state == TaskState::Runnable && q.se.on_rq && rq.curr != o.p && rq.nr_running > 0) {
            --rq.nr_running;
            hidden.push_back({&rq, false});
        }
    }
    s_.cpus_examined = 0;
    const CpuId cpu = select(waker, p, prev, wake_flags, rec, path);
    for (const HiddenEffect& h : hidden)
        ++(h.pending ? h.rq->ttwu_pending : h.rq->nr_running);
    ++metrics_.overlapping_selections;
    if (rec)
        rec->steps.push_back({"select_task_rq", "overlapping selection",
                              "began while another CPU's selection was still open: its target not yet marked", cpu});
    // The one ending last stays in last_select_, the fast path's test.
    const OpenSelection mine{selection_end(), p, waker.cpu};
    if (mine.end >= last_select_.end) {
        open.back() = last_select_;
        last_select_ = mine;
    } else {
        open.push_back(mine);
        open.erase(open.end() - 2);
    }
    open_selects_.swap(open);  // the old list is the next call's scratch
    return cpu;
}

// try_to_wake_up() finds p->on_cpu set: p's CPU is still in __schedule()
// switching from p into idle. ttwu_queue_cond() decides whether the waker
// queues p on that CPU's wake list (another LLC, or nothing left on that
// runqueue), with no select_task_rq(); else the waker spins until p is off
// the CPU and selects as usual. True if p was queued.
[[gnu::noinline]] bool Simulator::ttwu_on_cpu(const WakerContext& waker, TaskId p, unsigned int wake_flags,
                                              std::optional<DecisionRecord>& rec)
{
    Task& pt = s_.task(p);
    const CpuId cpu = pt.cpu;
    const Time switched = task_[static_cast<std::size_t>(p)].on_cpu_until;
    if (!pt.cpus_allowed.test(cpu) || !ttwu_queue_cond(waker.cpu, cpu)) {
        // smp_cond_load_acquire(&p->on_cpu, !VAL): the waker waits.
        charge_waker(waker.cpu, switched - s_.now);
        return false;
    }
    if (rec) {
        rec->target = cpu;
        rec->steps.push_back({"try_to_wake_up", "p->on_cpu: wake list of task_cpu(p)",
                              "p still switching out on its CPU; ttwu_queue_cond() true: no select_task_rq()", cpu});
    }
    ++metrics_.on_cpu_wakeups;
    finish_decision(WakePath::NotSelected, waker.cpu, pt.wake_cpu, cpu, rec);
    queue_on_wakelist(waker.cpu, p, cpu, wake_flags);
    return true;
}

// A wake-list signal sent at `sent` that takes `delay` (its flight, an IPI
// or a polled flag, and the idle exit: idle_wake()) lands at sent + delay,
// unless the CPU is still switching into idle when the flight ends: it is
// taken when finish_task_switch() turns interrupts on, and the CPU never
// entered its idle state, so no exit. One comparison when the switch was
// over before the signal left.
[[gnu::hot, gnu::always_inline]] inline Time Simulator::after_switch_out(CpuId cpu, Time sent, Time delay) const
{
    const Time done = cpu_[static_cast<std::size_t>(cpu)].switch_out_end;
    if (done <= sent) [[likely]]
        return sent + delay;
    return landing_in_switch(cpu, sent + delay, done);
}

[[gnu::noinline]] Time Simulator::landing_in_switch(CpuId cpu, Time at, Time done) const
{
    const Time flight_end = at - idle_exit_latency(cpu);
    return flight_end < done ? done : at;
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

// ttwu_queue_cond(): whether the waker queues the task on the target's
// wake list. A target in another LLC always gets it (its runqueue lines
// would bounce); in the same LLC only an idle target does, which it must be
// woken for anyway.
[[gnu::hot, gnu::always_inline]] inline bool Simulator::ttwu_queue_cond(CpuId waker_cpu, CpuId cpu) const
{
    return s_.feats(Feat::TTWU_QUEUE) && cpu != waker_cpu &&
           (!domains_.cpus_share_cache(waker_cpu, cpu) || s_.rq(cpu).nr_running == 0);
}

// __ttwu_queue_wakelist(): the target reads as busy from now (ttwu_pending),
// and the wakee arrives when the signal has flown: it leaves once the waker
// has done its part of the wakeup. A busy target (in another LLC) always
// takes the IPI; an idle one is woken as its idle state allows.
[[gnu::hot, gnu::always_inline]] inline void Simulator::queue_on_wakelist(CpuId waker_cpu, TaskId p, CpuId cpu,
                                                                          unsigned int wake_flags)
{
    Rq& rq = s_.rq(cpu);
    const IdleWake wake = rq.curr == kNoTask ? idle_wake(cpu) : IdleWake{cost_time(machine_, Cost::wakeup_ipi), true};
    ++rq.ttwu_pending;
    s_.task(p).state = TaskState::Waking;
    task_[static_cast<std::size_t>(p)].pending_flags = wake_flags;
    metrics_.ipis += wake.ipi;
    const Time leaves = cpu_[static_cast<std::size_t>(waker_cpu)].overhead_left;
    events_.push({after_switch_out(cpu, s_.now + leaves, wake.delay), 0, kWakeupArrive, cpu, 0, p});
}

// ttwu_queue(): the wake list when ttwu_queue_cond() allows it, else the
// enqueue under the target's lock, from the waker's CPU. Inlined into wake_up(), its one caller: the call passed the waker through
// memory and saved registers twice.
[[gnu::hot, gnu::always_inline]] inline void Simulator::ttwu_queue(const WakerContext& waker, TaskId p, CpuId cpu,
                                                                   unsigned int wake_flags)
{
    if (ttwu_queue_cond(waker.cpu, cpu)) {
        queue_on_wakelist(waker.cpu, p, cpu, wake_flags);
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
    // Written by the CPU doing the activation: the waker's, or the target's
    // own for a wake-list wakeup (run from the event loop: no current_cpu_).
    if (trace_) [[unlikely]]
        trace_wakeup(current_cpu_ != kNoCpu ? current_cpu_ : cpu, p, cpu);
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
    const CpuId cpu = select(parent, p, parent_cpu, &flags, rec ? &*rec : nullptr, &path);
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
    if (sink_)
        sink_(*rec);
    if (trace_) [[unlikely]]
        trace_decision(*rec);
}

}  // namespace wb

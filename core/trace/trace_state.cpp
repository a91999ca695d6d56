// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_state.h"

namespace wb {

namespace {

// record_wakee() halves wakee_flips once a second (jiffies + HZ).
constexpr std::int64_t kWakeeFlipDecayNs = 1'000'000'000;

}  // namespace

TraceState::TraceState(int nr_cpus, bool times) : times_(times), cpus_(static_cast<std::size_t>(nr_cpus)) {}

int TraceState::new_task(int pid, const std::string& comm)
{
    if (by_pid_.count(pid))
        ++anomalies_.pid_reuses;
    TraceTask t;
    t.pid = pid;
    t.comm = comm;
    tasks_.push_back(std::move(t));
    const int index = static_cast<int>(tasks_.size()) - 1;
    by_pid_[pid] = index;
    return index;
}

int TraceState::task_of(int pid, const std::string* comm)
{
    if (pid == 0)
        return kTraceIdle;
    const auto it = by_pid_.find(pid);
    // A pid whose task exited belongs to a new task now.
    if (it == by_pid_.end() || tasks_[static_cast<std::size_t>(it->second)].state == TraceTaskState::Dead)
        return new_task(pid, comm ? *comm : std::string());
    TraceTask& t = tasks_[static_cast<std::size_t>(it->second)];
    if (comm && !comm->empty() && *comm != t.comm) {
        if (!t.comm.empty())
            ++t.comm_changes;
        t.comm = *comm;
    }
    return it->second;
}

void TraceState::set_curr(int cpu, int task, std::int64_t ts)
{
    TraceCpu& c = cpus_[static_cast<std::size_t>(cpu)];
    if (c.seen && times_) {
        if (c.curr == kTraceIdle)
            c.idle_ns += ts - c.since;
        else if (c.curr >= 0)
            c.busy_ns += ts - c.since;
    }
    c.curr = task;
    c.since = ts;
    c.seen = true;
}

void TraceState::set_queued(int task, int cpu)
{
    TraceTask& t = tasks_[static_cast<std::size_t>(task)];
    t.cpu = cpu;
    if (t.queued_on == cpu)
        return;
    if (t.queued_on >= 0)
        --cpus_[static_cast<std::size_t>(t.queued_on)].nr_running;
    ++cpus_[static_cast<std::size_t>(cpu)].nr_running;
    t.queued_on = cpu;
}

void TraceState::set_unqueued(int task)
{
    TraceTask& t = tasks_[static_cast<std::size_t>(task)];
    if (t.queued_on >= 0)
        --cpus_[static_cast<std::size_t>(t.queued_on)].nr_running;
    t.queued_on = -1;
}

// Every line names the task current on its CPU: the CPU is known from its
// first line, and a task first seen there was running before the trace. A
// task found current without a traced switch to it switched in unseen.
void TraceState::note_current(const TraceEvent& ev, TraceObserver* observer)
{
    const int cur = task_of(ev.common_pid, nullptr);
    TraceCpu& c = cpus_[static_cast<std::size_t>(ev.cpu)];
    const int before = c.curr;
    if (before == cur && (cur < 0 || tasks_[static_cast<std::size_t>(cur)].state == TraceTaskState::Running))
        return;
    const bool known_cpu = before != kTraceUnknown;
    if (before >= 0 && before != cur) {
        // Its switch out is missing too: where it went is not known.
        TraceTask& b = tasks_[static_cast<std::size_t>(before)];
        if (b.state == TraceTaskState::Running) {
            b.state = TraceTaskState::Unknown;
            set_unqueued(before);
        }
    }
    if (cur < 0) {
        set_curr(ev.cpu, cur, ev.ts);
        return;
    }
    TraceTask& t = tasks_[static_cast<std::size_t>(cur)];
    if (t.state == TraceTaskState::Unknown && t.last_ran < 0)
        t.before_trace = true;
    // A task seen at the CPU's first line was already running there: no
    // switch to report. Otherwise the switch to it was not traced.
    if (!known_cpu) {
        t.state = TraceTaskState::Running;
        t.last_ran = ev.cpu;
        set_queued(cur, ev.cpu);
        set_curr(ev.cpu, cur, ev.ts);
        return;
    }
    TraceSwitch s;
    s.line = ev.line;
    s.ts = ev.ts;
    s.cpu = ev.cpu;
    s.prev = before;
    s.next = cur;
    s.implied = true;
    switch_in(cur, ev, s, observer);
    set_curr(ev.cpu, cur, ev.ts);
    if (observer)
        observer->switched(*this, s);
}

// `task` starts running on ev.cpu: what its switch in measures.
void TraceState::switch_in(int task, const TraceEvent& ev, TraceSwitch& s, TraceObserver* observer)
{
    TraceTask& t = tasks_[static_cast<std::size_t>(task)];
    if (t.waking) {
        // Running before its sched_wakeup: that event was not traced (seen
        // from CPUs' idle paths, where tracepoints are off while RCU does
        // not watch). It was queued where it runs.
        ++anomalies_.wakeups_inferred;
        t.waking = false;
        const TraceWakeup w{ev.line, t.waking_line, ev.ts, task, t.waker, t.waker_cpu, t.wake_prev_cpu, ev.cpu,
                            false, t.waking_selects, true};
        if (w.selected && w.waker >= 0)
            record_wakee(w.waker, task, ev.ts);
        if (observer)
            observer->wakeup(*this, w);
    }
    if (t.state == TraceTaskState::Unknown && t.last_ran < 0)
        t.before_trace = true;
    if (t.last_ran >= 0 && t.last_ran != ev.cpu)
        s.migrated_from = t.last_ran;
    if (t.latency_pending && times_) {
        s.has_latency = true;
        s.latency_ns = ev.ts - t.wake_started;
    }
    if (t.runnable_pending && times_) {
        s.has_run_delay = true;
        s.run_delay_ns = ev.ts - t.runnable_since;
    }
    t.latency_pending = false;
    t.runnable_pending = false;
    t.state = TraceTaskState::Running;
    t.last_ran = ev.cpu;
    set_queued(task, ev.cpu);
}

void TraceState::record_wakee(int waker, int wakee, std::int64_t ts)
{
    TraceTask& w = tasks_[static_cast<std::size_t>(waker)];
    if (times_ && ts > w.wakee_flip_decay_ts + kWakeeFlipDecayNs) {
        w.wakee_flips >>= 1;
        w.wakee_flip_decay_ts = ts;
    }
    if (w.last_wakee != wakee) {
        w.last_wakee = wakee;
        ++w.wakee_flips;
    }
}

void TraceState::apply(const TraceEvent& ev, TraceObserver* observer)
{
    if (ev.kind == TraceEventKind::LostEvents) {
        ++anomalies_.lost_markers;
        anomalies_.lost_events += ev.lost;
        for (int cpu = 0; cpu < nr_cpus(); ++cpu)
            if (ev.cpu < 0 || ev.cpu == cpu)
                set_curr(cpu, kTraceUnknown, ev.ts);
        for (TraceTask& t : tasks_) {
            if (ev.cpu >= 0 && t.cpu != ev.cpu && !(t.waking && t.waker_cpu == ev.cpu))
                continue;
            t.latency_pending = false;
            t.runnable_pending = false;
            t.waking = false;
        }
        if (observer)
            observer->lost(*this, ev);
        return;
    }
    note_current(ev, observer);
    switch (ev.kind) {
    case TraceEventKind::SchedWaking: {
        const int p = task_of(ev.pid, &ev.comm);
        TraceTask& t = tasks_[static_cast<std::size_t>(p)];
        if (t.waking)
            ++anomalies_.wakings_without_wakeup;
        if (t.state == TraceTaskState::Unknown) {
            t.before_trace = true;
            t.state = TraceTaskState::Sleeping;
        }
        t.waking = true;
        t.waking_selects = t.state != TraceTaskState::Running && t.state != TraceTaskState::Runnable;
        t.waking_ts = ev.ts;
        t.waking_line = ev.line;
        t.waker_cpu = ev.cpu;
        t.waker = cpus_[static_cast<std::size_t>(ev.cpu)].curr;
        t.wake_prev_cpu = ev.target_cpu;
        t.cpu = ev.target_cpu;
        // A task still on its CPU is woken where it runs: no latency.
        if (t.state != TraceTaskState::Running && !t.latency_pending) {
            t.latency_pending = true;
            t.wake_started = ev.ts;
        }
        if (observer)
            observer->waking(*this, p);
        return;
    }
    case TraceEventKind::SchedMigrateTask: {
        ++anomalies_.migrate_events;
        const int p = task_of(ev.pid, &ev.comm);
        TraceTask& t = tasks_[static_cast<std::size_t>(p)];
        if (t.queued_on >= 0 && t.state == TraceTaskState::Runnable)
            set_queued(p, ev.dest_cpu);
        else
            t.cpu = ev.dest_cpu;
        return;
    }
    case TraceEventKind::SchedWakeup: {
        const int p = task_of(ev.pid, &ev.comm);
        TraceTask& t = tasks_[static_cast<std::size_t>(p)];
        TraceWakeup w;
        const bool complete = t.waking;
        if (complete) {
            w = {ev.line, t.waking_line, ev.ts, p, t.waker, t.waker_cpu, t.wake_prev_cpu, ev.target_cpu, false,
                 t.waking_selects, false};
        } else {
            ++anomalies_.wakeups_without_waking;
        }
        t.waking = false;
        if (t.state == TraceTaskState::Unknown)
            t.before_trace = true;
        if (t.state != TraceTaskState::Running) {
            if (t.state != TraceTaskState::Runnable && !t.runnable_pending) {
                t.runnable_pending = true;
                t.runnable_since = ev.ts;
            }
            t.state = TraceTaskState::Runnable;
            set_queued(p, ev.target_cpu);
        }
        if (complete && w.selected && w.waker >= 0)
            record_wakee(w.waker, p, ev.ts);
        if (complete && observer)
            observer->wakeup(*this, w);
        return;
    }
    case TraceEventKind::SchedWakeupNew: {
        const int p = new_task(ev.pid, ev.comm);
        TraceTask& t = tasks_[static_cast<std::size_t>(p)];
        t.state = TraceTaskState::Runnable;
        t.runnable_pending = true;
        t.runnable_since = ev.ts;
        set_queued(p, ev.target_cpu);
        const TraceWakeup w{ev.line, ev.line, ev.ts, p, cpus_[static_cast<std::size_t>(ev.cpu)].curr, ev.cpu,
                            ev.cpu, ev.target_cpu, true, true, false};
        if (observer)
            observer->wakeup(*this, w);
        return;
    }
    case TraceEventKind::SchedSwitch: {
        TraceSwitch s;
        s.line = ev.line;
        s.ts = ev.ts;
        s.cpu = ev.cpu;
        s.prev_state = ev.prev_state;
        s.prev = task_of(ev.prev_pid, &ev.prev_comm);
        if (s.prev >= 0) {
            TraceTask& t = tasks_[static_cast<std::size_t>(s.prev)];
            if (t.state == TraceTaskState::Unknown)
                t.before_trace = true;
            t.last_ran = ev.cpu;
            if (ev.prev_state == PrevState::Runnable) {
                t.state = TraceTaskState::Runnable;
                set_queued(s.prev, ev.cpu);
                t.runnable_pending = true;
                t.runnable_since = ev.ts;
            } else {
                t.state = ev.prev_state == PrevState::Dead ? TraceTaskState::Dead : TraceTaskState::Sleeping;
                set_unqueued(s.prev);
                t.latency_pending = false;
                t.runnable_pending = false;
            }
        }
        s.next = task_of(ev.pid, &ev.comm);
        if (s.next >= 0)
            switch_in(s.next, ev, s, observer);
        set_curr(ev.cpu, s.next, ev.ts);
        if (observer)
            observer->switched(*this, s);
        return;
    }
    case TraceEventKind::LostEvents:
    case TraceEventKind::Count:
        return;
    }
}

void TraceState::finish(std::int64_t end_ts)
{
    for (int cpu = 0; cpu < nr_cpus(); ++cpu)
        if (cpus_[static_cast<std::size_t>(cpu)].seen)
            set_curr(cpu, cpus_[static_cast<std::size_t>(cpu)].curr, end_ts);
}

}  // namespace wb

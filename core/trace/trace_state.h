// SPDX-License-Identifier: Apache-2.0
//
// TraceState: the kernel state a recorded trace implies, rebuilt event by
// event: each CPU's current task (from every line's common pid, not only
// from sched_switch, so a CPU is known from its first line), which tasks are
// on which runqueue (from wakeups, switches and migrations), each task's
// task_cpu(), last CPU and state, and the wakeup history wake_wide() reads
// (p->last_wakee, p->wakee_flips with its one-second decay, as
// record_wakee() keeps them).
//
// A line whose current task the state does not have running there stands
// for a switch the trace lacks: it is applied as one (TraceSwitch::implied).
//
// Tasks that exist before the trace starts are taken in as the first event
// shows them: running when they are a line's current task or switched out,
// runnable on a CPU when switched in, asleep when woken. Pids are reused:
// sched_wakeup_new, or any event of a pid whose task died, starts a new
// task. A comm that changes (exec, prctl) is the same task under a new name.
// A lost-events marker makes the CPU's current task unknown until its next
// line and drops the wakeups and waiting times that the lost events may
// have ended.
//
// The state is what select_task_rq_fair() would read at each sched_waking:
// TraceObserver::waking() is called before the wakeup changes anything, so
// a replay can rebuild the selector's inputs there, then compare with the
// kernel's choice at TraceObserver::wakeup().
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "trace/trace_event.h"

namespace wb {

inline constexpr int kTraceIdle = -1;     // a CPU's current task: the idle task
inline constexpr int kTraceUnknown = -2;  // a CPU's current task: not known (start, lost events)
inline constexpr int kTraceNoTask = -3;   // a pid the trace has not shown

enum class TraceTaskState { Unknown, Running, Runnable, Sleeping, Dead };

struct TraceTask {
    int pid = 0;
    std::string comm;
    int comm_changes = 0;
    TraceTaskState state = TraceTaskState::Unknown;
    int cpu = -1;       // task_cpu(p): the runqueue it is on or last was, -1 unknown
    int last_ran = -1;  // the CPU it last ran on, from its switches in
    int queued_on = -1;  // the runqueue it is counted on (running or runnable), -1 none
    bool before_trace = false;  // first seen running, runnable or asleep, not forked
    // record_wakee() on this task as a waker.
    int last_wakee = -1;  // task index
    unsigned int wakee_flips = 0;
    std::int64_t wakee_flip_decay_ts = 0;
    // A sched_waking waiting for its sched_wakeup.
    bool waking = false;
    bool waking_selects = false;  // try_to_wake_up() reaches select_task_rq(): p was not on a runqueue
    std::int64_t waking_ts = 0;
    int waking_line = 0;
    int waker_cpu = -1;
    int waker = kTraceIdle;  // task index, kTraceIdle from interrupts and the idle task
    int wake_prev_cpu = -1;
    // For the wakeup latency and the run delay.
    bool latency_pending = false;
    std::int64_t wake_started = 0;
    bool runnable_pending = false;
    std::int64_t runnable_since = 0;
};

struct TraceCpu {
    int curr = kTraceUnknown;  // task index, kTraceIdle or kTraceUnknown
    int nr_running = 0;        // tasks known on this runqueue, curr included
    bool seen = false;
    std::int64_t since = 0;    // when curr began (for busy and idle time)
    std::int64_t busy_ns = 0;
    std::int64_t idle_ns = 0;
};

// A wakeup the trace completed: sched_waking then sched_wakeup, or a fork's
// sched_wakeup_new.
struct TraceWakeup {
    int line = 0;        // of the sched_wakeup / sched_wakeup_new
    int waking_line = 0;  // of the sched_waking (the fork's own line)
    std::int64_t ts = 0;
    int wakee = -1;          // task index
    int waker = kTraceIdle;  // task index, or kTraceIdle
    int waker_cpu = -1;
    int prev_cpu = -1;  // task_cpu(p) as try_to_wake_up() began
    int chosen = -1;    // where it was queued
    bool fork = false;
    // select_task_rq() ran: p was on no runqueue. False when try_to_wake_up()
    // found p still queued (running, or preempted and runnable) and woke it
    // in place (ttwu_runnable()). A task the trace saw block but that the
    // kernel kept queued (delayed dequeue) reads as selected.
    bool selected = true;
    // The sched_wakeup was not traced: the task was seen running before it,
    // so it was queued where it ran (`line` is that line).
    bool inferred = false;
};

struct TraceSwitch {
    int line = 0;
    std::int64_t ts = 0;
    int cpu = -1;
    int prev = kTraceIdle;  // task index or kTraceIdle
    int next = kTraceIdle;
    PrevState prev_state = PrevState::Runnable;
    // No sched_switch was traced: a line showed `next` current on the CPU
    // while the state had another task (or idle) there. prev_state is then
    // unknown. (On the committed traces' machine CPU 1 never traces its
    // switches out of the idle task.)
    bool implied = false;
    int migrated_from = -1;  // next last ran on this other CPU
    bool has_latency = false;  // next was woken: wake_started to now
    std::int64_t latency_ns = 0;
    bool has_run_delay = false;  // next waited runnable
    std::int64_t run_delay_ns = 0;
};

// What the trace left out or could not say, counted while the state is
// rebuilt from it; the report prints each that is not zero.
struct TraceAnomalies {
    std::uint64_t pid_reuses = 0;              // a pid seen again for a new task
    std::uint64_t wakeups_without_waking = 0;  // sched_wakeup with no sched_waking before it
    std::uint64_t wakings_without_wakeup = 0;  // sched_waking never followed by its sched_wakeup
    std::uint64_t wakeups_inferred = 0;        // the wakee ran after sched_waking with no sched_wakeup traced
    std::uint64_t migrate_events = 0;
    std::uint64_t lost_events = 0;   // events the ring buffer dropped, as its markers count them
    std::uint64_t lost_markers = 0;  // "LOST n EVENTS" markers
};

class TraceState;

class TraceObserver {
public:
    virtual ~TraceObserver() = default;
    // select_task_rq_fair()'s moment: `state` is as the selector would read
    // it; `wakee` has its waking fields set.
    virtual void waking(const TraceState& /*state*/, int /*wakee*/) {}
    virtual void wakeup(const TraceState& /*state*/, const TraceWakeup& /*w*/) {}
    virtual void switched(const TraceState& /*state*/, const TraceSwitch& /*s*/) {}
    virtual void lost(const TraceState& /*state*/, const TraceEvent& /*marker*/) {}
};

class TraceState {
public:
    // `times`: the stamps are nanoseconds (latencies, run delays and the
    // wakee_flips decay need them).
    TraceState(int nr_cpus, bool times);

    // Applies one event, telling `observer` (may be null) what it completed.
    // Events must come in stamp order; CPUs must be below nr_cpus (the
    // caller checks them against the machine first).
    void apply(const TraceEvent& ev, TraceObserver* observer);
    // Closes the CPUs' busy and idle time at the last stamp.
    void finish(std::int64_t end_ts);

    const std::vector<TraceTask>& tasks() const { return tasks_; }
    const TraceTask& task(int index) const { return tasks_[static_cast<std::size_t>(index)]; }
    // The task index of pid's latest incarnation; kTraceIdle for pid 0, -3 if never seen.
    int find_task(int pid) const
    {
        if (pid == 0)
            return kTraceIdle;
        const auto it = by_pid_.find(pid);
        return it == by_pid_.end() ? kTraceNoTask : it->second;
    }
    const std::vector<TraceCpu>& cpus() const { return cpus_; }
    int nr_cpus() const { return static_cast<int>(cpus_.size()); }
    // A CPU the selector would call idle: the idle task runs and nothing is queued.
    bool cpu_idle(int cpu) const
    {
        const TraceCpu& c = cpus_[static_cast<std::size_t>(cpu)];
        return c.curr == kTraceIdle && c.nr_running == 0;
    }
    const TraceAnomalies& anomalies() const { return anomalies_; }

private:
    int task_of(int pid, const std::string* comm);  // the live task of pid, created if new
    int new_task(int pid, const std::string& comm);
    void set_curr(int cpu, int task, std::int64_t ts);
    void set_queued(int task, int cpu);   // on cpu's runqueue (running or runnable)
    void set_unqueued(int task);          // off every runqueue
    void note_current(const TraceEvent& ev, TraceObserver* observer);
    void switch_in(int task, const TraceEvent& ev, TraceSwitch& s, TraceObserver* observer);
    void record_wakee(int waker, int wakee, std::int64_t ts);

    bool times_;
    std::vector<TraceCpu> cpus_;
    std::vector<TraceTask> tasks_;
    std::unordered_map<int, int> by_pid_;  // pid -> task index of its latest incarnation
    TraceAnomalies anomalies_;
};

}  // namespace wb

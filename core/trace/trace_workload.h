// SPDX-License-Identifier: Apache-2.0
//
// A recorded trace turned into a json workload (docs/workload-json.md, "From
// a real trace"): each selected task becomes one task template that runs
// once (loop 1) through the traced task's whole timeline, so the shape of a
// real run (who wakes whom, sync or not, how long each runs between
// blocking, how long it sleeps) can be simulated under any policy.
//
//   run     the work the task did between two blocking points (or a
//           signal it sent), summed across preemptions: a preemption is
//           the scheduler's doing, not the task's, so the simulated
//           scheduler decides it anew. Work is time on a CPU times the
//           speed the engine would give that CPU then (its `speed`, times
//           smt_contention while an SMT sibling is busy), so that the
//           engine turns it back into the same time
//   wait    a block a selected task ended: the waker's timeline gets a
//           `signal` of "wake-<wakee>" at its sched_waking, the wakee's a
//           `wait` on it. Each name has one waiter, so waits and signals
//           pair off in trace order and the file cannot deadlock
//   signal  sync when the waker blocked after at most kTraceSyncWindow of
//           CPU time: what WF_SYNC declares (the waker is about to sleep)
//   sleep   a block ended by anything not selected (a timer, an interrupt,
//           a task left out): the traced time from the block to the wakeup
//   fork    a selected task forking a selected task; the child's template
//           has "start": false. Every other task starts with the run
//
// A task is selected when the filter matches any comm it had in the trace
// (a task renamed by exec or prctl is taken whole) or its pid.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/workload_json.h"
#include "trace/trace_parser.h"
#include "trace/trace_report.h"

namespace wb {

struct Machine;

// A waker that blocks within this much CPU time after a wakeup is taken to
// have made it with WF_SYNC. The kernel's sync wakers (pipe writes, unix
// sockets, binder) call schedule() right after the wake_up: a few
// microseconds of syscall exit and the read that blocks. 20 us is well
// above that on any machine the traces came from, and well below a run
// that does real work between the wakeup and the block.
inline constexpr std::int64_t kTraceSyncWindowNs = 20'000;

// Phases kept per task. A traced task of a busy benchmark emits about four
// phases per round trip; at this limit the file stays some megabytes and
// loads in well under a second. Past it the whole workload is cut at one
// instant of the trace, the same for every task, so that no wait is left
// without its signal.
inline constexpr std::size_t kTraceMaxPhasesPerTask = 100'000;

struct TraceWorkloadOptions {
    std::size_t max_phases_per_task = kTraceMaxPhasesPerTask;
};

// One selected task and what its timeline became.
struct TraceWorkloadTask {
    int pid = 0;
    std::string comm;       // its last comm in the trace
    std::string name;       // the template's name in the file
    bool forked = false;    // started by a selected parent's fork phase
    std::int64_t run_ns = 0;  // work written as run phases, in ns at nominal speed
    std::uint64_t runs = 0, waits = 0, signals = 0, sync_signals = 0, sleeps = 0, forks = 0;
};

struct TraceWorkload {
    WorkloadFile file;
    std::vector<TraceWorkloadTask> tasks;  // in the file's order
    std::uint64_t tasks_seen = 0;
    // Wakeups that ended a block of a selected task, by who woke it.
    std::uint64_t wakeups_by_selected = 0;  // written as signal/wait pairs
    std::uint64_t wakeups_by_others = 0;    // written as sleeps
    // The phase limit cut the workload at cut_ts: what the trace had after it.
    bool cut = false;
    std::int64_t first_ts = 0, last_ts = 0, cut_ts = 0;
    std::uint64_t wakeups_cut = 0;  // blocks of selected tasks ended after the cut
    std::uint64_t lost_markers = 0;  // the ring buffer dropped events: run lengths near them are short
};

// The workload of the tasks `filter` selects in `trace`, recorded on
// `machine` (checked as `trace import` checks it). `label` names the file
// in errors. A trace without ns stamps, or one where the filter selects no
// task, is an InputError saying why.
TraceWorkload trace_to_workload(const ParsedTrace& trace, const Machine& machine, const TaskFilter& filter,
                                const std::string& label, const TraceWorkloadOptions& options = {});

// What `wakesim trace to-workload` prints about what it wrote.
std::string format_trace_workload(const TraceWorkload& w, const std::string& output);

}  // namespace wb

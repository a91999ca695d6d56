// SPDX-License-Identifier: Apache-2.0
//
// What `wakesim trace import` reports of a recorded trace: the figures
// `wakesim run` prints for a simulated run, in the same RunMetrics, counted
// the same way (metrics/run_metrics.h), so that a real run and a simulated
// one can be read side by side and a simulated run's exported trace gives
// back its own figures:
//   placement      the CPU a wakeup was queued on (sched_wakeup's target_cpu)
//                  against the waker's CPU (sched_waking's CPU) and against
//                  prev (sched_waking's target_cpu, task_cpu(p)), by distance class
//   migrations     a task switched in on another CPU than it last ran on
//   latency        sched_waking to the wakee's sched_switch in
//   run delay      runnable (woken, forked, preempted) to switched in
//   switches       voluntary (prev blocked) and involuntary (prev still runnable)
//   not_selected   wakeups of a task still queued, which select_task_rq() never saw
// A --comm / --pid filter keeps only the workload's tasks in the figures;
// every task still drives the CPUs' state.
#pragma once

#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "metrics/run_metrics.h"
#include "trace/trace_parser.h"
#include "trace/trace_state.h"

namespace wb {

struct Machine;

struct TaskFilter {
    std::optional<std::regex> comm;  // searched in the task's comm at the event
    std::string comm_text;
    std::vector<std::pair<int, int>> pids;  // inclusive ranges
    bool active() const { return comm.has_value() || !pids.empty(); }
    bool matches(int pid, const std::string& comm) const;
};

struct TraceReport {
    RunMetrics metrics;
    std::uint64_t wakeups_selected = 0;  // placements that went through select_task_rq()
    std::uint64_t forks = 0;
    std::array<std::uint64_t, static_cast<std::size_t>(TraceEventKind::Count)> events{};
    std::int64_t first_ts = 0;
    std::int64_t last_ts = 0;
    int cpus_in_trace = 0;
    std::uint64_t tasks_seen = 0;
    std::uint64_t tasks_selected = 0;
    std::uint64_t tasks_before_trace = 0;
    std::uint64_t comm_changes = 0;
    TraceAnomalies anomalies;
};

// Every CPU the trace names must be one of the machine's: else an
// InputError naming `label`, each line and column (at most 20).
void check_trace_cpus(const ParsedTrace& trace, const Machine& machine, const std::string& label);

// Runs the trace through TraceState on `machine`. A CPU the machine lacks
// is an InputError naming `label`, the line and the column.
TraceReport build_trace_report(const ParsedTrace& trace, const Machine& machine, const TaskFilter& filter,
                               const std::string& label);

// The text `wakesim trace import` prints; `clock` is the --clock given, or empty.
std::string format_trace_report(const TraceReport& report, const ParsedTrace& trace, const std::string& clock,
                                const TaskFilter& filter);

}  // namespace wb

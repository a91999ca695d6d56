// SPDX-License-Identifier: Apache-2.0
//
// RunFigures: one run's results under the names the real tools report
// them by (perf stat's context-switches and cpu-migrations, mpstat's %idle,
// %iowait and %irq, getrusage()'s voluntary and involuntary switches,
// schedstat's run delay, cpuidle's usage counts), as rates per second of
// simulated wall time. `wakesim run`, its JSON, the window's metrics and
// `wakesim validate` all read them from here, so they never disagree.
#pragma once

#include <span>
#include <string_view>

#include "metrics/run_metrics.h"
#include "workload/workload.h"

namespace wb {

struct RunFigures {
    double headline = 0;                  // the workload's own headline (usecs/op, GFLOP/s, bogo ops/s)
    double ops_per_sec = 0;               // the workload's units of work per second
    double context_switches_per_sec = 0;  // every task, kernel threads and the idle task included (perf stat -a)
    double workload_voluntary_switches_per_sec = 0;    // the workload's tasks only (getrusage ru_nvcsw)
    double workload_involuntary_switches_per_sec = 0;  // (ru_nivcsw)
    double cpu_migrations_per_sec = 0;
    double busy_pct = 0;    // of all CPU time: running tasks or switching (turbostat Busy%)
    double idle_pct = 0;    // mpstat %idle: idle and not iowait
    double iowait_pct = 0;  // mpstat %iowait
    double irq_pct = 0;     // mpstat %irq: the kernel work the engine runs in interrupts
    double sched_yield_calls = 0;
    double sched_yield_per_sec = 0;
    double run_delay_per_runtime = 0;  // schedstat: time runnable but waiting, over time running
    double cpuidle_entries_per_sec = 0;
};

RunFigures run_figures(const RunMetrics& metrics, Time elapsed, double ops, const Headline& headline);

// The figures by name, for case files and the JSON results.
struct RunFigureInfo {
    std::string_view name;   // "cpu_migrations_per_sec"
    std::string_view label;  // "cpu-migrations/s"
    double RunFigures::*field;
};
std::span<const RunFigureInfo> run_figure_table();
const RunFigureInfo* find_run_figure(std::string_view name);

}  // namespace wb

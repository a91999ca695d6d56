// SPDX-License-Identifier: Apache-2.0
#include "metrics/run_figures.h"

#include <array>
#include <numeric>

namespace wb {

namespace {

double per_second(double count, double secs)
{
    return secs > 0 ? count / secs : 0.0;
}

double pct(Time part, Time whole)
{
    return whole.ns() > 0 ? 100.0 * static_cast<double>(part.ns()) / static_cast<double>(whole.ns()) : 0.0;
}

constexpr std::array<RunFigureInfo, 14> kTable{{
    {"headline", "headline", &RunFigures::headline},
    {"ops_per_sec", "ops/s", &RunFigures::ops_per_sec},
    {"context_switches_per_sec", "context switches/s (all tasks)", &RunFigures::context_switches_per_sec},
    {"workload_voluntary_switches_per_sec", "voluntary switches/s (workload)",
     &RunFigures::workload_voluntary_switches_per_sec},
    {"workload_involuntary_switches_per_sec", "involuntary switches/s (workload)",
     &RunFigures::workload_involuntary_switches_per_sec},
    {"cpu_migrations_per_sec", "cpu-migrations/s", &RunFigures::cpu_migrations_per_sec},
    {"busy_pct", "busy %", &RunFigures::busy_pct},
    {"idle_pct", "idle %", &RunFigures::idle_pct},
    {"iowait_pct", "iowait %", &RunFigures::iowait_pct},
    {"irq_pct", "irq %", &RunFigures::irq_pct},
    {"sched_yield_calls", "sched_yield() calls", &RunFigures::sched_yield_calls},
    {"sched_yield_per_sec", "sched_yield() calls/s", &RunFigures::sched_yield_per_sec},
    {"run_delay_per_runtime", "run delay / runtime", &RunFigures::run_delay_per_runtime},
    {"cpuidle_entries_per_sec", "cpuidle entries/s", &RunFigures::cpuidle_entries_per_sec},
}};

}  // namespace

RunFigures run_figures(const RunMetrics& m, Time elapsed, double ops, const Headline& headline)
{
    const double secs = elapsed.to_seconds();
    RunFigures f;
    f.headline = headline.value;
    f.ops_per_sec = per_second(ops, secs);
    // perf's context-switches counts every switch between two tasks, the
    // idle task included: a task that blocks, one preempted, and the idle
    // task leaving the CPU to a woken one.
    f.context_switches_per_sec = per_second(
        static_cast<double>(m.voluntary_switches + m.involuntary_switches + m.switches_from_idle), secs);
    f.workload_voluntary_switches_per_sec = per_second(static_cast<double>(m.workload_voluntary_switches), secs);
    f.workload_involuntary_switches_per_sec = per_second(static_cast<double>(m.workload_involuntary_switches), secs);
    const std::uint64_t migrations = std::accumulate(m.migrations.begin(), m.migrations.end(), std::uint64_t{0});
    f.cpu_migrations_per_sec = per_second(static_cast<double>(migrations), secs);
    Time busy, idle, iowait;
    for (const CpuTimes& c : m.cpu_times) {
        busy += c.busy;
        idle += c.idle;
        iowait += c.iowait;
    }
    const Time all = busy + idle;
    f.busy_pct = pct(busy, all);
    f.idle_pct = pct(idle - iowait, all);
    f.iowait_pct = pct(iowait, all);
    f.irq_pct = pct(m.irq_time, all);
    f.sched_yield_calls = static_cast<double>(m.yields);
    f.sched_yield_per_sec = per_second(f.sched_yield_calls, secs);
    const double delay_ns = m.run_delay.mean() * static_cast<double>(m.run_delay.count());
    f.run_delay_per_runtime = m.runtime.ns() > 0 ? delay_ns / static_cast<double>(m.runtime.ns()) : 0.0;
    f.cpuidle_entries_per_sec = per_second(static_cast<double>(m.idle_entries), secs);
    return f;
}

std::span<const RunFigureInfo> run_figure_table()
{
    return kTable;
}

const RunFigureInfo* find_run_figure(std::string_view name)
{
    for (const RunFigureInfo& info : kTable)
        if (info.name == name)
            return &info;
    return nullptr;
}

}  // namespace wb

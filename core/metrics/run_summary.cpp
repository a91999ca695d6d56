// SPDX-License-Identifier: Apache-2.0
#include "metrics/run_summary.h"

#include "metrics/run_figures.h"

#include <cstdio>
#include <numeric>

namespace wb {

std::array<double, kDistanceClassCount> placement_fractions(
    const std::array<std::uint64_t, kDistanceClassCount>& counts)
{
    std::array<double, kDistanceClassCount> out{};
    const std::uint64_t total = std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
    if (total == 0)
        return out;
    for (std::size_t i = 0; i < kDistanceClassCount; ++i)
        out[i] = static_cast<double>(counts[i]) / static_cast<double>(total);
    return out;
}

namespace {

void line(std::string& out, const char* fmt, auto... args)
{
    char buf[256];
    std::snprintf(buf, sizeof buf, fmt, args...);
    out += buf;
}

}  // namespace

std::string format_run_summary(const RunMetrics& m, Time elapsed)
{
    std::string out;
    line(out, "simulated time      %.6f s, %llu events\n", elapsed.to_seconds(),
         static_cast<unsigned long long>(m.events));
    const Histogram& w = m.wakeup_latency;
    line(out, "wakeup latency (us) p50 %.2f  p90 %.2f  p99 %.2f  p99.9 %.2f  max %.2f  (%llu wakeups)\n",
         static_cast<double>(w.percentile(0.50)) / 1e3, static_cast<double>(w.percentile(0.90)) / 1e3,
         static_cast<double>(w.percentile(0.99)) / 1e3, static_cast<double>(w.percentile(0.999)) / 1e3,
         static_cast<double>(w.max()) / 1e3, static_cast<unsigned long long>(w.count()));
    const Histogram& r = m.run_delay;
    line(out, "run delay (us)      p50 %.2f  p99 %.2f  max %.2f  mean %.2f\n",
         static_cast<double>(r.percentile(0.50)) / 1e3, static_cast<double>(r.percentile(0.99)) / 1e3,
         static_cast<double>(r.max()) / 1e3, r.mean() / 1e3);
    line(out, "context switches    %llu voluntary, %llu involuntary; %llu IPIs\n",
         static_cast<unsigned long long>(m.voluntary_switches), static_cast<unsigned long long>(m.involuntary_switches),
         static_cast<unsigned long long>(m.ipis));
    out += "placement (vs waker)";
    const auto from_waker = placement_fractions(m.placement_from_waker);
    for (std::size_t i = 0; i < kDistanceClassCount; ++i)
        if (m.placement_from_waker[i])
            line(out, "  %s %.1f%%", std::string(kDistanceClassNames[i]).c_str(), 100 * from_waker[i]);
    out += "\nmigrations         ";
    for (std::size_t i = 1; i < kDistanceClassCount; ++i)
        line(out, "  %s %llu", std::string(kDistanceClassNames[i]).c_str(),
             static_cast<unsigned long long>(m.migrations[i]));
    out += "\nwakeup paths       ";
    for (std::size_t i = 0; i < m.wakeups_by_path.size(); ++i)
        if (m.wakeups_by_path[i])
            line(out, "  %s %llu", std::string(kWakePathNames[i]).c_str(),
                 static_cast<unsigned long long>(m.wakeups_by_path[i]));
    Time busy;
    for (const CpuTimes& c : m.cpu_times)
        busy += c.busy;
    const double cpus_busy = elapsed.ns() > 0 ? static_cast<double>(busy.ns()) / static_cast<double>(elapsed.ns()) : 0;
    line(out, "\nCPUs busy           %.3f on average; idle while a task waited %.6f s\n", cpus_busy,
         m.idle_while_waiting.to_seconds());
    // What perf stat, mpstat and getrusage() would show for the same run.
    const RunFigures f = run_figures(m, elapsed, 0, Headline{});
    line(out, "per second          %.0f context switches (%.0f voluntary, %.0f involuntary of the workload's tasks), "
              "%.0f cpu-migrations, %.0f cpuidle entries, %.0f sched_yield()\n",
         f.context_switches_per_sec, f.workload_voluntary_switches_per_sec, f.workload_involuntary_switches_per_sec,
         f.cpu_migrations_per_sec, f.cpuidle_entries_per_sec, f.sched_yield_per_sec);
    line(out, "CPU time            %.2f%% busy, %.2f%% idle, %.2f%% iowait, %.2f%% irq; run delay / runtime %.4f\n",
         f.busy_pct, f.idle_pct, f.iowait_pct, f.irq_pct, f.run_delay_per_runtime);
    return out;
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_report.h"

#include <cstdio>

#include "io/input_error.h"
#include "metrics/run_summary.h"
#include "topology/distance.h"
#include "topology/machine.h"
#include "trace/report_text.h"

namespace wb {

bool TaskFilter::matches(int pid, const std::string& name) const
{
    if (!active())
        return true;
    if (comm && std::regex_search(name, *comm))
        return true;
    for (const auto& [lo, hi] : pids)
        if (pid >= lo && pid <= hi)
            return true;
    return false;
}

namespace {

class Collector final : public TraceObserver {
public:
    Collector(const Machine& machine, const TaskFilter& filter, TraceReport& report)
        : machine_(machine), filter_(filter), r_(report)
    {
    }

    void wakeup(const TraceState& state, const TraceWakeup& w) override
    {
        if (!selected(state, w.wakee))
            return;
        RunMetrics& m = r_.metrics;
        if (w.fork)
            ++r_.forks;
        else
            ++m.wakeups;
        if (w.selected)
            ++r_.wakeups_selected;
        else
            ++m.wakeups_by_path[static_cast<std::size_t>(WakePath::NotSelected)];
        const DistanceClass from_waker = distance_class(machine_, w.waker_cpu, w.chosen);
        const DistanceClass from_prev =
            w.prev_cpu < 0 ? DistanceClass::SameCpu : distance_class(machine_, w.prev_cpu, w.chosen);
        ++m.placement_from_waker[static_cast<std::size_t>(from_waker)];
        ++m.placement_from_prev[static_cast<std::size_t>(from_prev)];
    }

    void switched(const TraceState& state, const TraceSwitch& s) override
    {
        RunMetrics& m = r_.metrics;
        if (s.prev >= 0 && !s.implied && selected(state, s.prev)) {
            if (s.prev_state == PrevState::Sleeping)
                ++m.voluntary_switches;
            else if (s.prev_state == PrevState::Runnable && s.next != s.prev)
                ++m.involuntary_switches;
        }
        if (s.prev == kTraceIdle && s.next >= 0)
            m.switches_from_idle += selected(state, s.next);
        if (s.next < 0 || !selected(state, s.next))
            return;
        if (s.migrated_from >= 0)
            ++m.migrations[static_cast<std::size_t>(distance_class(machine_, s.migrated_from, s.cpu))];
        if (s.has_run_delay)
            m.run_delay.record(s.run_delay_ns);
        if (s.has_latency)
            m.wakeup_latency.record(s.latency_ns);
    }

private:
    bool selected(const TraceState& state, int task) const
    {
        const TraceTask& t = state.task(task);
        return filter_.matches(t.pid, t.comm);
    }

    const Machine& machine_;
    const TaskFilter& filter_;
    TraceReport& r_;
};

void check_cpu(int cpu, int column, const char* what, const TraceEvent& ev, const Machine& machine,
               const std::string& label, std::vector<Diagnostic>& problems)
{
    if (cpu < machine.nr_cpus())
        return;
    problems.push_back({label, ev.line, column, "",
                        std::string(what) + " " + std::to_string(cpu) + " is not a CPU of the machine '" +
                            machine.name + "': expected a CPU from 0 to " + std::to_string(machine.nr_cpus() - 1) +
                            " (give the machine the trace was recorded on)"});
}

using report_text::line;
using report_text::ull;

}  // namespace

void check_trace_cpus(const ParsedTrace& trace, const Machine& machine, const std::string& label)
{
    std::vector<Diagnostic> problems;
    for (const TraceEvent& ev : trace.events) {
        if (ev.kind == TraceEventKind::LostEvents)
            continue;
        check_cpu(ev.cpu, ev.cpu_column, "CPU", ev, machine, label, problems);
        if (ev.target_cpu >= 0)
            check_cpu(ev.target_cpu, ev.target_column, "target CPU", ev, machine, label, problems);
        if (ev.orig_cpu >= 0)
            check_cpu(ev.orig_cpu, ev.orig_column, "orig_cpu", ev, machine, label, problems);
        if (ev.dest_cpu >= 0)
            check_cpu(ev.dest_cpu, ev.dest_column, "dest_cpu", ev, machine, label, problems);
        if (problems.size() >= 20)
            break;
    }
    if (!problems.empty())
        throw InputError(std::move(problems));
}

TraceReport build_trace_report(const ParsedTrace& trace, const Machine& machine, const TaskFilter& filter,
                               const std::string& label)
{
    check_trace_cpus(trace, machine, label);

    TraceReport r;
    r.metrics.cpu_times.resize(static_cast<std::size_t>(machine.nr_cpus()));
    TraceState state(machine.nr_cpus(), trace.stamps_in_ns);
    Collector collector(machine, filter, r);
    bool first = true;
    std::vector<char> cpu_seen(static_cast<std::size_t>(machine.nr_cpus()));
    for (const TraceEvent& ev : trace.events) {
        ++r.events[static_cast<std::size_t>(ev.kind)];
        if (ev.kind != TraceEventKind::LostEvents) {
            if (first)
                r.first_ts = ev.ts;
            first = false;
            r.last_ts = ev.ts;
            cpu_seen[static_cast<std::size_t>(ev.cpu)] = 1;
        }
        state.apply(ev, &collector);
    }
    state.finish(r.last_ts);
    r.metrics.events = trace.events.size();
    for (std::size_t cpu = 0; cpu < state.cpus().size(); ++cpu) {
        r.metrics.cpu_times[cpu].busy = Time::ns(state.cpus()[cpu].busy_ns);
        r.metrics.cpu_times[cpu].idle = Time::ns(state.cpus()[cpu].idle_ns);
        r.cpus_in_trace += cpu_seen[cpu];
    }
    for (const TraceTask& t : state.tasks()) {
        ++r.tasks_seen;
        r.tasks_selected += filter.matches(t.pid, t.comm);
        r.tasks_before_trace += t.before_trace;
        r.comm_changes += static_cast<std::uint64_t>(t.comm_changes);
    }
    r.anomalies = state.anomalies();
    return r;
}

std::string format_trace_report(const TraceReport& r, const ParsedTrace& trace, const std::string& clock,
                                const TaskFilter& filter)
{
    const RunMetrics& m = r.metrics;
    const bool times = trace.stamps_in_ns;
    std::string out;
    std::string stamps = times ? "stamps in ns" : "stamps are raw counts, not times";
    if (!clock.empty())
        stamps += " (trace_clock " + clock + ")";
    line(out, "trace               %s, %d lines, %s; %d of the machine's %d CPUs have events\n",
         std::string(trace_format_name(trace.format)).c_str(), trace.lines, stamps.c_str(), r.cpus_in_trace,
         static_cast<int>(m.cpu_times.size()));
    const auto count = [&](TraceEventKind k) { return ull(r.events[static_cast<std::size_t>(k)]); };
    if (times)
        line(out, "span                %.6f s\n", static_cast<double>(r.last_ts - r.first_ts) / 1e9);
    else
        line(out, "span                %llu counts\n", ull(static_cast<std::uint64_t>(r.last_ts - r.first_ts)));
    line(out, "events              %llu sched_waking, %llu sched_wakeup, %llu sched_wakeup_new, %llu sched_switch, "
              "%llu sched_migrate_task; %llu of other events skipped\n",
         count(TraceEventKind::SchedWaking), count(TraceEventKind::SchedWakeup),
         count(TraceEventKind::SchedWakeupNew), count(TraceEventKind::SchedSwitch),
         count(TraceEventKind::SchedMigrateTask), ull(trace.other_events));
    std::string selection = "all";
    if (filter.active()) {
        selection = "";
        if (filter.comm)
            selection += "--comm " + filter.comm_text;
        if (!filter.pids.empty())
            selection += std::string(selection.empty() ? "" : " or ") + "--pid";
    }
    line(out, "tasks               %llu seen, %llu selected (%s); %llu already there when the trace began; %llu pids "
              "reused; %llu comm changes\n",
         ull(r.tasks_seen), ull(r.tasks_selected), selection.c_str(), ull(r.tasks_before_trace), ull(r.anomalies.pid_reuses),
         ull(r.comm_changes));
    if (r.anomalies.lost_markers)
        line(out, "lost events         %llu markers, %llu events lost; each CPU's state is rebuilt from its next line\n",
             ull(r.anomalies.lost_markers), ull(r.anomalies.lost_events));
    else
        out += "lost events         none\n";
    if (times) {
        const Histogram& w = m.wakeup_latency;
        line(out, "wakeup latency (us) p50 %.2f  p90 %.2f  p99 %.2f  p99.9 %.2f  max %.2f  (%llu wakeups)\n",
             static_cast<double>(w.percentile(0.50)) / 1e3, static_cast<double>(w.percentile(0.90)) / 1e3,
             static_cast<double>(w.percentile(0.99)) / 1e3, static_cast<double>(w.percentile(0.999)) / 1e3,
             static_cast<double>(w.max()) / 1e3, ull(w.count()));
        const Histogram& d = m.run_delay;
        line(out, "run delay (us)      p50 %.2f  p99 %.2f  max %.2f  mean %.2f\n",
             static_cast<double>(d.percentile(0.50)) / 1e3, static_cast<double>(d.percentile(0.99)) / 1e3,
             static_cast<double>(d.max()) / 1e3, d.mean() / 1e3);
    } else {
        out += "wakeup latency      needs times: the stamps are counts of a clock that is not in ns (counter, "
               "uptime, x86-tsc); record with a ns clock (local, global, mono, mono_raw, boot, tai, perf)\n";
        out += "run delay           needs times, as wakeup latency; CPUs busy needs them too\n";
    }
    line(out, "context switches    %llu voluntary, %llu involuntary; %llu from idle\n", ull(m.voluntary_switches),
         ull(m.involuntary_switches), ull(m.switches_from_idle));
    const auto classes = [&](const char* label, const std::array<std::uint64_t, kDistanceClassCount>& counts) {
        out += label;
        const auto f = placement_fractions(counts);
        for (std::size_t i = 0; i < kDistanceClassCount; ++i)
            if (counts[i])
                line(out, "  %s %.1f%%", std::string(kDistanceClassNames[i]).c_str(), 100 * f[i]);
        out += "\n";
    };
    classes("placement (vs waker)", m.placement_from_waker);
    classes("placement (vs prev) ", m.placement_from_prev);
    out += "migrations         ";
    for (std::size_t i = 1; i < kDistanceClassCount; ++i)
        line(out, "  %s %llu", std::string(kDistanceClassNames[i]).c_str(), ull(m.migrations[i]));
    const std::uint64_t not_selected = m.wakeups_by_path[static_cast<std::size_t>(WakePath::NotSelected)];
    line(out, "\nwakeup paths         not_selected %llu  selected %llu (of them %llu forks); the trace does not say which "
              "branch of select_task_rq_fair() chose\n",
         ull(not_selected), ull(r.wakeups_selected), ull(r.forks));
    if (times) {
        Time busy;
        for (const CpuTimes& c : m.cpu_times)
            busy += c.busy;
        const double span = static_cast<double>(r.last_ts - r.first_ts);
        line(out, "CPUs busy           %.3f on average\n", span > 0 ? static_cast<double>(busy.ns()) / span : 0.0);
    }
    if (r.anomalies.wakeups_without_waking)
        line(out, "note: %llu sched_wakeup without a sched_waking before it (the trace began, or lost events, between "
                  "them): left out of the placement figures\n",
             ull(r.anomalies.wakeups_without_waking));
    if (r.anomalies.wakeups_inferred)
        line(out, "note: %llu wakeups had no sched_wakeup before the wakee ran (not traced, as on CPUs leaving idle "
                  "where RCU does not watch): each counts where the wakee ran\n",
             ull(r.anomalies.wakeups_inferred));
    if (r.anomalies.wakings_without_wakeup)
        line(out, "note: %llu sched_waking never followed by its sched_wakeup (lost events, or the trace ended): left "
                  "out\n",
             ull(r.anomalies.wakings_without_wakeup));
    for (const std::string& note : trace.notes)
        out += "note: " + note + "\n";
    return out;
}

}  // namespace wb

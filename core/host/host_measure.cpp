// SPDX-License-Identifier: Apache-2.0
#include "host/host_measure.h"

#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <stdexcept>

#include "host/cache_line_pingpong.h"
#include "host/ipi_counts.h"
#include "host/null_costs.h"
#include "host/pipe_round_trip.h"
#include "topology/cpumask.h"

namespace wb::host {

namespace {

std::string host_name()
{
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0')
        return "this host";
    return buf;
}

std::string utc_date()
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
    return buf;
}

// Machine CPU i is the i-th online kernel CPU (the importer's numbering).
std::vector<int> kernel_cpus(const Machine& m)
{
    std::ifstream in("/sys/devices/system/cpu/online");
    std::string text;
    std::getline(in, text);
    const CpulistParse parsed = parse_cpulist(text, kMaxCpus);
    std::vector<int> ids;
    if (parsed.ok())
        for (CpuId c = 0; c < kMaxCpus; ++c)
            if (parsed.mask.test(c))
                ids.push_back(c);
    if (static_cast<int>(ids.size()) != m.nr_cpus())
        throw std::runtime_error("the machine has " + std::to_string(m.nr_cpus()) +
                                 " CPUs but /sys/devices/system/cpu/online lists " + std::to_string(ids.size()) +
                                 ": --measure needs the live host's own topology");
    return ids;
}

Distance distance_between(const Machine& m, CpuId a, CpuId b)
{
    const CpuTopo &x = m.cpus[static_cast<std::size_t>(a)], &y = m.cpus[static_cast<std::size_t>(b)];
    if (x.core == y.core)
        return Distance::Smt;
    if (x.cluster == y.cluster)
        return Distance::Cluster;
    if (x.llc == y.llc)
        return Distance::Llc;
    if (x.node == y.node)
        return Distance::OtherLlc;
    return Distance::OtherNode;
}

// The first CPU of each distance from CPU 0, closest first.
std::vector<std::pair<Distance, CpuId>> partners(const Machine& m)
{
    std::vector<std::pair<Distance, CpuId>> out;
    for (Distance d : {Distance::Smt, Distance::Cluster, Distance::Llc, Distance::OtherLlc, Distance::OtherNode})
        for (CpuId c = 1; c < m.nr_cpus(); ++c)
            if (distance_between(m, 0, c) == d) {
                out.emplace_back(d, c);
                break;
            }
    return out;
}

std::string fmt_ns(double v)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.0f ns", v);
    return buf;
}

// "241 ns (median 250 ns, 480 batches)": the figure and how disturbed the
// batches were.
std::string fmt(const Sampled& s, double scale = 1)
{
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.0f ns (median %.0f ns, %d batches)", s.ns_per_op * scale, s.median_ns * scale,
                  s.batches);
    return buf;
}

// The 1-minute load average, or -1.
double load_average()
{
    std::ifstream in("/proc/loadavg");
    double load = -1;
    in >> load;
    return in ? load : -1;
}

}  // namespace

HostMeasurement measure_host(const Machine& machine, const MeasureOptions& options)
{
    HostMeasurement out;
    HostFigures& f = out.figures;
    f.host = host_name();
    f.date = utc_date();
    const std::vector<int> ids = kernel_cpus(machine);
    f.cpu = ids.front();
    auto say = [&](const std::string& line) {
        if (options.cancelled && options.cancelled())
            throw MeasureCancelled();
        if (options.progress)
            options.progress(line);
    };

    // Shares of the budget: the blocking round trips vary more than the
    // single-thread loops, so they get more.
    const auto pairs = partners(machine);
    const int units = 1 + 1 + 2 + 2 + 3 * static_cast<int>(pairs.size());
    const std::int64_t unit = options.budget_ns / units;
    const std::string cpu0 = "CPU " + std::to_string(f.cpu);

    const double load = load_average();
    if (load > machine.nr_cpus() / 2.0) {
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "the machine was busy (load average %.1f on %d CPUs): the benchmarks keep their fastest "
                      "batches, but the figures may still be high",
                      load, machine.nr_cpus());
        out.notes.push_back(buf);
        say(buf);
    }

    say("null syscall on " + cpu0 + " ...");
    Sampled s = measure_null_syscall(f.cpu, unit);
    f.null_syscall_ns = s.ns_per_op;
    say("  " + fmt(s) + " a call");
    say("pipe write+read on one thread on " + cpu0 + " ...");
    s = measure_pipe_write_read(f.cpu, unit);
    f.pipe_write_read_ns = s.ns_per_op;
    say("  " + fmt(s) + " the pair");
    say("pinned pipe round trip, two processes on " + cpu0 + " ...");
    s = measure_pipe_round_trip(f.cpu, f.cpu, PipePeer::Process, 2 * unit);
    f.pinned_process_round_trip_ns = s.ns_per_op;
    say("  " + fmt(s) + " a round trip");
    say("pinned pipe round trip, two threads on " + cpu0 + " ...");
    s = measure_pipe_round_trip(f.cpu, f.cpu, PipePeer::Thread, 2 * unit);
    f.pinned_thread_round_trip_ns = s.ns_per_op;
    say("  " + fmt(s) + " a round trip");

    for (const auto& [distance, cpu] : pairs) {
        PairFigures p;
        p.distance = distance;
        p.cpu_a = f.cpu;
        p.cpu_b = ids[static_cast<std::size_t>(cpu)];
        const std::string between =
            cpu0 + " and CPU " + std::to_string(p.cpu_b) + " (" + std::string(distance_name(distance)) + ")";
        say("pipe round trip between " + between + " ...");
        const IpiCounts before = read_ipi_counts();
        s = measure_pipe_round_trip(p.cpu_a, p.cpu_b, PipePeer::Process, 2 * unit);
        const IpiCounts after = read_ipi_counts();
        p.pipe_round_trip_ns = s.ns_per_op;
        if (before.found && after.found && s.ops > 0) {
            std::uint64_t n = 0;
            for (int c : {p.cpu_a, p.cpu_b})
                if (static_cast<std::size_t>(c) < after.per_cpu.size() &&
                    static_cast<std::size_t>(c) < before.per_cpu.size())
                    n += after.per_cpu[static_cast<std::size_t>(c)] - before.per_cpu[static_cast<std::size_t>(c)];
            p.ipis_per_round_trip = static_cast<double>(n) / static_cast<double>(s.ops);
        } else {
            out.notes.push_back("/proc/interrupts has no rescheduling or function-call lines: IPIs not counted");
        }
        char ipis[64] = "IPIs not counted";
        if (p.ipis_per_round_trip >= 0)
            std::snprintf(ipis, sizeof ipis, "%.2f RES+CAL a round trip", p.ipis_per_round_trip);
        say("  " + fmt(s) + " a round trip, " + ipis);
        say("cache-line ping-pong between " + between + " ...");
        s = measure_cache_line_round_trip(p.cpu_a, p.cpu_b, unit);
        p.line_round_trip_ns = s.ns_per_op;
        say("  " + fmt(s) + " a round trip, " + fmt_ns(p.line_round_trip_ns / 2) + " a transfer");
        f.pairs.push_back(p);
    }
    if (pairs.empty())
        out.notes.push_back("one CPU: no cross-CPU benchmark");

    out.cpuidle = read_cpuidle("/", f.cpu);
    say("cpuidle driver \"" + out.cpuidle.driver + "\", " + std::to_string(out.cpuidle.states.size()) + " states");
    for (const CpuidleState& st : out.cpuidle.states)
        say("  " + st.dir + " " + st.name + " (" + st.desc + "): " + (st.polls ? "polls" : "does not poll") + ", " +
            st.polls_because + (st.disabled ? "; disabled" : ""));
    for (const std::string& n : out.cpuidle.notes)
        out.notes.push_back(n);
    return out;
}

std::vector<std::string> apply_host_measurement(Machine& machine, const HostMeasurement& m)
{
    std::vector<std::string> notes = m.notes;
    machine.idle_states.clear();
    for (const CpuidleState& s : m.cpuidle.states) {
        if (s.disabled) {
            notes.push_back("idle state " + s.name + " is disabled (" + s.dir + "/disable): left out");
            continue;
        }
        IdleState st;
        st.name = s.name;
        st.exit_latency_ns = s.exit_latency_us * 1000;
        st.target_residency_ns = s.target_residency_us * 1000;
        st.polls = s.polls;
        machine.idle_states.push_back(st);
    }
    const CostMapping mapping = map_host_figures(m.figures, machine.costs, machine.idle_states);
    std::vector<bool> measured(kCostCount, false);
    for (const MeasuredCost& c : mapping.costs) {
        machine.costs.at(c.cost) = {c.value, c.source};
        measured[static_cast<std::size_t>(c.cost)] = true;
    }
    notes.insert(notes.end(), mapping.notes.begin(), mapping.notes.end());
    std::string kept;
    for (std::size_t i = 0; i < kCostCount; ++i)
        if (!measured[i])
            kept += (kept.empty() ? "" : ", ") + std::string(kCostInfo[i].name);
    if (!kept.empty())
        notes.push_back("not measured, left at the built-in defaults (docs/costs.md says how to measure them): " +
                        kept);
    machine.source += (machine.source.empty() ? "" : "; ") + std::string("costs measured on ") + m.figures.host + " " +
                      m.figures.date + " by wakesim topology import --measure (docs/measuring.md)";
    return notes;
}

void measure_imported_host(ImportResult& imported, const MeasureOptions& options)
{
    const HostMeasurement m = measure_host(imported.machine, options);
    // The text import_detail::finish() adds; it no longer holds.
    std::erase_if(imported.warnings,
                  [](const std::string& w) { return w.rfind("The costs are the built-in defaults", 0) == 0; });
    for (const std::string& note : apply_host_measurement(imported.machine, m))
        imported.warnings.push_back(note);
}

}  // namespace wb::host

// SPDX-License-Identifier: Apache-2.0
#include "host/measured_costs.h"

#include <cmath>
#include <cstdio>

namespace wb::host {

namespace {

std::string ns(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f ns", v);
    return buf;
}

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

// Costs are whole nanoseconds: the engine charges integer ns, and the
// benchmarks do not resolve less.
double whole(double v)
{
    return std::round(v);
}

struct Mapper {
    const HostFigures& f;
    CostMapping out;

    std::string origin(const std::string& benchmark) const
    {
        return "measured on " + f.host + " " + f.date + " by " + benchmark + ": ";
    }
    void set(Cost c, double v, const std::string& benchmark, const std::string& how)
    {
        out.costs.push_back({c, whole(v), origin(benchmark) + how});
    }
    void note(std::string s) { out.notes.push_back(std::move(s)); }
};

std::string cpu_name(int cpu)
{
    return "CPU " + std::to_string(cpu);
}

}  // namespace

std::string_view distance_name(Distance d)
{
    switch (d) {
    case Distance::Smt:
        return "SMT sibling";
    case Distance::Cluster:
        return "same cluster";
    case Distance::Llc:
        return "same LLC";
    case Distance::OtherLlc:
        return "other LLC";
    case Distance::OtherNode:
        return "other node";
    }
    return "?";
}

const PairFigures* typical_pair(const HostFigures& f)
{
    for (Distance d : {Distance::Cluster, Distance::Llc, Distance::OtherLlc})
        for (const PairFigures& p : f.pairs)
            if (p.distance == d)
                return &p;
    return nullptr;
}

CostMapping map_host_figures(const HostFigures& f, const CostModel& current, const std::vector<IdleState>& idle_states)
{
    Mapper m{f, {}};
    const std::string on_cpu = " on " + cpu_name(f.cpu);

    // syscall: directly.
    const double sc = f.null_syscall_ns;
    m.set(
        Cost::syscall, sc, "null syscall",
        "syscall(SYS_getppid) in a loop" + on_cpu + ", 10th-percentile batch " + ns(sc) + " a call; directly syscall");

    // pipe_transfer: the engine charges a call's entry and exit as syscall
    // and its copy and bookkeeping as pipe_transfer, so a write plus a read
    // is 2 x (syscall + pipe_transfer).
    const double pt = f.pipe_write_read_ns / 2 - sc;
    if (pt > 0)
        m.set(Cost::pipe_transfer, pt, "pipe write+read",
              "a non-blocking 4-byte write and read on one thread" + on_cpu + ", " + ns(f.pipe_write_read_ns) +
                  " the pair; split from a sum: pipe_transfer = pair / 2 - syscall");
    else
        m.note("pipe_transfer not measured: a write plus a read (" + ns(f.pipe_write_read_ns) +
               ") is not more than two null system calls (" + ns(2 * sc) + ")");
    const double pt_used = pt > 0 ? whole(pt) : current[Cost::pipe_transfer];

    // address_space_switch: perf bench sched pipe minus its -T form, per switch.
    const double handoff = f.pinned_process_round_trip_ns / 2;
    const double asw = (f.pinned_process_round_trip_ns - f.pinned_thread_round_trip_ns) / 2;
    double asw_used = current[Cost::address_space_switch];
    if (asw > 0) {
        m.set(Cost::address_space_switch, asw, "pinned pipe, processes and threads",
              "both sides" + on_cpu + ", round trip " + ns(f.pinned_process_round_trip_ns) + " as processes, " +
                  ns(f.pinned_thread_round_trip_ns) +
                  " as threads of one process; two switches a round trip, so directly (processes - threads) / 2");
        asw_used = whole(asw);
    } else {
        m.note("address_space_switch not measured: the pinned round trip of two processes (" +
               ns(f.pinned_process_round_trip_ns) + ") is not slower than that of two threads (" +
               ns(f.pinned_thread_round_trip_ns) + "), a difference below the benchmark's resolution");
    }

    // context_switch and wakeup_local: what the pinned handoff leaves once
    // the other parts of calibration.md's formula are taken out.
    const double sc_used = whole(sc);
    const double rest = whole(handoff) - 2 * sc_used - 2 * pt_used - asw_used;
    const double wl_share = kWakeupLocalCycles / (kWakeupLocalCycles + kContextSwitchCycles);
    double wl_used = current[Cost::wakeup_local], cs_used = current[Cost::context_switch];
    double sfi_used = current[Cost::switch_from_idle];
    if (rest > 0) {
        const std::string sum = "pinned pipe round trip of two processes" + on_cpu + " " +
                                ns(f.pinned_process_round_trip_ns) + ", handoff " + ns(handoff) +
                                "; split from a sum: handoff - 2 x syscall - 2 x pipe_transfer - "
                                "address_space_switch = " +
                                ns(rest) + " = wakeup_local + context_switch, split ";
        wl_used = whole(rest * wl_share);
        cs_used = rest - wl_used;  // so that the five parts add up to the handoff exactly
        m.set(Cost::wakeup_local, wl_used, "pinned pipe", sum + "1050 : 1600 by path length (docs/calibration.md)");
        m.set(Cost::context_switch, cs_used, "pinned pipe", sum + "1600 : 1050 by path length (docs/calibration.md)");
        sfi_used = whole(cs_used * kSwitchFromIdleShare);
        m.set(Cost::switch_from_idle, sfi_used, "pinned pipe",
              "derived from the measured context_switch (" + ns(cs_used) +
                  "): a switch from the idle task into a task whose registers are still loaded is about 45% of "
                  "one between two tasks, by the kernel's path (docs/costs.md)");
    } else {
        m.note("context_switch and wakeup_local not measured: the pinned handoff (" + ns(handoff) +
               ") leaves nothing once the system calls, pipe transfers and address-space switch are taken out");
    }

    const PairFigures* p = typical_pair(f);
    if (!p) {
        m.note("wakeup_ipi and remote_rq_access not measured: no two CPUs of one node that are not SMT siblings");
        return m.out;
    }
    const std::string pair =
        cpu_name(p->cpu_a) + " and " + cpu_name(p->cpu_b) + " (" + std::string(distance_name(p->distance)) + ")";

    // remote_rq_access: two line transfers, i.e. one line round trip.
    m.set(Cost::remote_rq_access, p->line_round_trip_ns, "cache-line ping-pong",
          "two threads on " + pair + " bouncing one line with atomics, round trip " + ns(p->line_round_trip_ns) +
              " = two transfers; remote_rq_access is two line transfers, so directly the round trip");

    // wakeup_ipi: the cross-CPU handoff's critical path in the engine is
    // the wakee's switch in from idle, its read's copy, its write's call and copy,
    // its try_to_wake_up() and the IPI with the target's idle exit.
    if (p->ipis_per_round_trip >= 0 && p->ipis_per_round_trip < 1) {
        m.note("wakeup_ipi not measured: the cross-CPU pipe between " + pair + " raised " +
               num(p->ipis_per_round_trip) +
               " rescheduling/function-call interrupts a round trip, so its wakeups mostly needed no IPI (the "
               "idle CPU polls); its handoff measures a polling wakeup, not wakeup_ipi");
        return m.out;
    }
    const double cross = p->pipe_round_trip_ns / 2;
    double exit = 0;
    std::string exit_name;
    for (const IdleState& s : idle_states)
        if (s.target_residency_ns <= cross) {
            exit = s.exit_latency_ns;
            exit_name = s.name;
        }
    const double ipi = whole(cross) - sfi_used - 2 * pt_used - sc_used - wl_used - exit;
    const std::string ipis = p->ipis_per_round_trip < 0
                                 ? std::string("IPIs not counted")
                                 : num(p->ipis_per_round_trip) + " RES+CAL interrupts a round trip";
    if (ipi > 0)
        m.set(Cost::wakeup_ipi, ipi, "cross-CPU pipe",
              "processes on " + pair + ", round trip " + ns(p->pipe_round_trip_ns) + " (" + ipis + "), handoff " +
                  ns(cross) +
                  "; split from a sum: handoff - switch_from_idle - 2 x pipe_transfer - syscall - wakeup_local" +
                  (exit_name.empty() ? std::string(" (no idle state: no exit latency)")
                                     : " - exit latency of " + exit_name + " (" + ns(exit) + ")"));
    else
        m.note("wakeup_ipi not measured: the cross-CPU handoff between " + pair + " (" + ns(cross) +
               ") is not longer than the engine's other charges on its path");
    return m.out;
}

}  // namespace wb::host

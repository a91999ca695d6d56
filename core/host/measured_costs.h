// SPDX-License-Identifier: Apache-2.0
//
// From what the host benchmarks measured to the cost parameters of
// core/topology/costs.def: pure arithmetic, documented in docs/measuring.md.
//
// Measured directly: syscall (a null system call), remote_rq_access (two
// cache-line transfers), address_space_switch (process minus thread pinned
// round trip). Split from a sum: pipe_transfer (a write plus a read, minus
// their two system calls), context_switch and wakeup_local (the pinned
// handoff minus everything else in it, split by path length), wakeup_ipi
// (the cross-CPU handoff minus the model's other charges on its path).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "topology/costs.h"
#include "topology/machine.h"

namespace wb::host {

// How far apart two CPUs are, the levels of Machine's tree.
enum class Distance { Smt, Cluster, Llc, OtherLlc, OtherNode };
std::string_view distance_name(Distance d);  // "SMT sibling", "same cluster", ...

// The benchmarks between two CPUs of one distance.
struct PairFigures {
    Distance distance = Distance::Llc;
    int cpu_a = 0, cpu_b = 0;         // kernel CPU numbers
    double pipe_round_trip_ns = 0;    // one side on each CPU
    double line_round_trip_ns = 0;    // one cache line there and back
    double ipis_per_round_trip = -1;  // RES + CAL on both CPUs per round trip; < 0: not counted
};

struct HostFigures {
    std::string host;                         // gethostname()
    std::string date;                         // YYYY-MM-DD, UTC
    int cpu = 0;                              // kernel CPU of the single-CPU benchmarks
    double null_syscall_ns = 0;               // one syscall(SYS_getppid)
    double pipe_write_read_ns = 0;            // one non-blocking write plus one read, one thread
    double pinned_process_round_trip_ns = 0;  // both processes on `cpu`
    double pinned_thread_round_trip_ns = 0;   // both threads on `cpu`
    std::vector<PairFigures> pairs;           // closest first
};

struct MeasuredCost {
    Cost cost;
    double value = 0;  // in the kind's base unit (ns)
    std::string source;
};

struct CostMapping {
    std::vector<MeasuredCost> costs;  // only the parameters a measurement gave
    std::vector<std::string> notes;   // what was not mapped, and why
};

// The path lengths calibration.md splits the same-CPU handoff's remainder
// by: try_to_wake_up() ~1050 cycles, __schedule() with switch_to ~1600
// cycles (the Altra table). A pinned round trip cannot tell the two apart.
inline constexpr double kWakeupLocalCycles = 1050;
inline constexpr double kContextSwitchCycles = 1600;
// A switch from the idle task skips the put-away of a previous task (~30%
// of the path) and the FP/SIMD save and restore (~20%): docs/costs.md.
inline constexpr double kSwitchFromIdleShare = 0.45;

// Maps the figures to parameters. `current` gives the values of parameters
// that stay unmeasured (address_space_switch when its difference is below
// resolution); `idle_states` the host's states, for the exit latency the
// engine adds to a cross-CPU wakeup on top of wakeup_ipi.
CostMapping map_host_figures(const HostFigures& f, const CostModel& current, const std::vector<IdleState>& idle_states);

// The pair whose cross-CPU wakeup the model's single wakeup_ipi and
// remote_rq_access stand for: the closest one that is not an SMT sibling
// but on the same node (a wakeup target is usually another core of the
// LLC). nullptr if there is none.
const PairFigures* typical_pair(const HostFigures& f);

}  // namespace wb::host

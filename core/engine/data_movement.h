// SPDX-License-Identifier: Apache-2.0
//
// What it costs a CPU to read data that another CPU wrote last: a pipe
// buffer, a message, a tee'd page, or a task's own working set after the
// task moved. The data sit in the writer's caches (or behind them), so the
// reader's misses go as far as the two CPUs are apart: nothing more on the
// same CPU, the shared L1/L2 for an SMT sibling, the LLC or a core-to-core
// transfer inside it, another LLC or memory on the node, the interconnect to
// another node (docs/model.md, "Data on the move"; the parameters and their
// sources in docs/costs.md).
#pragma once

#include <array>
#include <cstdint>

#include "base/sim_time.h"
#include "topology/costs.h"
#include "topology/distance.h"

namespace wb {

struct Machine;

// The two parameters of one distance class: the load-to-use latency of the
// first line, and the rate the following lines stream in at.
struct LinePath {
    Cost latency;
    Cost bandwidth;
};

// By DistanceClass. SameCpu has none: data written on the reader's CPU are
// in its own caches, and what reading them costs is already in the step
// that reads (pipe_transfer and the like).
inline constexpr std::array<LinePath, kDistanceClassCount> kLinePath{{
    {Cost::line_latency_smt, Cost::line_bandwidth_smt},  // SameCpu: unused
    {Cost::line_latency_smt, Cost::line_bandwidth_smt},
    {Cost::line_latency_cluster, Cost::line_bandwidth_cluster},
    {Cost::line_latency_llc, Cost::line_bandwidth_llc},
    {Cost::line_latency_other_llc, Cost::line_bandwidth_other_llc},
    {Cost::line_latency_other_node, Cost::line_bandwidth_other_node},
}};

// The extra time to read `bytes` that sit at distance `d` from the reader,
// over reading them from its own warm cache:
//
//     0                                    d == SameCpu or bytes == 0
//     latency(d) + bytes / bandwidth(d)    otherwise
//
// The first line pays the full trip; the rest stream in behind it. A copy
// (copy_to_user(), memcpy(), a loop over a buffer) issues its misses
// independently of one another, so the core's out-of-order window and its
// prefetchers keep many of them in flight, and the rate they arrive at is
// the one-core read bandwidth of that path, which is what the bandwidth
// parameters are (measured single-thread figures; by Little's law they
// already hold the core's memory-level parallelism). A chain of dependent
// misses (pointer chasing) would cost lines x latency instead; no modelled
// payload is one.
Time data_move_time(const CostModel& costs, DistanceClass d, std::uint64_t bytes);

// The same between two CPUs of `m`: what `reader` pays for `bytes` last
// written on `written_on`.
Time data_move_time(const Machine& m, CpuId written_on, CpuId reader, std::uint64_t bytes);

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// What each point of a sweep will cost, estimated before it runs: for
// `--plan`'s CPU time, the progress line's ETA and the shards' balance.
//
// A run's cost is its number of simulated events. Each configuration (a
// machine, a workload with its parameters, a feature set) gets one short
// pilot run, under the first policy and the first seed: it runs until it has
// done kPilotEvents events and the workload reports kPilotProgress done, and
// the rest is extrapolated at the pace of its last stretch
// (Workload::progress()). The
// policies and seeds of a configuration are taken to cost the same: a policy
// changes where tasks run, rarely how many events a run takes.
//
// The event count is a whole number that the same binary computes the same
// on every host, so shards agree on the plan without talking to each other.
// The CPU seconds are also measured (the pilot's own CPU time per event, and
// the cost of building the run), so they are this host's and vary a little;
// they are only printed.
#pragma once

#include <cstdint>
#include <vector>

#include "sweep/sweep_grid.h"
#include "topology/machine.h"

namespace wb {

// A pilot runs until it has seen this many events and this much progress
// (past the forks of a thousand tasks, whose events say little about the
// rest)...
inline constexpr std::uint64_t kPilotEvents = 50'000;
inline constexpr double kPilotProgress = 0.5;
// ... and gives up at this many without: the workload cannot tell its
// progress (gemm, json workloads) or has not begun its measured part.
inline constexpr std::uint64_t kPilotEventCap = 2'000'000;

struct PointCost {
    std::uint64_t events = 0;  // expected simulated events of one run
    double cpu_seconds = 0;    // on this host: building the run and running its events
    // False when the pilot could not tell: the workload reported no
    // progress. Such a configuration is given the median of the others.
    bool estimated = true;
};

class SweepCosts {
public:
    // Runs the pilots on `jobs` threads. `machines` are the spec's machines,
    // resolved, in order. Throws what a run throws (InputError).
    SweepCosts(const SweepGrid& grid, const std::vector<Machine>& machines, int jobs);

    const PointCost& at(std::size_t point) const { return configurations_[point / runs_per_configuration_]; }
    // The event counts of every point, in index order: what shards balance.
    std::vector<std::uint64_t> events_by_point() const;

private:
    std::size_t runs_per_configuration_ = 1;
    std::vector<PointCost> configurations_;
};

}  // namespace wb

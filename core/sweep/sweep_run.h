// SPDX-License-Identifier: Apache-2.0
//
// Running a sweep, or one shard of it: the points not yet in OUT.partial run
// on worker threads, costliest first, each written to OUT.partial as it
// finishes; when the last is done, OUT is written in index order and the
// partial file removed. What OUT holds depends only on the sweep (and the
// shard), never on the order the points ran in, the number of threads or
// how many times the sweep was interrupted and resumed.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sweep/point_cost.h"
#include "sweep/shard_plan.h"
#include "sweep/sweep_grid.h"
#include "topology/machine.h"

namespace wb {

struct SweepProgress {
    std::size_t done = 0;     // points of this share finished, those found in OUT.partial included
    std::size_t total = 0;    // points of this share
    std::size_t resumed = 0;  // found in OUT.partial at the start
    // Estimated events (point_cost.h) of the points run so far in this
    // process and of those left: their ratio, with the time spent, is the ETA.
    std::uint64_t cost_run = 0;
    std::uint64_t cost_left = 0;
};

struct SweepRunOptions {
    int jobs = 1;
    std::optional<ShardId> shard;
    // Checked before each point starts: the points under way finish and are
    // kept, then run_sweep() returns false.
    const std::atomic<bool>* stop = nullptr;
    // After each point, and once at the start; never from two threads at once.
    std::function<void(const SweepProgress&)> progress;
};

// The points of `shard` (all points without one), in index order.
std::vector<std::size_t> sweep_share(const SweepCosts& costs, std::size_t points, const std::optional<ShardId>& shard);

// Runs the share and writes `out` (and `out`.partial on the way). True when
// `out` was written, false when stopped. `machines`: the spec's, resolved.
// Throws InputError for an unusable partial file or a run that refuses its
// input.
bool run_sweep(const SweepGrid& grid, const std::vector<Machine>& machines, const SweepCosts& costs,
               const std::string& out, const SweepRunOptions& options);

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "sweep/sweep_run.h"

#include <algorithm>
#include <mutex>

#include "engine/batch.h"
#include "io/sweep_json.h"
#include "base/parallel_for.h"
#include "sweep/partial_file.h"

namespace wb {

std::vector<std::size_t> sweep_share(const SweepCosts& costs, std::size_t points, const std::optional<ShardId>& shard)
{
    std::vector<std::size_t> share;
    if (!shard) {
        share.resize(points);
        for (std::size_t i = 0; i < points; ++i)
            share[i] = i;
        return share;
    }
    const std::vector<std::uint32_t> owner = assign_shards(costs.events_by_point(), shard->count);
    for (std::size_t i = 0; i < points; ++i)
        if (owner[i] == shard->index)
            share.push_back(i);
    return share;
}

bool run_sweep(const SweepGrid& grid, const std::vector<Machine>& machines, const SweepCosts& costs,
               const std::string& out, const SweepRunOptions& options)
{
    const SweepSpec& spec = grid.spec();
    const std::vector<std::size_t> share = sweep_share(costs, grid.size(), options.shard);
    PartialFile partial(out + ".partial", {sweep_fingerprint(spec), grid.size(), options.shard}, grid);

    // The costliest first: the longest runs do not come last, when the
    // other threads would have nothing left to do beside them.
    std::vector<std::size_t> todo;
    SweepProgress progress;
    progress.total = share.size();
    for (std::size_t i : share) {
        if (partial.has(i))
            continue;
        todo.push_back(i);
        progress.cost_left += costs.at(i).events;
    }
    progress.resumed = progress.done = share.size() - todo.size();
    std::stable_sort(todo.begin(), todo.end(),
                     [&](std::size_t a, std::size_t b) { return costs.at(a).events > costs.at(b).events; });
    if (options.progress)
        options.progress(progress);

    std::mutex progress_lock;
    parallel_for(
        todo.size(), options.jobs,
        [&](std::size_t k) {
            const std::size_t i = todo[k];
            const SweepPoint p = grid.point(i);
            FeatureSet features;
            features.apply(spec.features[p.features]);
            const RunRequest request{grid.workload_spec(p), spec.policies[p.policy], features, spec.seeds[p.seed]};
            partial.append(point_result(i, run_one(machines[p.machine], request)));
            std::lock_guard<std::mutex> hold(progress_lock);
            ++progress.done;
            progress.cost_run += costs.at(i).events;
            progress.cost_left -= costs.at(i).events;
            if (options.progress)
                options.progress(progress);
        },
        options.stop);
    if (partial.count() < share.size())
        return false;
    partial.write_result(out, share, options.shard);
    return true;
}

}  // namespace wb

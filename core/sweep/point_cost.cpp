// SPDX-License-Identifier: Apache-2.0
#include "sweep/point_cost.h"

#include <algorithm>
#include <ctime>

#include "engine/batch.h"
#include "engine/simulator.h"
#include "base/parallel_for.h"

namespace wb {

namespace {

// The calling thread's CPU time: pilots share the CPUs with each other.
double thread_cpu_seconds()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

PointCost pilot(const Machine& machine, const RunRequest& request)
{
    const double t0 = thread_cpu_seconds();
    PreparedRun run = prepare_run(machine, request);
    Simulator& sim = *run.sim;
    const double t1 = thread_cpu_seconds();
    PointCost cost;
    // Simulated time doubles each round, so a pilot does at most about
    // twice the events it needs, whatever the workload's pace. The total is
    // extrapolated from the last round's pace (events per progress), which
    // leaves out the start (forks, a warm-up) that a plain events / progress
    // would count again for every fraction still to do.
    std::uint64_t last_events = 0;
    double last_progress = 0;
    for (Time until = Time::us(100);; until = until * 2) {
        const bool more = sim.run_until(until);
        const std::uint64_t events = sim.metrics().events;
        const double progress = std::min(1.0, sim.workload().progress(sim.now()));
        if (sim.finished() || !more) {
            cost.events = events;
            break;
        }
        if ((events >= kPilotEvents && progress >= kPilotProgress) || events >= kPilotEventCap) {
            cost.estimated = progress > 0;
            const double pace = progress > last_progress && last_progress > 0
                                    ? static_cast<double>(events - last_events) / (progress - last_progress)
                                    : static_cast<double>(events) / std::max(progress, 1e-12);
            // At most a trillion events (days of CPU): a bound that keeps the
            // sums of a ten-million-point plan far from overflowing.
            const double rest = std::min(pace * (1 - progress), 1e12);
            cost.events = cost.estimated ? events + static_cast<std::uint64_t>(rest) : events;
            break;
        }
        last_events = events;
        last_progress = progress;
    }
    const double per_event =
        (thread_cpu_seconds() - t1) / static_cast<double>(std::max<std::uint64_t>(1, sim.metrics().events));
    cost.cpu_seconds = (t1 - t0) + per_event * static_cast<double>(cost.events);
    return cost;
}

}  // namespace

SweepCosts::SweepCosts(const SweepGrid& grid, const std::vector<Machine>& machines, int jobs)
{
    const SweepSpec& spec = grid.spec();
    runs_per_configuration_ = spec.policies.size() * spec.seeds.size();
    const std::size_t n = grid.size() / runs_per_configuration_;
    configurations_.resize(n);
    parallel_for(n, jobs, [&](std::size_t c) {
        const SweepPoint p = grid.point(c * runs_per_configuration_);
        FeatureSet features;
        features.apply(spec.features[p.features]);
        const RunRequest request{grid.workload_spec(p), spec.policies[0], features, spec.seeds[0]};
        configurations_[c] = pilot(machines[p.machine], request);
    });

    // A configuration whose workload could not tell its progress costs at
    // least what the pilot saw; it is given the median of the others when
    // that is more, which keeps such points balanced by count among shards.
    std::vector<std::uint64_t> known;
    for (const PointCost& c : configurations_)
        if (c.estimated)
            known.push_back(c.events);
    if (known.empty() || known.size() == configurations_.size())
        return;
    const auto middle = known.begin() + static_cast<std::ptrdiff_t>(known.size() / 2);
    std::nth_element(known.begin(), middle, known.end());
    for (PointCost& c : configurations_)
        if (!c.estimated && c.events < *middle) {
            c.cpu_seconds *= static_cast<double>(*middle) / static_cast<double>(std::max<std::uint64_t>(1, c.events));
            c.events = *middle;
        }
}

std::vector<std::uint64_t> SweepCosts::events_by_point() const
{
    std::vector<std::uint64_t> out;
    out.reserve(configurations_.size() * runs_per_configuration_);
    for (const PointCost& c : configurations_)
        out.insert(out.end(), runs_per_configuration_, c.events);
    return out;
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "engine/batch.h"

#include "base/parallel_for.h"
#include "engine/simulator.h"
#include "policies/registry.h"
#include "workload/workload_spec.h"

namespace wb {

RunOutcome run_one(const Machine& machine, const RunRequest& request)
{
    PreparedRun run = prepare_run(machine, request);
    run.sim->run();
    return outcome_of(*run.sim);
}

PreparedRun::PreparedRun() = default;
PreparedRun::PreparedRun(PreparedRun&&) noexcept = default;
PreparedRun& PreparedRun::operator=(PreparedRun&& other) noexcept
{
    // The old Simulator goes before the policy it points to.
    sim.reset();
    policy = std::move(other.policy);
    sim = std::move(other.sim);
    return *this;
}
PreparedRun::~PreparedRun() = default;

PreparedRun prepare_run(const Machine& machine, const RunRequest& request)
{
    SimOptions options;
    options.seed = request.seed;
    options.features = request.features;
    options.time_limit = request.time_limit;
    PreparedRun run;
    run.policy = make_policy(request.policy);
    options.policy = run.policy.get();
    run.sim = std::make_unique<Simulator>(machine, make_workload(request.workload), options);
    return run;
}

RunOutcome outcome_of(const Simulator& sim)
{
    RunOutcome out;
    out.finished = sim.finished();
    out.elapsed = sim.elapsed();
    out.ops = sim.workload().ops();
    out.headline = sim.workload().headline(out.elapsed);
    out.metrics = sim.metrics();
    return out;
}

std::vector<RunOutcome> run_batch(const Machine& machine, const std::vector<RunRequest>& requests, int jobs)
{
    std::vector<RunOutcome> results(requests.size());
    parallel_for(requests.size(), jobs, [&](std::size_t i) { results[i] = run_one(machine, requests[i]); });
    return results;
}

}  // namespace wb

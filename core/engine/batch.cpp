// SPDX-License-Identifier: Apache-2.0
#include "engine/batch.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

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
    std::atomic<std::size_t> next{0};
    std::exception_ptr error;
    std::mutex error_lock;
    auto worker = [&] {
        while (true) {
            const std::size_t i = next.fetch_add(1);
            if (i >= requests.size())
                return;
            try {
                results[i] = run_one(machine, requests[i]);
            } catch (...) {
                std::lock_guard<std::mutex> lock(error_lock);
                if (!error)
                    error = std::current_exception();
                next = requests.size();  // stop handing out work
            }
        }
    };
    const int threads = std::clamp(jobs, 1, static_cast<int>(std::max<std::size_t>(1, requests.size())));
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker();
    for (std::thread& t : pool)
        t.join();
    if (error)
        std::rethrow_exception(error);
    return results;
}

}  // namespace wb

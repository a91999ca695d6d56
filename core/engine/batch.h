// SPDX-License-Identifier: Apache-2.0
//
// Batches of independent runs (policies x workload cases x seeds), spread
// over worker threads. Each run is single-threaded and deterministic, and
// results come back in request order, so a batch's results do not depend on
// the number of threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/sim_time.h"
#include "metrics/run_metrics.h"
#include "sched/features.h"
#include "topology/machine.h"
#include "workload/workload.h"

namespace wb {

class PlacementPolicy;
class Simulator;

struct RunRequest {
    std::string workload;  // a workload spec, "pipe:loops=1000"
    std::string policy;    // a policy spec, "baseline+sis-sync-stack"
    FeatureSet features;
    std::uint64_t seed = 1;
    Time time_limit = Time::s(3600);
};

struct RunOutcome {
    bool finished = false;
    Time elapsed;
    double ops = 0;
    Headline headline;
    RunMetrics metrics;
};

// One run. Throws InputError for a bad workload or policy spec.
RunOutcome run_one(const Machine& machine, const RunRequest& request);

// A run built as run_one() builds it but not yet started, for a front end
// that advances it piece by piece (the GUI's lockstep runs). The policy is
// declared first so that it outlives the Simulator that points to it.
struct PreparedRun {
    std::unique_ptr<PlacementPolicy> policy;
    std::unique_ptr<Simulator> sim;

    PreparedRun();
    PreparedRun(PreparedRun&&) noexcept;
    PreparedRun& operator=(PreparedRun&&) noexcept;
    ~PreparedRun();
};

// Throws InputError for a bad workload or policy spec.
PreparedRun prepare_run(const Machine& machine, const RunRequest& request);

// What run_one() reports, read from a Simulator at any point of its run.
RunOutcome outcome_of(const Simulator& sim);

// Every request, on `jobs` threads (at least 1). The first error thrown by
// any run is rethrown after all threads have stopped.
std::vector<RunOutcome> run_batch(const Machine& machine, const std::vector<RunRequest>& requests, int jobs);

}  // namespace wb

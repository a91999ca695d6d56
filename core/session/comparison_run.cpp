// SPDX-License-Identifier: Apache-2.0
#include "session/comparison_run.h"

#include <algorithm>

#include "engine/batch.h"
#include "io/input_error.h"
#include "metrics/run_summary.h"

namespace wb {

// The same requests, in the same order, and the same cells as
// app/cli/compare_command.cpp builds them.
std::optional<Comparison> run_comparison(const Machine& machine, const Scenario& scenario, int jobs,
                                         const ComparisonControl& control)
{
    Comparison comparison;
    for (const ScenarioCase& c : scenario.cases) {
        comparison.cases.push_back(c.label);
        comparison.workloads.push_back(c.workload);
    }
    comparison.policies = scenario.policies.empty() ? std::vector<std::string>{"baseline"} : scenario.policies;
    comparison.runs = scenario.runs;
    FeatureSet features;
    if (std::string error = features.apply(scenario.features); !error.empty())
        throw InputError(Diagnostic{"scenario", 0, 0, "/features", error});
    std::vector<RunRequest> requests;
    for (const std::string& policy : comparison.policies)
        for (const std::string& workload : comparison.workloads)
            for (int r = 0; r < comparison.runs; ++r)
                requests.push_back({workload, policy, features, scenario.seed + static_cast<std::uint64_t>(r)});
    // What a cell needs of each run: a run's full RunMetrics (two
    // histograms, about 190 KB with the rest) is dropped as soon as its batch
    // is done, so that `runs: 100000` takes megabytes, not gigabytes.
    struct RunResult {
        Headline headline;
        bool finished = false;
        std::array<double, kDistanceClassCount> placement{};
    };
    std::vector<RunResult> results;
    results.reserve(requests.size());
    // Batches of `jobs` runs give the results run_batch() gives for all at
    // once (each run is independent), with a place to stop between them.
    const std::size_t step = static_cast<std::size_t>(std::max(1, jobs));
    for (std::size_t first = 0; first < requests.size(); first += step) {
        if (control.cancel && control.cancel->load())
            return std::nullopt;
        const std::vector<RunRequest> batch(
            requests.begin() + static_cast<std::ptrdiff_t>(first),
            requests.begin() + static_cast<std::ptrdiff_t>(std::min(requests.size(), first + step)));
        for (RunOutcome& o : run_batch(machine, batch, jobs))
            results.push_back({std::move(o.headline), o.finished, placement_fractions(o.metrics.placement_from_waker)});
        if (control.progress)
            control.progress(static_cast<int>(results.size()), static_cast<int>(requests.size()));
    }

    std::size_t i = 0;
    for (const std::string& policy : comparison.policies) {
        for (std::size_t k = 0; k < comparison.cases.size(); ++k) {
            ComparisonCell cell;
            cell.policy = policy;
            cell.case_label = comparison.cases[k];
            for (int r = 0; r < comparison.runs; ++r, ++i) {
                const RunResult& o = results[i];
                cell.metric = o.headline.name;
                cell.unit = o.headline.unit;
                cell.lower_is_better = o.headline.lower_is_better;
                cell.values.push_back(o.headline.value);
                cell.unfinished += o.finished ? 0 : 1;
                for (std::size_t d = 0; d < kDistanceClassCount; ++d)
                    cell.placement[d] += o.placement[d] / comparison.runs;
            }
            comparison.cells.push_back(std::move(cell));
        }
    }
    finish_comparison(comparison);
    return comparison;
}

}  // namespace wb

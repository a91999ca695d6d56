// SPDX-License-Identifier: Apache-2.0
//
// The whole comparison of a scenario (every policy x case x seed), as
// `wakesim compare --scenario` computes it: the numbers behind the GUI's
// headline and placement charts and its CSV, JSON and text exports.
#pragma once

#include <atomic>
#include <functional>
#include <optional>

#include "io/scenario_json.h"
#include "metrics/comparison.h"
#include "topology/machine.h"

namespace wb {

struct ComparisonControl {
    // Checked between batches of `jobs` runs: a viewer closing mid-way waits
    // for one run at most.
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(int done, int total)> progress;
};

// `machine` is the scenario's machine, resolved. Runs on `jobs` threads.
// Throws InputError for a bad workload, policy or feature list; nullopt
// when cancelled.
std::optional<Comparison> run_comparison(const Machine& machine, const Scenario& scenario, int jobs,
                                         const ComparisonControl& control = {});

}  // namespace wb

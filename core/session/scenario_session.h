// SPDX-License-Identifier: Apache-2.0
//
// From a scenario file to what a viewer runs: one case of it under its
// policies side by side (at most LockstepRun::kMaxRuns), with the seed and
// features `wakesim run --scenario` uses, and the wakesim commands that
// reproduce what is shown.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "engine/batch.h"
#include "io/scenario_json.h"
#include "topology/machine.h"

namespace wb {

struct SessionSetup {
    std::string machine_spec;  // resolved against the scenario's folder
    Machine machine;
    std::string case_label;
    RunRequest base;                    // workload, seed, features; no policy
    std::vector<std::string> policies;  // one to four
};

// Throws InputError naming `scenario_path` for a machine that cannot be
// loaded or features that do not parse; case_index must be valid. Policies
// beyond the fourth are left out.
SessionSetup make_session_setup(const Scenario& scenario, const std::string& scenario_path, std::size_t case_index);

// `wakesim run ...` for one policy of the setup: the same figures, in text.
std::string wakesim_run_command(const SessionSetup& setup, const std::string& policy);
// `wakesim compare ...` over the setup's policies and the scenario's runs.
std::string wakesim_compare_command(const SessionSetup& setup, int runs);

}  // namespace wb

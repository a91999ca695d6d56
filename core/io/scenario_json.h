// SPDX-License-Identifier: Apache-2.0
//
// Scenario files: what to run, so that a comparison can be saved, shared,
// re-run by `wakesim run|compare --scenario FILE` and opened by the GUI.
// docs/scenario-format.md documents the format.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

struct Machine;

struct ScenarioCase {
    std::string label;     // "same-cpu-79"
    std::string workload;  // "pipe:loops=1000000,cpus=79"
    friend bool operator==(const ScenarioCase&, const ScenarioCase&) = default;
};

struct Scenario {
    std::string name;
    std::string description;
    std::string source;   // where the comparison comes from, if it reproduces one
    std::string machine;  // a shipped name, "synthetic:...", or a path (resolved against the scenario's folder)
    std::vector<ScenarioCase> cases;
    std::vector<std::string> plugins;   // policy plugins, as written (relative to the scenario's folder); loaded on read
    std::vector<std::string> policies;  // the first is the reference
    std::string features;               // "NO_WA_BIAS,NO_SIS_UTIL"
    std::uint64_t seed = 1;
    int runs = 1;

    friend bool operator==(const Scenario&, const Scenario&) = default;
};

// Reads and checks a scenario: workloads, policies and features must be
// valid (the machine is resolved by the caller). Throws InputError with every
// problem, each with file, line:column and JSON pointer.
Scenario load_scenario_file(const std::string& path);
Scenario parse_scenario_json(std::string_view text, const std::string& file_label);

std::string scenario_to_json(const Scenario& scenario);
void save_scenario_file(const Scenario& scenario, const std::string& path);

// The machine spec with a relative file path made relative to the scenario's folder.
std::string scenario_machine_spec(const Scenario& scenario, const std::string& scenario_path);

// The scenario's machine (scenario_machine_spec(), then resolve_machine()).
// A machine that cannot be used is an InputError that names the scenario
// file and its /machine first, then the machine's own problems.
Machine resolve_scenario_machine(const Scenario& scenario, const std::string& scenario_path);

}  // namespace wb

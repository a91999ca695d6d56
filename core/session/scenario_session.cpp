// SPDX-License-Identifier: Apache-2.0
#include "session/scenario_session.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "io/input_error.h"
#include "io/topology_library.h"
#include "policies/registry.h"
#include "session/lockstep_run.h"

namespace wb {

namespace {

// Single quotes keep a spec with ',' '+' ':' or spaces one shell word.
std::string shell_quote(const std::string& word)
{
    const bool plain = std::all_of(word.begin(), word.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) ||
               std::string_view("-_./=:,+").find(c) != std::string_view::npos;
    });
    if (plain && !word.empty())
        return word;
    std::string out = "'";
    for (char c : word)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string common_options(const SessionSetup& setup)
{
    std::string out = " --topology " + shell_quote(setup.machine_spec);
    const std::string features = setup.base.features.changes();
    if (!features.empty())
        out += " --features " + shell_quote(features);
    return out + " --seed " + std::to_string(setup.base.seed);
}

// "wakesim --plugin P.so": wakesim loads the plugins the policies need
// before it reads its command.
std::string wakesim_with_plugins(const std::vector<std::string>& policies)
{
    std::string out = "wakesim";
    for (const std::string& plugin : policy_plugins(policies))
        out += " --plugin " + shell_quote(plugin);
    return out;
}

}  // namespace

SessionSetup make_session_setup(const Scenario& scenario, const std::string& scenario_path, std::size_t case_index)
{
    SessionSetup setup;
    setup.machine_spec = scenario_machine_spec(scenario, scenario_path);
    setup.machine = resolve_scenario_machine(scenario, scenario_path);
    const ScenarioCase& c = scenario.cases.at(case_index);
    setup.case_label = c.label;
    setup.base.workload = c.workload;
    setup.base.seed = scenario.seed;
    if (std::string error = setup.base.features.apply(scenario.features); !error.empty())
        throw InputError(Diagnostic{scenario_path, 0, 0, "/features", error});
    setup.policies = scenario.policies.empty() ? std::vector<std::string>{"baseline"} : scenario.policies;
    if (setup.policies.size() > static_cast<std::size_t>(LockstepRun::kMaxRuns))
        setup.policies.resize(static_cast<std::size_t>(LockstepRun::kMaxRuns));
    return setup;
}

std::string wakesim_run_command(const SessionSetup& setup, const std::string& policy)
{
    return wakesim_with_plugins({policy}) + " run" + common_options(setup) + " --workload " + shell_quote(setup.base.workload) + " --policy " +
           shell_quote(policy);
}

std::string wakesim_compare_command(const SessionSetup& setup, int runs)
{
    std::string policies;
    for (const std::string& p : setup.policies)
        policies += (policies.empty() ? "" : ",") + p;
    return wakesim_with_plugins(setup.policies) + " compare" + common_options(setup) + " --workload " +
           shell_quote(setup.case_label + "=" + setup.base.workload) + " --policies " + shell_quote(policies) +
           " --runs " + std::to_string(runs);
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "cli/run_command.h"

#include <fstream>
#include <iostream>

#include "cli/args.h"
#include "engine/simulator.h"
#include "io/input_error.h"
#include "io/results_json.h"
#include "io/scenario_json.h"
#include "io/topology_library.h"
#include "metrics/run_summary.h"
#include "policies/registry.h"
#include "workload/workload_spec.h"

namespace wb::cli {

namespace {

const std::vector<OptionSpec> kSpecs{
    {"scenario", Value::Required, "FILE",
     "take machine, workload, policy, features and seed from a scenario (its first case and policy)"},
    {"case", Value::Required, "LABEL", "with --scenario: run this case instead of the first"},
    {"topology", Value::Required, "MACHINE", "a shipped machine, a machine file or synthetic:..."},
    {"workload", Value::Required, "SPEC", "e.g. pipe:loops=1000000,cpus=78-79 (wakesim list workloads)"},
    {"policy", Value::Required, "SPEC", "placement policy, e.g. baseline+sis-sync-stack (wakesim list policies)"},
    {"seed", Value::Required, "N", "64-bit seed (default 1)"},
    {"features", Value::Required, "LIST", "scheduler features, e.g. NO_WA_BIAS,NO_SIS_UTIL"},
    {"json", Value::Required, "FILE", "write the full result as JSON"},
    {"record", Value::Required, "FILE", "write every wakeup's decision record as JSON Lines"},
    {"time-limit", Value::Required, "DURATION", "stop after this much simulated time (default 3600s)"},
    {"check", Value::None, "", "check the kernel state's invariants during the run (always on in debug builds)"},
};

std::ofstream open_output(const std::string& path, const char* option)
{
    std::ofstream out(path);
    if (!out)
        throw UsageError(std::string("run: ") + option + " '" + path + "': cannot write this file");
    return out;
}

}  // namespace

int run_command(const std::vector<std::string>& argv)
{
    if (!argv.empty() && (argv[0] == "--help" || argv[0] == "help")) {
        std::cout << "usage: wakesim run (--scenario FILE | --topology MACHINE --workload SPEC) [options]\n"
                  << describe_options(kSpecs);
        return 0;
    }
    const Args args = parse_args(argv, kSpecs, "run");
    // A scenario gives defaults; options given beside it override them.
    std::string machine_spec = args.get("topology").value_or("");
    std::string workload_spec = args.get("workload").value_or("");
    std::string policy = args.get("policy").value_or("baseline");
    std::string feature_list = args.get("features").value_or("");
    std::uint64_t seed = 1;
    if (auto path = args.get("scenario")) {
        const Scenario scenario = load_scenario_file(*path);
        if (machine_spec.empty())
            machine_spec = scenario_machine_spec(scenario, *path);
        if (workload_spec.empty()) {
            const std::string wanted = args.get("case").value_or(scenario.cases.front().label);
            std::string labels;
            for (const ScenarioCase& c : scenario.cases) {
                labels += (labels.empty() ? "" : ", ") + c.label;
                if (c.label == wanted && workload_spec.empty())
                    workload_spec = c.workload;
            }
            if (workload_spec.empty())
                throw UsageError("run: --case '" + wanted + "': expected one of " + labels);
        }
        if (!args.has("policy"))
            policy = scenario.policies.front();
        if (!args.has("features"))
            feature_list = scenario.features;
        seed = scenario.seed;
    } else if (args.has("case")) {
        throw UsageError("run: --case needs --scenario");
    }
    if (machine_spec.empty() || workload_spec.empty() || !args.positionals.empty())
        throw UsageError(
            "run: expected --topology MACHINE and --workload SPEC, or --scenario FILE\nusage: wakesim run [options]\n" +
            describe_options(kSpecs));
    // Built here so that a bad spec fails before any file is opened; the
    // engine applies it through SimOptions::policy, which must outlive the
    // Simulator.
    const std::unique_ptr<PlacementPolicy> placement = make_policy(policy, "--policy");

    SimOptions options;
    options.policy = placement.get();
    options.check = args.has("check");
    options.seed = args.has("seed") ? parse_whole_number("run", "seed", *args.get("seed"), 0, UINT64_MAX) : seed;
    if (std::string error = options.features.apply(feature_list); !error.empty())
        throw UsageError("run: --features: " + error);
    if (auto limit = args.get("time-limit")) {
        if (!parse_duration(*limit, options.time_limit))
            throw UsageError("run: --time-limit '" + *limit + "': expected a duration such as 500us, 5ms or 2s");
    }

    Machine machine = resolve_machine(machine_spec);
    std::unique_ptr<Workload> workload = make_workload(workload_spec);
    std::ofstream json_out, record_out;
    if (auto path = args.get("json"))
        json_out = open_output(*path, "--json");
    if (auto path = args.get("record"))
        record_out = open_output(*path, "--record");

    const std::string machine_name = machine.name;
    Simulator sim(std::move(machine), std::move(workload), options);
    if (record_out.is_open())
        sim.set_record_sink([&](const DecisionRecord& rec) { record_out << decision_record_to_json(rec) << '\n'; });
    const bool finished = sim.run();

    const Time elapsed = sim.elapsed();
    std::cout << sim.workload().report(elapsed) << "\n" << format_run_summary(sim.metrics(), elapsed);
    if (!finished)
        std::cout << "note: the workload did not finish within the time limit\n";
    if (json_out.is_open()) {
        const RunInfo info{machine_name, workload_spec, policy, options.features.changes(), options.seed};
        json_out << run_result_to_json(info, finished, elapsed, sim.workload().ops(), sim.workload().headline(elapsed),
                                       sim.metrics());
    }
    return 0;
}

}  // namespace wb::cli

// SPDX-License-Identifier: Apache-2.0
#include "cli/compare_command.h"

#include <fstream>
#include <iostream>
#include <thread>

#include "cli/args.h"
#include "io/comparison_json.h"
#include "io/output_file.h"
#include "io/scenario_json.h"
#include "io/topology_library.h"
#include "metrics/comparison.h"
#include "policies/registry.h"
#include "session/comparison_run.h"
#include "workload/workload_spec.h"

namespace wb::cli {

namespace {

const std::vector<OptionSpec> kSpecs{
    {"scenario", Value::Required, "FILE",
     "take machine, cases, policies, features, seed and runs from a scenario file"},
    {"topology", Value::Required, "MACHINE", "a shipped machine, a machine file or synthetic:..."},
    {"workload", Value::Required, "[LABEL=]SPEC", "a workload case; repeat for several (wakesim list workloads)", true},
    {"policies", Value::Required, "A,B,...", "policies to compare, the first is the reference (default baseline)"},
    {"runs", Value::Required, "N", "seeds per policy and case (default 20)"},
    {"seed", Value::Required, "N", "first seed; runs use seed, seed+1, ... (default 1)"},
    {"jobs", Value::Required, "J", "worker threads (default: the number of CPUs)"},
    {"features", Value::Required, "LIST", "scheduler features, e.g. NO_WA_BIAS"},
    {"json", Value::Required, "FILE", "write the cells as JSON"},
    {"csv", Value::Required, "FILE", "write the cells as CSV"},
};

// "same-cpu=pipe:loops=10,cpus=3" has a label; "pipe:loops=10" does not (the
// text before its first '=' names a parameter, so it holds a ':').
std::pair<std::string, std::string> split_label(const std::string& text)
{
    const std::size_t eq = text.find('=');
    if (eq != std::string::npos && text.substr(0, eq).find(':') == std::string::npos &&
        text.find(':', eq) != std::string::npos)
        return {text.substr(0, eq), text.substr(eq + 1)};
    return {text, text};
}

}  // namespace

std::vector<std::string> split_policy_list(const std::string& text)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const std::size_t comma = text.find(',', pos);
        std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        const bool is_switch = item.find('=') < item.find(':');
        if (is_switch && !out.empty())
            out.back() += "," + item;
        else if (!item.empty())
            out.push_back(item);
        if (comma == std::string::npos)
            break;
        pos = comma + 1;
    }
    return out;
}

int compare_command(const std::vector<std::string>& argv)
{
    if (!argv.empty() && (argv[0] == "--help" || argv[0] == "help")) {
        std::cout
            << "usage: wakesim compare (--scenario FILE | --topology MACHINE --workload [LABEL=]SPEC...) [options]\n"
            << describe_options(kSpecs);
        return 0;
    }
    const Args args = parse_args(argv, kSpecs, "compare");
    // A scenario gives defaults; options given beside it override them.
    Scenario scenario;
    std::string machine_spec;
    if (auto path = args.get("scenario")) {
        scenario = load_scenario_file(*path);
        machine_spec = scenario_machine_spec(scenario, *path);
    }
    const bool machine_from_scenario = args.has("scenario") && !args.has("topology");
    if (auto topology = args.get("topology"))
        machine_spec = *topology;
    if (args.has("workload")) {
        scenario.cases.clear();
        for (const std::string& text : args.repeated.at("workload")) {
            auto [label, spec] = split_label(text);
            scenario.cases.push_back({label, spec});
        }
    }
    if (machine_spec.empty() || scenario.cases.empty() || !args.positionals.empty())
        throw UsageError(
            "compare: expected --topology MACHINE and at least one --workload SPEC, or --scenario FILE\n"
            "usage: wakesim compare [options]\n" +
            describe_options(kSpecs));

    for (const ScenarioCase& c : scenario.cases)
        make_workload(c.workload);  // refuse a bad case before any run starts
    if (args.has("policies"))
        scenario.policies = split_policy_list(*args.get("policies"));
    else if (scenario.policies.empty())
        scenario.policies = {"baseline"};
    if (scenario.policies.empty())
        throw UsageError("compare: --policies: expected at least one policy");
    for (const std::string& p : scenario.policies)
        make_policy(p, "--policies");
    scenario.runs =
        static_cast<int>(args.has("runs")       ? parse_whole_number("compare", "runs", *args.get("runs"), 1, 100000)
                         : args.has("scenario") ? static_cast<std::uint64_t>(scenario.runs)
                                                : 20);
    if (args.has("seed"))
        scenario.seed = parse_whole_number("compare", "seed", *args.get("seed"), 0, UINT64_MAX - 100000);
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    const int jobs =
        static_cast<int>(args.has("jobs") ? parse_whole_number("compare", "jobs", *args.get("jobs"), 1, 1024) : hw);
    scenario.features = args.get("features").value_or(scenario.features);
    if (std::string error = FeatureSet().apply(scenario.features); !error.empty())
        throw UsageError("compare: --features: " + error);
    std::ofstream json_out, csv_out;
    if (auto path = args.get("json"); path && !(json_out = std::ofstream(*path)))
        throw UsageError("compare: --json '" + *path + "': cannot write this file");
    if (auto path = args.get("csv"); path && !(csv_out = std::ofstream(*path)))
        throw UsageError("compare: --csv '" + *path + "': cannot write this file");

    const Machine machine = machine_from_scenario ? resolve_scenario_machine(scenario, *args.get("scenario"))
                                                  : resolve_machine(machine_spec);
    const Comparison comparison = *run_comparison(machine, scenario, jobs);
    std::cout << "machine " << machine.name << "\n" << format_comparison(comparison);
    if (json_out.is_open())
        json_out << comparison_to_json(comparison, machine.name);
    if (csv_out.is_open())
        csv_out << comparison_to_csv(comparison);
    for (auto [out, option] : {std::pair{&json_out, "json"}, {&csv_out, "csv"}})
        if (out->is_open())
            finish_output(*out, *args.get(option));
    return 0;
}

}  // namespace wb::cli

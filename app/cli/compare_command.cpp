// SPDX-License-Identifier: Apache-2.0
#include "cli/compare_command.h"

#include <fstream>
#include <iostream>
#include <thread>

#include "cli/args.h"
#include "engine/batch.h"
#include "io/comparison_json.h"
#include "io/scenario_json.h"
#include "io/topology_library.h"
#include "metrics/comparison.h"
#include "metrics/run_summary.h"
#include "policies/registry.h"
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

std::vector<std::string> split_list(const std::string& text)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const std::size_t comma = text.find(',', pos);
        std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        if (!item.empty())
            out.push_back(item);
        if (comma == std::string::npos)
            break;
        pos = comma + 1;
    }
    return out;
}

}  // namespace

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

    Comparison comparison;
    for (const ScenarioCase& c : scenario.cases) {
        make_workload(c.workload);  // refuse a bad case before any run starts
        comparison.cases.push_back(c.label);
        comparison.workloads.push_back(c.workload);
    }
    comparison.policies = args.has("policies")        ? split_list(*args.get("policies"))
                          : scenario.policies.empty() ? std::vector<std::string>{"baseline"}
                                                      : scenario.policies;
    if (comparison.policies.empty())
        throw UsageError("compare: --policies: expected at least one policy");
    for (const std::string& p : comparison.policies)
        make_policy(p, "--policies");
    comparison.runs =
        static_cast<int>(args.has("runs")       ? parse_whole_number("compare", "runs", *args.get("runs"), 1, 100000)
                         : args.has("scenario") ? static_cast<std::uint64_t>(scenario.runs)
                                                : 20);
    const std::uint64_t first_seed =
        args.has("seed") ? parse_whole_number("compare", "seed", *args.get("seed"), 0, UINT64_MAX - 100000)
                         : scenario.seed;
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    const int jobs =
        static_cast<int>(args.has("jobs") ? parse_whole_number("compare", "jobs", *args.get("jobs"), 1, 1024) : hw);
    FeatureSet features;
    const std::string feature_list = args.get("features").value_or(scenario.features);
    if (std::string error = features.apply(feature_list); !error.empty())
        throw UsageError("compare: --features: " + error);
    std::ofstream json_out, csv_out;
    if (auto path = args.get("json"); path && !(json_out = std::ofstream(*path)))
        throw UsageError("compare: --json '" + *path + "': cannot write this file");
    if (auto path = args.get("csv"); path && !(csv_out = std::ofstream(*path)))
        throw UsageError("compare: --csv '" + *path + "': cannot write this file");

    const Machine machine = resolve_machine(machine_spec);
    std::vector<RunRequest> requests;
    for (const std::string& policy : comparison.policies)
        for (const std::string& workload : comparison.workloads)
            for (int r = 0; r < comparison.runs; ++r)
                requests.push_back({workload, policy, features, first_seed + static_cast<std::uint64_t>(r)});
    const std::vector<RunOutcome> outcomes = run_batch(machine, requests, jobs);

    std::size_t i = 0;
    for (const std::string& policy : comparison.policies) {
        for (std::size_t k = 0; k < comparison.cases.size(); ++k) {
            ComparisonCell cell;
            cell.policy = policy;
            cell.case_label = comparison.cases[k];
            for (int r = 0; r < comparison.runs; ++r, ++i) {
                const RunOutcome& o = outcomes[i];
                cell.metric = o.headline.name;
                cell.unit = o.headline.unit;
                cell.lower_is_better = o.headline.lower_is_better;
                cell.values.push_back(o.headline.value);
                cell.unfinished += o.finished ? 0 : 1;
                const auto f = placement_fractions(o.metrics.placement_from_waker);
                for (std::size_t d = 0; d < kDistanceClassCount; ++d)
                    cell.placement[d] += f[d] / comparison.runs;
            }
            comparison.cells.push_back(std::move(cell));
        }
    }
    finish_comparison(comparison);
    std::cout << "machine " << machine.name << "\n" << format_comparison(comparison);
    if (json_out.is_open())
        json_out << comparison_to_json(comparison, machine.name);
    if (csv_out.is_open())
        csv_out << comparison_to_csv(comparison);
    return 0;
}

}  // namespace wb::cli

// SPDX-License-Identifier: Apache-2.0
#include "cli/run_command.h"

#include <fstream>
#include <iostream>
#include <optional>

#include "cli/args.h"
#include "engine/simulator.h"
#include "io/ftrace_text_writer.h"
#include "io/input_error.h"
#include "io/output_file.h"
#include "io/results_json.h"
#include "io/scenario_json.h"
#include "io/topology_library.h"
#include "io/trace_event_json_writer.h"
#include "metrics/run_summary.h"
#include "policies/registry.h"
#include "session/trace_export.h"
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
    {"trace", Value::Required, "FILE",
     "write the run as a trace: FILE.txt ftrace text (trace import, Perfetto), FILE.json Chrome trace events"},
    {"trace-limit", Value::Required, "N|DURATION",
     "stop the trace after N events or this much simulated time (default 1000000 events)"},
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

// The trace format --trace's file name asks for.
TraceFileFormat trace_file_format_of(const std::string& path)
{
    if (const auto format = trace_file_format(path))
        return *format;
    throw UsageError("run: --trace '" + path +
                     "': expected a file name ending in .txt (ftrace text) or .json (Chrome trace events)");
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
    std::optional<Scenario> machine_from;  // the scenario, when it names the machine
    if (auto path = args.get("scenario")) {
        const Scenario scenario = load_scenario_file(*path);
        if (machine_spec.empty()) {
            machine_spec = scenario_machine_spec(scenario, *path);
            machine_from = scenario;
        }
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

    std::optional<TraceFileFormat> trace_format;
    if (auto path = args.get("trace"))
        trace_format = trace_file_format_of(*path);
    TraceLimit trace_limit;
    if (auto limit = args.get("trace-limit")) {
        if (!trace_format)
            throw UsageError("run: --trace-limit needs --trace FILE");
        if (!parse_trace_limit(*limit, trace_limit))
            throw UsageError("run: --trace-limit '" + *limit +
                             "': expected a count of events such as 1000000 or a duration such as 500ms or 2s");
    }

    Machine machine =
        machine_from ? resolve_scenario_machine(*machine_from, *args.get("scenario")) : resolve_machine(machine_spec);
    std::unique_ptr<Workload> workload = make_workload(workload_spec);
    std::ofstream json_out, record_out, trace_out;
    if (auto path = args.get("json"))
        json_out = open_output(*path, "--json");
    if (auto path = args.get("record"))
        record_out = open_output(*path, "--record");
    if (auto path = args.get("trace"))
        trace_out = open_output(*path, "--trace");

    const std::string machine_name = machine.name;
    const int nr_cpus = machine.nr_cpus();
    const std::string what = machine_name + " " + workload_spec + " " + policy + " seed " + std::to_string(options.seed);
    Simulator sim(std::move(machine), std::move(workload), options);
    std::optional<FtraceTextWriter> ftrace;
    std::optional<TraceEventJsonWriter> trace_json;
    if (trace_format == TraceFileFormat::FtraceText)
        sim.set_event_sink(&ftrace.emplace(trace_out, nr_cpus, trace_limit, what));
    else if (trace_format == TraceFileFormat::TraceEventJson)
        sim.set_event_sink(&trace_json.emplace(trace_out, nr_cpus, trace_limit, what));
    if (record_out.is_open())
        sim.set_record_sink([&](const DecisionRecord& rec) { record_out << decision_record_to_json(rec) << '\n'; });
    const bool finished = sim.run();

    const Time elapsed = sim.elapsed();
    bool trace_cut = false;
    if (ftrace) {
        ftrace->finish();
        trace_cut = ftrace->truncated();
    } else if (trace_json) {
        trace_json->finish(elapsed);
        trace_cut = trace_json->truncated();
    }
    if (trace_cut)
        std::cerr << "note: --trace " << *args.get("trace") << " stopped at the trace limit ("
                  << trace_limit.describe() << "); the run itself went on to the end\n";
    std::cout << sim.workload().report(elapsed) << "\n" << format_run_summary(sim.metrics(), elapsed);
    if (!finished)
        std::cout << "note: the workload did not finish within the time limit\n";
    if (json_out.is_open()) {
        const RunInfo info{machine_name, workload_spec, policy, options.features.changes(), options.seed};
        json_out << run_result_to_json(info, finished, elapsed, sim.workload().ops(), sim.workload().headline(elapsed),
                                       sim.metrics());
    }
    for (auto [out, option] : {std::pair{&json_out, "json"}, {&record_out, "record"}, {&trace_out, "trace"}})
        if (out->is_open())
            finish_output(*out, *args.get(option));
    return 0;
}

}  // namespace wb::cli

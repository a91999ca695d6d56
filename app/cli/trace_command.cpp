// SPDX-License-Identifier: Apache-2.0
#include "cli/trace_command.h"

#include <fstream>
#include <iostream>

#include "base/sim_time.h"
#include "cli/args.h"
#include "cli/compare_command.h"
#include "cli/trace_options.h"
#include "cli/trace_workload_command.h"
#include "io/input_error.h"
#include "io/output_file.h"
#include "io/trace_input.h"
#include "io/trace_replay_json.h"
#include "io/trace_report_json.h"
#include "policies/registry.h"
#include "topology/cpumask.h"
#include "trace/trace_clock.h"
#include "trace/trace_parser.h"
#include "trace/trace_replay.h"
#include "trace/trace_report.h"

namespace wb::cli {

namespace {

const std::vector<OptionSpec> kImportSpecs{
    {"topology", Value::Required, "MACHINE", "the machine the trace was recorded on: a shipped machine or a machine file"},
    {"sysfs", Value::Optional, "ROOT", "instead: the machine from ROOT/sys/devices/system (default: this machine, /)"},
    {"lscpu", Value::Required, "FILE", "instead: the machine from the output of `lscpu -p`"},
    {"comm", Value::Required, "REGEX", "report only tasks whose comm matches (every task still counts for the CPUs)"},
    {"pid", Value::Required, "LIST", "report only these pids, e.g. 1200,1300-1310 (with --comm: either selects)"},
    {"clock", Value::Required, "NAME", "the trace_clock it was recorded with (local, mono, counter, x86-tsc ...)"},
    {"json", Value::Required, "FILE", "write the figures as JSON, under `wakesim run --json`'s keys"},
};

const std::vector<OptionSpec> kReplaySpecs{
    {"topology", Value::Required, "MACHINE", "the machine the trace was recorded on: a shipped machine or a machine file"},
    {"sysfs", Value::Optional, "ROOT", "instead: the machine from ROOT/sys/devices/system (default: this machine, /)"},
    {"lscpu", Value::Required, "FILE", "instead: the machine from the output of `lscpu -p`"},
    {"policies", Value::Required, "A,B,...", "policies to ask at each wakeup, the first is the reference (default baseline)"},
    {"features", Value::Required, "LIST", "sched features of the replayed kernel, e.g. NO_SIS_UTIL,NO_WA_BIAS"},
    {"comm", Value::Required, "REGEX", "replay only wakeups of tasks whose comm matches (every task still counts)"},
    {"pid", Value::Required, "LIST", "replay only wakeups of these pids, e.g. 1200,1300-1310"},
    {"sync-window", Value::Required, "TIME", "a waker that blocks this soon after its wakeup made it WF_SYNC (default 20us)"},
    {"record", Value::Required, "FILE", "write each replayed decision record as JSON Lines, with kernel_cpu and line"},
    {"json", Value::Required, "FILE", "write each policy's agreement figures as JSON"},
};

const char* const kUsage =
    "usage: wakesim trace import FILE (--topology MACHINE | --sysfs [ROOT] | --lscpu FILE) [options]\n"
    "       wakesim trace replay FILE (--topology MACHINE | --sysfs [ROOT] | --lscpu FILE) [--policies A,B,...] "
    "[options]\n"
    "       wakesim trace to-workload FILE (--topology MACHINE | --sysfs [ROOT] | --lscpu FILE) --output W.json "
    "[options]\n";

std::ofstream open_output(const Args& args, const char* option, const char* command)
{
    std::ofstream out;
    if (auto path = args.get(option)) {
        out.open(*path);
        if (!out)
            throw UsageError(std::string(command) + ": --" + option + " '" + *path + "': cannot write this file");
    }
    return out;
}

int import(const std::vector<std::string>& argv)
{
    if (!argv.empty() && (argv[0] == "--help" || argv[0] == "help")) {
        std::cout << kUsage << describe_options(kImportSpecs);
        return 0;
    }
    const Args args = parse_args(argv, kImportSpecs, "trace import");
    if (args.positionals.size() != 1)
        throw UsageError(std::string("trace import: expected one trace file\n") + kUsage +
                         describe_options(kImportSpecs));
    const std::string& path = args.positionals[0];
    const TaskFilter filter = task_filter_of(args, "trace import");
    std::string clock = args.get("clock").value_or("");
    const TraceClock* named = nullptr;
    if (!clock.empty()) {
        named = find_trace_clock(clock);
        if (!named) {
            std::string names;
            for (const TraceClock& c : kTraceClocks)
                names += (names.empty() ? "" : ", ") + std::string(c.name);
            throw UsageError("trace import: --clock '" + clock + "': expected one of " + names);
        }
    }
    const Machine machine = trace_machine_of(args, "trace import", kUsage + describe_options(kImportSpecs));
    std::ofstream json_out = open_output(args, "json", "trace import");

    const ParsedTrace trace = parse_trace(read_trace_file(path), path);
    if (named && named->in_ns != trace.stamps_in_ns)
        throw InputError(Diagnostic{path, 0, 0, "",
                                    "--clock " + clock + (named->in_ns ? " stamps in ns" : " counts") +
                                        ", but the trace's stamps are " +
                                        (trace.stamps_in_ns ? "seconds with a fraction (a ns clock)"
                                                            : "whole counts (counter, uptime or x86-tsc)")});
    const TraceReport report = build_trace_report(trace, machine, filter, path);
    std::cout << format_trace_report(report, trace, clock, filter);
    if (json_out.is_open())
        json_out << trace_report_to_json({path, machine.name, clock}, trace, report, filter);
    if (json_out.is_open())
        finish_output(json_out, *args.get("json"));
    return 0;
}

int replay(const std::vector<std::string>& argv)
{
    if (!argv.empty() && (argv[0] == "--help" || argv[0] == "help")) {
        std::cout << kUsage << describe_options(kReplaySpecs);
        return 0;
    }
    const Args args = parse_args(argv, kReplaySpecs, "trace replay");
    if (args.positionals.size() != 1)
        throw UsageError(std::string("trace replay: expected one trace file\n") + kUsage +
                         describe_options(kReplaySpecs));
    const std::string& path = args.positionals[0];
    ReplayOptions options;
    options.filter = task_filter_of(args, "trace replay");
    if (auto list = args.get("policies")) {
        options.policies = split_policy_list(*list);
        if (options.policies.empty())
            throw UsageError("trace replay: --policies: expected at least one policy");
        for (const std::string& p : options.policies)
            make_policy(p, "--policies");
    }
    if (auto list = args.get("features")) {
        const std::string problem = options.features.apply(*list);
        if (!problem.empty())
            throw UsageError("trace replay: --features '" + *list + "': " + problem);
    }
    if (auto text = args.get("sync-window")) {
        Time window;
        if (!parse_duration(*text, window) || window.ns() < 0)
            throw UsageError("trace replay: --sync-window '" + *text + "': expected a duration such as 20us");
        options.sync_window_ns = window.ns();
    }
    const Machine machine = trace_machine_of(args, "trace replay", kUsage + describe_options(kReplaySpecs));
    std::ofstream json_out = open_output(args, "json", "trace replay");
    std::ofstream record_out = open_output(args, "record", "trace replay");

    const ParsedTrace trace = parse_trace(read_trace_file(path), path);
    ReplayRecordSink sink;
    if (record_out.is_open())
        sink = [&](const std::string& policy, const DecisionRecord& rec, int kernel_cpu, int line) {
            record_out << replay_record_to_json(policy, rec, kernel_cpu, line) << '\n';
        };
    const ReplayResult result = replay_trace(trace, machine, options, path, sink);
    std::cout << format_replay(result, options);
    if (json_out.is_open())
        json_out << replay_result_to_json({path, machine.name, ""}, result);
    for (auto [out, option] : {std::pair{&json_out, "json"}, {&record_out, "record"}})
        if (out->is_open())
            finish_output(*out, *args.get(option));
    return 0;
}

}  // namespace

int trace_command(const std::vector<std::string>& argv)
{
    if (argv.empty())
        throw UsageError(std::string("trace: expected a subcommand: import, replay or to-workload\n") + kUsage);
    if (argv[0] == "--help" || argv[0] == "help") {
        std::cout << kUsage << describe_options(kImportSpecs);
        return 0;
    }
    const std::vector<std::string> rest(argv.begin() + 1, argv.end());
    if (argv[0] == "import")
        return import(rest);
    if (argv[0] == "replay")
        return replay(rest);
    if (argv[0] == "to-workload")
        return trace_to_workload_command(rest);
    throw UsageError("trace: unknown subcommand '" + argv[0] + "'; expected import, replay or to-workload\n" + kUsage);
}

}  // namespace wb::cli

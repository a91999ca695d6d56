// SPDX-License-Identifier: Apache-2.0
#include "cli/trace_command.h"

#include <fstream>
#include <iostream>

#include "cli/args.h"
#include "cli/trace_options.h"
#include "cli/trace_workload_command.h"
#include "io/input_error.h"
#include "io/trace_input.h"
#include "io/trace_report_json.h"
#include "topology/cpumask.h"
#include "trace/trace_clock.h"
#include "trace/trace_parser.h"
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

const char* const kUsage =
    "usage: wakesim trace import FILE (--topology MACHINE | --sysfs [ROOT] | --lscpu FILE) [options]\n";

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
    std::ofstream json_out;
    if (auto out = args.get("json")) {
        json_out.open(*out);
        if (!json_out)
            throw UsageError("trace import: --json '" + *out + "': cannot write this file");
    }

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
    return 0;
}

}  // namespace

int trace_command(const std::vector<std::string>& argv)
{
    if (argv.empty())
        throw UsageError(std::string("trace: expected a subcommand: import\n") + kUsage);
    if (argv[0] == "--help" || argv[0] == "help") {
        std::cout << kUsage << describe_options(kImportSpecs);
        return 0;
    }
    const std::vector<std::string> rest(argv.begin() + 1, argv.end());
    if (argv[0] == "import")
        return import(rest);
    if (argv[0] == "to-workload")
        return trace_to_workload_command(rest);
    throw UsageError("trace: unknown subcommand '" + argv[0] + "'; expected import\n" + kUsage);
}

}  // namespace wb::cli

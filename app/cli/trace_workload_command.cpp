// SPDX-License-Identifier: Apache-2.0
#include "cli/trace_workload_command.h"

#include <fstream>
#include <iostream>

#include "cli/args.h"
#include "cli/trace_options.h"
#include "io/trace_input.h"
#include "io/workload_json_write.h"
#include "trace/trace_parser.h"
#include "trace/trace_workload.h"

namespace wb::cli {

namespace {

const std::vector<OptionSpec> kSpecs{
    {"topology", Value::Required, "MACHINE", "the machine the trace was recorded on: a shipped machine or a machine file"},
    {"sysfs", Value::Optional, "ROOT", "instead: the machine from ROOT/sys/devices/system (default: this machine, /)"},
    {"lscpu", Value::Required, "FILE", "instead: the machine from the output of `lscpu -p`"},
    {"comm", Value::Required, "REGEX", "the tasks to write: those whose comm matches at any point of the trace"},
    {"pid", Value::Required, "LIST", "the tasks to write by pid, e.g. 1200,1300-1310 (with --comm: either selects)"},
    {"output", Value::Required, "FILE", "the json workload to write (wakesim run --workload json:file=FILE)"},
};

const char* const kUsage = "usage: wakesim trace to-workload FILE (--topology MACHINE | --sysfs [ROOT] | --lscpu FILE) "
                           "[--comm REGEX] [--pid LIST] --output W.json\n";

std::string usage()
{
    return kUsage + describe_options(kSpecs);
}

}  // namespace

int trace_to_workload_command(const std::vector<std::string>& argv)
{
    const std::string command = "trace to-workload";
    if (!argv.empty() && (argv[0] == "--help" || argv[0] == "help")) {
        std::cout << usage();
        return 0;
    }
    const Args args = parse_args(argv, kSpecs, command);
    if (args.positionals.size() != 1)
        throw UsageError(command + ": expected one trace file\n" + usage());
    const auto output = args.get("output");
    if (!output || output->empty())
        throw UsageError(command + ": expected --output W.json, the workload file to write\n" + usage());
    const std::string& path = args.positionals[0];
    const TaskFilter filter = task_filter_of(args, command);
    const Machine machine = trace_machine_of(args, command, usage());

    const ParsedTrace trace = parse_trace(read_trace_file(path), path);
    const TraceWorkload workload = trace_to_workload(trace, machine, filter, path);
    // Written only once the whole trace has read well: a bad trace leaves
    // no half-written file behind.
    std::ofstream out(*output);
    if (!out)
        throw UsageError(command + ": --output '" + *output + "': cannot write this file");
    out << workload_to_json(workload.file);
    out.close();
    if (!out)
        throw UsageError(command + ": --output '" + *output + "': writing it failed");
    std::cout << format_trace_workload(workload, *output);
    std::cout << "simulate it with    wakesim run --workload json:file=" << *output << " --topology MACHINE\n";
    return 0;
}

}  // namespace wb::cli

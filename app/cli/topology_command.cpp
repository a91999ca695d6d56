// SPDX-License-Identifier: Apache-2.0
#include "cli/topology_command.h"

#include <iostream>

#include "cli/args.h"
#include "base/sim_time.h"
#include "host/host_measure.h"
#include "io/domains_json.h"
#include "io/input_error.h"
#include "io/lscpu_import.h"
#include "io/sysfs_import.h"
#include "io/topology_json.h"
#include "io/topology_library.h"
#include "topology/domains_report.h"
#include "topology/sched_domains.h"

namespace wb::cli {

namespace {

const char* const kMachineWords = "NAME|FILE|synthetic:node=N,llc=N,core=N,smt=N";

CpuMask selected_cpus(const Args& args, const Machine& machine)
{
    auto list = args.get("cpus");
    if (!list)
        return machine.all_cpus();
    CpulistParse parsed = parse_cpulist(*list, machine.nr_cpus());
    if (!parsed.ok())
        throw UsageError("topology show: --cpus '" + *list + "' column " + std::to_string(parsed.column) + ": " +
                         parsed.error);
    return parsed.mask;
}

int show(const std::vector<std::string>& argv)
{
    const std::vector<OptionSpec> specs{
        {"json", Value::None, "", "print JSON instead of text"},
        {"cpus", Value::Required, "LIST", "only these CPUs' domains (cpulist, e.g. 0-3,8)"},
        {"tree", Value::None, "", "only the lstopo-like tree"},
        {"domains", Value::None, "", "only the per-CPU sched domains"},
    };
    Args args = parse_args(argv, specs, "topology show");
    if (args.positionals.size() != 1)
        throw UsageError(std::string("topology show: expected one machine (") + kMachineWords + ")\n" +
                         "usage: wakesim topology show MACHINE [options]\n" + describe_options(specs));
    const Machine machine = resolve_machine(args.positionals[0]);
    const SchedDomains domains = SchedDomains::build(machine);
    const CpuMask cpus = selected_cpus(args, machine);
    if (args.has("json")) {
        std::cout << domains_to_json(machine, domains, cpus);
        return 0;
    }
    const bool tree = !args.has("domains") || args.has("tree");
    const bool doms = !args.has("tree") || args.has("domains");
    if (tree)
        std::cout << format_topology_tree(machine);
    if (tree && doms)
        std::cout << "\nSched domains (as /sys/kernel/debug/sched/domains/cpuN/domainM/):\n";
    if (doms)
        std::cout << format_cpu_domains(domains, cpus);
    return 0;
}

// The budget of --measure in ns, or nullopt without it. Measuring needs the
// live machine: a copied tree or an lscpu listing is not the CPU we run on.
std::optional<std::int64_t> measure_budget(const Args& args)
{
    const auto text = args.get("measure-time");
    if (!args.has("measure")) {
        if (text)
            throw UsageError("topology import: --measure-time needs --measure");
        return std::nullopt;
    }
    const std::string root = args.get("sysfs").value_or("-");
    if (!args.has("sysfs") || !(root.empty() || root == "/"))
        throw UsageError(
            "topology import: --measure benchmarks the machine wakesim runs on, so it needs --sysfs of this "
            "machine (no ROOT, or /), not " +
            (args.has("sysfs") ? "--sysfs " + root : std::string("--lscpu")));
    if (!text)
        return host::MeasureOptions().budget_ns;
    Time t;
    // At least 1 s: below that the batches are too few for a median.
    if (!parse_duration(*text, t) || t < Time::s(1) || t > Time::s(600))
        throw UsageError("topology import: --measure-time '" + *text +
                         "': expected a duration from 1s to 600s, such as 10s or 1500ms");
    return t.ns();
}

// Runs the host benchmarks and writes their costs and idle states into the
// imported machine; progress and what could not be measured go to stderr.
void measure_into(ImportResult& result, std::int64_t budget_ns)
{
    host::MeasureOptions options;
    options.budget_ns = budget_ns;
    options.progress = [](const std::string& line) { std::cerr << "measure: " << line << std::endl; };
    host::measure_imported_host(result, options);
}

int import(const std::vector<std::string>& argv)
{
    const std::vector<OptionSpec> specs{
        {"sysfs", Value::Optional, "ROOT", "read ROOT/sys/devices/system/{cpu,node} (default: this machine, /)"},
        {"lscpu", Value::Required, "FILE", "read the output of `lscpu -p`"},
        {"output", Value::Required, "FILE", "write the machine file here (default: standard output)"},
        {"name", Value::Required, "NAME", "the machine's name in the file"},
        {"measure", Value::None, "",
         "with --sysfs of this machine: run short benchmarks and write the measured costs (docs/measuring.md)"},
        {"measure-time", Value::Required, "DURATION", "the benchmarks' time budget, e.g. 10s (default 30s)"},
    };
    Args args = parse_args(argv, specs, "topology import");
    if (args.has("sysfs") == args.has("lscpu") || !args.positionals.empty())
        throw UsageError(
            "topology import: expected exactly one of --sysfs [ROOT] or --lscpu FILE\n"
            "usage: wakesim topology import (--sysfs [ROOT] | --lscpu FILE) [--measure [--measure-time DURATION]] "
            "[options]\n" +
            describe_options(specs));
    const std::optional<std::int64_t> budget = measure_budget(args);
    ImportResult result =
        args.has("sysfs") ? import_sysfs(args.get("sysfs").value_or("")) : import_lscpu(*args.get("lscpu"));
    if (auto name = args.get("name"))
        result.machine.name = *name;
    if (budget)
        measure_into(result, *budget);
    for (const std::string& w : result.warnings)
        std::cerr << "warning: " << w << "\n";
    if (auto out = args.get("output")) {
        save_machine_file(result.machine, *out);
        std::cerr << "wrote " << *out << ": " << result.machine.nr_cpus() << " CPUs\n";
    } else {
        std::cout << machine_to_json(result.machine);
    }
    return 0;
}

int check(const std::vector<std::string>& argv)
{
    Args args = parse_args(argv, {}, "topology check");
    if (args.positionals.empty())
        throw UsageError(std::string("topology check: expected one or more machines (") + kMachineWords + ")");
    for (const std::string& spec : args.positionals) {
        const Machine m = resolve_machine(spec);
        const SchedDomains d = SchedDomains::build(m);
        std::cout << spec << ": ok, " << m.nr_cpus() << " CPUs, sd_llc_size " << d.shortcuts(0).sd_llc_size << "\n";
    }
    return 0;
}

}  // namespace

int topology_command(const std::vector<std::string>& args)
{
    const std::string usage =
        "usage: wakesim topology show MACHINE [--json] [--cpus LIST] [--tree|--domains]\n"
        "       wakesim topology import (--sysfs [ROOT] | --lscpu FILE) [--output FILE] [--name NAME]\n"
        "                               [--measure [--measure-time DURATION]]\n"
        "       wakesim topology check MACHINE...\n"
        "MACHINE is a shipped machine's name (wakesim list topologies), a machine file, or\n"
        "synthetic:node=N,llc=N,core=N,smt=N (docs/topology-format.md).";
    if (args.empty())
        throw UsageError("topology: expected a subcommand: show, import or check\n" + usage);
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (args[0] == "show")
        return show(rest);
    if (args[0] == "import")
        return import(rest);
    if (args[0] == "check")
        return check(rest);
    if (args[0] == "--help" || args[0] == "help") {
        std::cout << usage << "\n";
        return 0;
    }
    throw UsageError("topology: unknown subcommand '" + args[0] + "'; expected show, import or check\n" + usage);
}

}  // namespace wb::cli

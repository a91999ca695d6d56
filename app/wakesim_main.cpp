// SPDX-License-Identifier: Apache-2.0
//
// wakesim: the command-line front end. It parses words, calls the core and
// prints; every number the GUI shows can be reproduced from here.
// Exit status: 0 success, 2 bad usage or bad input, 1 a policy's hook broke
// its contract (PolicyError) or an internal failure.
#include <iostream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/bench_command.h"
#include "cli/compare_command.h"
#include "cli/kernel_command.h"
#include "cli/list_command.h"
#include "cli/policy_command.h"
#include "cli/run_command.h"
#include "cli/soak_command.h"
#include "cli/sweep_command.h"
#include "cli/topology_command.h"
#include "cli/trace_command.h"
#include "cli/validate_command.h"
#include "io/input_error.h"
#include "plugin/plugin_loader.h"
#include "plugin/policy_error.h"
#include "version.h"

namespace {

const char* const kUsage =
    "usage: wakesim [--plugin PATH.so]... COMMAND [ARGS]\n"
    "  --plugin PATH.so         load a policy plugin first (repeatable): its policies can then be named\n"
    "  --version                print the release and the commit this build is from\n"
    "commands:\n"
    "  topology show MACHINE    the machine's tree and the sched domains the kernel builds for it\n"
    "  topology import ...      write a machine file from sysfs or `lscpu -p`\n"
    "  topology check MACHINE   load a machine and report problems\n"
    "  list topologies|workloads|policies|features|hooks   what can be named\n"
    "  policy new NAME [--hook HOOK] [--dir DIR]   start a policy plugin of your own\n"
    "  bench                    simulated wakeups per second of this build\n"
    "  run --topology M --workload W   simulate a workload (wakesim run --help)\n"
    "  compare --topology M --workload W... --policies A,B --runs N   compare policies over seeds\n"
    "  sweep FILE --json OUT    a grid of runs from a sweep file; --shard, --plan, --emit slurm|k8s, merge\n"
    "  validate [--case ID] [--quick]   the model against published measurements of real kernels\n"
    "  trace import FILE --topology M   a real trace (tracefs, trace-cmd, perf script) reported as a run\n"
    "  trace to-workload FILE --topology M --output W.json   its tasks' shape as a json workload\n"
    "  soak [--events 1e8]      the engine run long with every invariant checked, watching memory\n"
    "  kernel run --topology M --workload W   boot a real kernel under QEMU on M, trace W, compare with the model\n"
    "Run `wakesim topology help` for the options.";

// Loads the leading --plugin options' plugins and returns the words after them.
std::vector<std::string> load_plugins(const std::vector<std::string>& argv)
{
    std::size_t i = 0;
    while (i < argv.size()) {
        std::string path;
        if (argv[i] == "--plugin") {
            if (i + 1 >= argv.size())
                throw wb::cli::UsageError("--plugin: expected a plugin's path (a .so built against the SDK)");
            path = argv[i + 1];
            i += 2;
        } else if (argv[i].starts_with("--plugin=")) {
            path = argv[i].substr(9);
            i += 1;
        } else {
            break;
        }
        wb::load_plugin(path);
    }
    return {argv.begin() + static_cast<std::ptrdiff_t>(i), argv.end()};
}

int dispatch(const std::vector<std::string>& argv)
{
    using namespace wb::cli;
    const std::vector<std::string> args = load_plugins(argv);
    if (args.empty())
        throw UsageError(std::string("expected a command\n") + kUsage);
    const std::string& command = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    for (const std::string& word : rest)
        if (word == "--plugin" || word.starts_with("--plugin="))
            throw UsageError("--plugin goes before the command: wakesim --plugin PATH.so " + command + " ...");
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << kUsage << "\n";
        return 0;
    }
    if (command == "--version") {
        std::cout << wb::version_line("wakesim") << "\n";
        return 0;
    }
    if (command == "topology")
        return topology_command(rest);
    if (command == "run")
        return run_command(rest);
    if (command == "compare")
        return compare_command(rest);
    if (command == "sweep")
        return sweep_command(rest);
    if (command == "bench")
        return bench_command(rest);
    if (command == "list")
        return list_command(rest);
    if (command == "validate")
        return validate_command(rest);
    if (command == "policy")
        return policy_command(rest);
    if (command == "trace")
        return trace_command(rest);
    if (command == "soak")
        return soak_command(rest);
    if (command == "kernel")
        return kernel_command(rest);
    throw UsageError("unknown command '" + command + "'; expected topology, run, compare, bench, list, validate or policy\n" + kUsage);
}

}  // namespace

int main(int argc, char** argv)
{
    try {
        return dispatch(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const wb::cli::UsageError& e) {
        std::cerr << "wakesim: " << e.what() << "\n";
        return 2;
    } catch (const wb::InputError& e) {
        std::cerr << "wakesim: " << e.what() << "\n";
        return 2;
    } catch (const wb::PolicyError& e) {
        std::cerr << "wakesim: the run stopped: " << e.what() << "\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "wakesim: internal error: " << e.what() << "\n";
        return 1;
    }
}

// SPDX-License-Identifier: Apache-2.0
//
// wakesim: the command-line front end. It parses words, calls the core and
// prints; every number the GUI shows can be reproduced from here.
// Exit status: 0 success, 2 bad usage or bad input, 1 internal failure.
#include <iostream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/bench_command.h"
#include "cli/compare_command.h"
#include "cli/list_command.h"
#include "cli/run_command.h"
#include "cli/topology_command.h"
#include "cli/validate_command.h"
#include "io/input_error.h"

namespace {

const char* const kUsage =
    "usage: wakesim COMMAND [ARGS]\n"
    "commands:\n"
    "  topology show MACHINE    the machine's tree and the sched domains the kernel builds for it\n"
    "  topology import ...      write a machine file from sysfs or `lscpu -p`\n"
    "  topology check MACHINE   load a machine and report problems\n"
    "  list topologies|workloads|policies|features   what can be named\n"
    "  bench                    simulated wakeups per second of this build\n"
    "  run --topology M --workload W   simulate a workload (wakesim run --help)\n"
    "  compare --topology M --workload W... --policies A,B --runs N   compare policies over seeds\n"
    "  validate [--case ID] [--quick]   the model against published measurements of real kernels\n"
    "Run `wakesim topology help` for the options.";

int dispatch(const std::vector<std::string>& args)
{
    using namespace wb::cli;
    if (args.empty())
        throw UsageError(std::string("expected a command\n") + kUsage);
    const std::string& command = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << kUsage << "\n";
        return 0;
    }
    if (command == "--version") {
        std::cout << "wakesim " << WB_VERSION << "\n";
        return 0;
    }
    if (command == "topology")
        return topology_command(rest);
    if (command == "run")
        return run_command(rest);
    if (command == "compare")
        return compare_command(rest);
    if (command == "bench")
        return bench_command(rest);
    if (command == "list")
        return list_command(rest);
    if (command == "validate")
        return validate_command(rest);
    throw UsageError("unknown command '" + command + "'; expected topology, run, compare, bench, list or validate\n" + kUsage);
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
    } catch (const std::exception& e) {
        std::cerr << "wakesim: internal error: " << e.what() << "\n";
        return 1;
    }
}

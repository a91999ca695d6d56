// SPDX-License-Identifier: Apache-2.0
#include "cli/bench_command.h"

#include <chrono>
#include <cstdio>
#include <iostream>

#include "cli/args.h"
#include "engine/simulator.h"
#include "io/topology_library.h"
#include "workload/workload_spec.h"

namespace wb::cli {

namespace {

struct BenchCase {
    const char* label;
    const char* machine;
    const char* workload;
    const char* quick;  // the same case, small enough for a smoke test
};

// The pipe pair of the published tables, and a thousand tasks waking each
// other (hackbench: 25 groups of 20 senders and 20 receivers, 4 KiB
// messages over pipes, so that full pipes make them block and wake).
constexpr BenchCase kCases[] = {
    {"pipe on ampere-altra-80", "ampere-altra-80", "pipe:loops=200000", "pipe:loops=2000"},
    {"1000 tasks on intel-spr-8480-2s", "intel-spr-8480-2s",
     "hackbench:groups=25,fds=20,loops=40,mode=pipe,datasize=4096",
     "hackbench:groups=25,fds=20,loops=1,mode=pipe,datasize=4096"},
};

}  // namespace

int bench_command(const std::vector<std::string>& argv)
{
    const std::vector<OptionSpec> specs{
        {"record", Value::None, "", "record every decision (to a sink that drops them)"},
        {"quick", Value::None, "", "small runs: checks that bench works, measures little"}};
    const Args args = parse_args(argv, specs, "bench");
    const bool record = args.has("record");
    const bool quick = args.has("quick");
    std::printf("%-34s %12s %12s %14s %14s\n", "case", "wakeups", "wall s", "wakeups/s", "events/s");
    for (const BenchCase& c : kCases) {
        const Machine machine = resolve_machine(c.machine);
        Simulator sim(machine, make_workload(quick ? c.quick : c.workload), {});
        std::size_t steps = 0;
        if (record)
            sim.set_record_sink([&](const DecisionRecord& r) { steps += r.steps.size(); });
        const auto start = std::chrono::steady_clock::now();
        sim.run();
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double wakeups = static_cast<double>(sim.metrics().wakeups);
        std::printf("%-34s %12.0f %12.3f %14.0f %14.0f\n", c.label, wakeups, wall, wakeups / wall,
                    static_cast<double>(sim.metrics().events) / wall);
    }
    return 0;
}

}  // namespace wb::cli

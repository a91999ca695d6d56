// SPDX-License-Identifier: Apache-2.0
#include "cli/bench_command.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>

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

// The pipe pair of the published tables, a thousand tasks waking each
// other (hackbench: 25 groups of 20 senders and 20 receivers, 4 KiB
// messages over pipes, so that full pipes make them block and wake), and
// the two big machines at one task or group per CPU, where sweeps spend
// their time (issue 17): stress-ng tee with one instance per CPU (three
// tasks each) on the 224-CPU Sapphire Rapids, and hackbench at 32 groups
// (1280 tasks, sockets) on the 256-CPU Granite Rapids.
constexpr BenchCase kCases[] = {
    {"pipe on ampere-altra-80", "ampere-altra-80", "pipe:loops=200000", "pipe:loops=2000"},
    {"1000 tasks on intel-spr-8480-2s", "intel-spr-8480-2s",
     "hackbench:groups=25,fds=20,loops=40,mode=pipe,datasize=4096",
     "hackbench:groups=25,fds=20,loops=1,mode=pipe,datasize=4096"},
    {"tee 1 per CPU on intel-spr-8480-2s", "intel-spr-8480-2s", "tee:timeout=10ms", "tee:timeout=1ms"},
    {"hackbench -g 32 on intel-gnr-6768p-2s", "intel-gnr-6768p-2s", "hackbench:groups=32,loops=20",
     "hackbench:groups=32,loops=1"},
};

struct Timing {
    double wall = 0;  // seconds
    double wakeups = 0;
    double events = 0;
};

Timing time_one_run(const Machine& machine, const char* workload, bool record)
{
    Simulator sim(machine, make_workload(workload), {});
    std::size_t steps = 0;
    if (record)
        sim.set_record_sink([&](const DecisionRecord& r) { steps += r.steps.size(); });
    const auto start = std::chrono::steady_clock::now();
    sim.run();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return {wall, static_cast<double>(sim.metrics().wakeups), static_cast<double>(sim.metrics().events)};
}

}  // namespace

int bench_command(const std::vector<std::string>& argv)
{
    const std::vector<OptionSpec> specs{
        {"record", Value::None, "", "record every decision (to a sink that drops them)"},
        {"quick", Value::None, "", "small runs: checks that bench works, measures little"},
        {"repeat", Value::Required, "N", "runs per case (default 5); the fastest is reported"},
        {"only", Value::Required, "TEXT", "only the cases whose name contains TEXT (one case for a profiler)"}};
    const Args args = parse_args(argv, specs, "bench");
    const bool record = args.has("record");
    const bool quick = args.has("quick");
    const auto repeat = static_cast<int>(parse_whole_number("bench", "repeat", args.get("repeat").value_or("5"), 1, 1000));
    const std::string only = args.get("only").value_or("");
    std::vector<const BenchCase*> cases;
    for (const BenchCase& c : kCases)
        if (std::string_view(c.label).find(only) != std::string_view::npos)
            cases.push_back(&c);
    if (cases.empty()) {
        std::string names;
        for (const BenchCase& c : kCases)
            names += std::string(names.empty() ? "" : ", ") + "'" + c.label + "'";
        throw UsageError("bench: --only '" + only + "' names no case; the cases are " + names);
    }
    // Which build is measured matters as much as the figure (docs/performance.md).
    if (repeat == 1)
        std::printf("build: %s; one run per case\n", WB_BUILD_KIND);
    else
        std::printf("build: %s; the fastest of %d runs per case\n", WB_BUILD_KIND, repeat);
    std::printf("%-38s %12s %12s %14s %14s\n", "case", "wakeups", "wall s", "wakeups/s", "events/s");
    for (const BenchCase* pc : cases) {
        const BenchCase& c = *pc;
        const Machine machine = resolve_machine(c.machine);
        // The fastest run is the one least disturbed by whatever else the
        // machine did meanwhile; the runs themselves are identical.
        Timing best;
        for (int i = 0; i < repeat; ++i) {
            const Timing t = time_one_run(machine, quick ? c.quick : c.workload, record);
            if (i == 0 || t.wall < best.wall)
                best = t;
        }
        std::printf("%-38s %12.0f %12.3f %14.0f %14.0f\n", c.label, best.wakeups, best.wall, best.wakeups / best.wall,
                    best.events / best.wall);
    }
    return 0;
}

}  // namespace wb::cli

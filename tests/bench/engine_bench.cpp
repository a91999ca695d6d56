// SPDX-License-Identifier: Apache-2.0
//
// How fast the engine simulates: events per second of wall time on the pipe
// workload, with decision recording off and on (recording off must cost
// nothing measurable; on, it builds a record per wakeup), and as the
// workbench window runs it: two policies side by side, every decision
// recorded.
#include <benchmark/benchmark.h>

#include "engine/simulator.h"
#include "io/topology_library.h"
#include "session/lockstep_run.h"
#include "workload/workload_spec.h"

namespace {

void pipe_run(benchmark::State& state, const char* machine, const char* workload, bool record)
{
    const wb::Machine m = wb::resolve_machine(machine);
    std::uint64_t events = 0;
    std::uint64_t wakeups = 0;
    for (auto _ : state) {
        wb::Simulator sim(m, wb::make_workload(workload), {});
        std::size_t steps = 0;
        if (record)
            sim.set_record_sink([&](const wb::DecisionRecord& r) { steps += r.steps.size(); });
        sim.run();
        events += sim.metrics().events;
        wakeups += sim.metrics().wakeups;
        benchmark::DoNotOptimize(steps);
    }
    state.counters["events/s"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
    state.counters["wakeups/s"] = benchmark::Counter(static_cast<double>(wakeups), benchmark::Counter::kIsRate);
}

// The window's worker drives a LockstepRun: its runs record every decision,
// compare them until the policies part, and keep the last ones for display.
void lockstep_run(benchmark::State& state, const char* machine, const char* workload)
{
    const wb::Machine m = wb::resolve_machine(machine);
    wb::RunRequest base;
    base.workload = workload;
    std::uint64_t wakeups = 0;
    for (auto _ : state) {
        wb::LockstepRun run(m, base, {"baseline", "sync-waker-v3"});
        run.run_until(wb::Time::max());
        for (int i = 0; i < run.size(); ++i)
            wakeups += run.sim(i).metrics().wakeups;
    }
    state.counters["wakeups/s"] = benchmark::Counter(static_cast<double>(wakeups), benchmark::Counter::kIsRate);
}

BENCHMARK_CAPTURE(pipe_run, altra_pipe_free, "ampere-altra-80", "pipe:loops=20000", false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(pipe_run, altra_pipe_free_recorded, "ampere-altra-80", "pipe:loops=20000", true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(lockstep_run, altra_pipe_side_by_side, "ampere-altra-80", "pipe:loops=20000")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(pipe_run, altra_pipe_pinned, "ampere-altra-80", "pipe:loops=20000,cpus=79", false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(pipe_run, gnr_pipe_free, "intel-gnr-6768p-2s", "pipe:loops=20000", false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(pipe_run, spr_1000_tasks, "intel-spr-8480-2s",
                  "hackbench:groups=25,fds=20,loops=4,mode=pipe,datasize=4096", false)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

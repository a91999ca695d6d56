// SPDX-License-Identifier: Apache-2.0
//
// How long building the sched domains takes: the GUI rebuilds them whenever
// the user picks another machine, so this must stay well under a frame for
// real machines and reasonable at the 4096-CPU limit.
#include <benchmark/benchmark.h>

#include "topology/sched_domains.h"
#include "topology/synthetic.h"

namespace {

void build_domains(benchmark::State& state, const char* spec)
{
    const wb::Machine machine = wb::parse_synthetic(spec);
    for (auto _ : state)
        benchmark::DoNotOptimize(wb::SchedDomains::build(machine));
    state.counters["cpus"] = machine.nr_cpus();
}

BENCHMARK_CAPTURE(build_domains, teaching_8, "llc=2,core=2,smt=2");
BENCHMARK_CAPTURE(build_domains, epyc_like_384, "node=2,llc=12,core=8,smt=2,numbering=thread-major");
BENCHMARK_CAPTURE(build_domains, four_nodes_1024, "node=4,llc=8,core=16,smt=2")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(build_domains, limit_4096, "node=8,llc=8,core=32,smt=2")->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

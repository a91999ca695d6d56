// SPDX-License-Identifier: Apache-2.0
//
// Waking an idle CPU, by the cases the kernel and the hardware tell apart:
// an idle state that polls needs no IPI (set_nr_if_polling()), a switch from
// the idle task costs less than one between two tasks, and a thread whose
// SMT sibling runs leaves its idle state at once (the core never slept).
// Each test runs a pipe pair two ways that differ in one thing and checks
// that the round trip moves by exactly what the cost model says.
#include <gtest/gtest.h>

#include <string>

#include "engine/simulator.h"
#include "workload/workload_spec.h"
#include "../workload/workload_test_util.h"

namespace wb {
namespace {

using test::teaching;

struct PipeRun {
    double us_per_op = 0;
    RunMetrics metrics;
};

PipeRun run_pipe(Machine m, const std::string& spec)
{
    Simulator sim(std::move(m), make_workload(spec), SimOptions{});
    EXPECT_TRUE(sim.run());
    return {sim.workload().headline(sim.elapsed()).value, sim.metrics()};
}

void set_cost(Machine& m, Cost c, double ns)
{
    m.costs.at(c).value = ns;
}

// teaching()'s CPUs 0 and 1 are the two threads of core 0; 2 is core 1.
constexpr const char* kTwoCores = "pipe:loops=2000,cpus=0,2";
constexpr const char* kSiblings = "pipe:loops=2000,cpus=0-1";

TEST(IdleWakeup, APollingIdleStateIsWokenWithoutAnIpi)
{
    Machine interrupt = teaching();
    Machine polling = teaching();
    for (IdleState& s : polling.idle_states)
        s.polls = true;
    set_cost(polling, Cost::wakeup_poll, 100);
    const PipeRun with_ipi = run_pipe(interrupt, kTwoCores);
    const PipeRun with_flag = run_pipe(polling, kTwoCores);
    EXPECT_GT(with_ipi.metrics.ipis, 3900u);
    EXPECT_EQ(with_flag.metrics.ipis, 0u);
    // Two wakeups a round trip, each 1000 ns of IPI replaced by 100 ns of
    // flag (the shorter idle periods shift a few events: within 5%).
    EXPECT_NEAR(with_ipi.us_per_op - with_flag.us_per_op, 2 * (1000.0 - 100.0) / 1000, 0.09);
    EXPECT_NEAR(with_ipi.metrics.wakeup_latency.percentile(0.5) - with_flag.metrics.wakeup_latency.percentile(0.5),
                900, 50);
}

TEST(IdleWakeup, TheSwitchFromIdleIsPaidOnEveryCrossCpuHandoff)
{
    // The woken task runs once the switch from the idle task is done, on
    // each side of the round trip; the blocking side's switch into idle
    // overlaps with its partner's wakeup.
    Machine cheap = teaching();
    Machine dear = teaching();
    set_cost(cheap, Cost::switch_from_idle, 500);
    set_cost(dear, Cost::switch_from_idle, 1500);
    const PipeRun a = run_pipe(cheap, kTwoCores);
    const PipeRun b = run_pipe(dear, kTwoCores);
    EXPECT_NEAR(b.us_per_op - a.us_per_op, 2 * 1000.0 / 1000, 0.01);
}

TEST(IdleWakeup, ASwitchBetweenTwoTasksPaysTheWholeContextSwitch)
{
    // Pinned to one CPU the pair never meets the idle task: neither the
    // switch from idle nor the FP/SIMD restore of one enters the figure.
    Machine a = teaching();
    Machine b = teaching();
    set_cost(b, Cost::switch_from_idle, 5000);
    set_cost(b, Cost::fpu_restore, 5000);
    // (Only the tasks' very first run, from an idle CPU, pays them: 10 us
    // over 2000 round trips.)
    EXPECT_NEAR(run_pipe(a, "pipe:loops=2000,cpus=3").us_per_op, run_pipe(b, "pipe:loops=2000,cpus=3").us_per_op,
                0.006);
}

TEST(IdleWakeup, ATaskWhoseRegistersAreStillLoadedRestoresNothing)
{
    // Each task of a pair on two cores is the only user task on its CPU, so
    // its FP/SIMD registers are still there when it wakes.
    Machine a = teaching();
    Machine b = teaching();
    set_cost(b, Cost::fpu_restore, 5000);
    // (Only each task's first run pays it: 5 us over 2000 round trips.)
    EXPECT_NEAR(run_pipe(a, kTwoCores).us_per_op, run_pipe(b, kTwoCores).us_per_op, 0.006);
}

TEST(IdleWakeup, ATaskWakingWhereAnotherTaskRanSinceRestoresItsRegisters)
{
    // Two tasks share CPU 3, each running 20 us and sleeping 50 us: the
    // CPU idles between rounds, and the task that wakes it finds the other
    // one's FP/SIMD state loaded, so it restores its own, once a round.
    const std::string spec = std::string("json:file=") + WB_TEST_DATA + "/workloads/two_sleepers_one_cpu.json";
    Machine a = teaching();
    Machine b = teaching();
    set_cost(b, Cost::fpu_restore, 5000);
    Simulator cheap(std::move(a), make_workload(spec), SimOptions{});
    Simulator dear(std::move(b), make_workload(spec), SimOptions{});
    ASSERT_TRUE(cheap.run());
    ASSERT_TRUE(dear.run());
    const double restores = static_cast<double>((dear.elapsed() - cheap.elapsed()).ns()) / 5000.0;
    EXPECT_GT(restores, 0.9 * 200) << restores;
    EXPECT_LE(restores, 200 + 2) << restores;  // at most once a round, and each first run
}

TEST(IdleWakeup, AThreadWhoseSiblingRunsLeavesIdleWithoutTheCoresExitLatency)
{
    // teaching()'s C1 takes 2 us to leave. Between two cores every wakeup
    // finds the target core asleep; between two siblings the waker is still
    // running on the core, which therefore never left C0. SMT contention is
    // switched off, and the pipe's int moves between cores as between
    // siblings, so that nothing else differs.
    Machine m = teaching();
    set_cost(m, Cost::smt_contention, 1.0);
    for (Cost c : {Cost::line_latency_cluster, Cost::line_latency_llc})
        set_cost(m, c, m.costs[Cost::line_latency_smt]);
    for (Cost c : {Cost::line_bandwidth_cluster, Cost::line_bandwidth_llc})
        set_cost(m, c, m.costs[Cost::line_bandwidth_smt]);
    const PipeRun cores = run_pipe(m, kTwoCores);
    const PipeRun siblings = run_pipe(m, kSiblings);
    EXPECT_NEAR(cores.us_per_op - siblings.us_per_op, 2 * 2000.0 / 1000, 0.25);
    EXPECT_GT(cores.metrics.wakeup_latency.percentile(0.5), siblings.metrics.wakeup_latency.percentile(0.5) + 1900);
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "workload/gemm.h"

#include <gtest/gtest.h>

#include "engine/simulator.h"
#include "io/input_error.h"
#include "topology/sd_flags.h"
#include "topology/synthetic.h"
#include "workload/workload_spec.h"

#include "workload_test_util.h"

namespace wb {
namespace {

using test::error_of;

// 4 cores of 2 threads, 3 GHz: a thread does 48 GFLOP/s alone on its core.
Machine small_machine()
{
    Machine m = parse_synthetic("llc=2,core=2,smt=2");
    m.costs.at(Cost::clock_rate).value = 3.0;
    m.costs.at(Cost::smt_contention).value = 0.6;
    m.idle_states = {{"C1", 2000, 4000}};
    return m;
}

// 4.8 Mflop blocks: 100 us each at 48 flops/ns.
constexpr const char* kSmall = "gemm:threads=4,blocks=20,block_flops=4800000";

// The workload behind a finished run, for its barrier counters.
const GemmWorkload& gemm_of(const Simulator& sim)
{
    return dynamic_cast<const GemmWorkload&>(sim.workload());
}

TEST(Gemm, ShortWaitsSpinSoTheOnlyPlacementsAreTheForks)
{
    // libgomp by default spins 300000 polls (~3 ms) and the waits here are
    // microseconds: nobody sleeps, so nothing is woken.
    std::vector<DecisionRecord> records;
    Simulator sim(small_machine(), make_workload(kSmall), {});
    sim.set_record_sink([&](const DecisionRecord& r) { records.push_back(r); });
    ASSERT_TRUE(sim.run());
    ASSERT_EQ(records.size(), 4u);
    for (const DecisionRecord& r : records)
        EXPECT_NE(r.wake_flags & WF_FORK, 0u);
    EXPECT_EQ(sim.metrics().wakeups, 0u);
    EXPECT_EQ(gemm_of(sim).futex_waits(), 0u);
    EXPECT_EQ(gemm_of(sim).sched_yields(), 0u);  // do_spin() never yields
}

TEST(Gemm, PassiveWaitPolicySleepsAtEveryBarrierAndTheLastArriverWakesAll)
{
    for (const char* runtime : {"libgomp", "libomp"}) {
        SCOPED_TRACE(runtime);
        Simulator sim(small_machine(), make_workload(std::string(kSmall) + ",wait_policy=passive,runtime=" + runtime),
                      {});
        ASSERT_TRUE(sim.run());
        const GemmWorkload& g = gemm_of(sim);
        EXPECT_EQ(sim.workload().ops(), 80.0);
        EXPECT_EQ(g.barriers(), 20u);
        // Every thread but the last to arrive goes to sleep, give or take
        // one that arrives while a waiter is still in its futex_wait() call;
        // under libomp the last one waits for the master's release too.
        EXPECT_GE(g.futex_waits(), 3 * g.barriers() * 8 / 10);
        EXPECT_LE(g.futex_waits(), 4 * g.barriers());
        EXPECT_EQ(g.futex_wakes(), g.futex_waits());  // every sleeper is woken once
        EXPECT_EQ(sim.metrics().wakeups, g.futex_wakes());
    }
}

TEST(Gemm, ActiveWaitPolicyNeverSleepsHoweverLongTheWait)
{
    // 4 ms of imbalance: longer than libgomp's default 3 ms spin, but
    // active spins (practically) forever.
    for (const char* runtime : {"libgomp", "libomp"}) {
        SCOPED_TRACE(runtime);
        Simulator sim(small_machine(),
                      make_workload(std::string("gemm:threads=4,blocks=3,block_flops=4800000,imbalance=4ms,"
                                                "wait_policy=active,runtime=") +
                                    runtime),
                      {});
        ASSERT_TRUE(sim.run());
        EXPECT_EQ(gemm_of(sim).futex_waits(), 0u);
        EXPECT_EQ(sim.metrics().wakeups, 0u);
        // KMP_LIBRARY=turnaround and libgomp do not yield on a free machine.
        EXPECT_EQ(gemm_of(sim).sched_yields(), 0u);
    }
}

TEST(Gemm, LibgompSleepsOnceItsSpinCountIsSpent)
{
    // 300000 polls of 10 ns: 3 ms. A 4 ms imbalance outlasts it, 1 ms does not.
    Simulator longer(small_machine(), make_workload("gemm:threads=4,blocks=3,block_flops=4800000,imbalance=4ms"), {});
    ASSERT_TRUE(longer.run());
    EXPECT_EQ(gemm_of(longer).futex_waits(), 3 * gemm_of(longer).barriers());
    Simulator shorter(small_machine(), make_workload("gemm:threads=4,blocks=3,block_flops=4800000,imbalance=1ms"), {});
    ASSERT_TRUE(shorter.run());
    EXPECT_EQ(gemm_of(shorter).futex_waits(), 0u);
    // GOMP_SPINCOUNT shortens the spin below the imbalance.
    Simulator counted(small_machine(),
                      make_workload("gemm:threads=4,blocks=3,block_flops=4800000,imbalance=1ms,spincount=1000"), {});
    ASSERT_TRUE(counted.run());
    EXPECT_EQ(gemm_of(counted).futex_waits(), 3 * gemm_of(counted).barriers());
}

TEST(Gemm, LibompSpinsWithYieldsWithinTheBlocktimeAndSleepsBeyondIt)
{
    // The default 200 ms blocktime outlasts a 100 us imbalance: the waiters
    // spin and yield but never sleep.
    Simulator spin(small_machine(),
                   make_workload("gemm:threads=4,blocks=5,block_flops=4800000,imbalance=100us,runtime=libomp"), {});
    ASSERT_TRUE(spin.run());
    EXPECT_GT(gemm_of(spin).sched_yields(), 0u);
    EXPECT_EQ(gemm_of(spin).futex_waits(), 0u);
    EXPECT_EQ(spin.metrics().wakeups, 0u);
    // An imbalance longer than the blocktime puts every waiter to sleep.
    Simulator sleep(small_machine(),
                    make_workload("gemm:threads=4,blocks=5,block_flops=4800000,imbalance=2ms,"
                                  "runtime=libomp,blocktime=1ms"),
                    {});
    ASSERT_TRUE(sleep.run());
    EXPECT_EQ(gemm_of(sleep).futex_waits(), 3 * gemm_of(sleep).barriers());
    EXPECT_EQ(sleep.metrics().wakeups, gemm_of(sleep).futex_wakes());
}

TEST(Gemm, LibompYieldsAfter512PollsThenEvery256)
{
    // One waiter, one barrier per block, waiting about the imbalance each
    // time: its polls follow from spin_iter, and its yields from the
    // KMP_YIELD_OVERSUB_ELSE_SPIN countdown (1024 then 512, less 2 a poll).
    const Time imbalance = Time::us(200);
    Simulator sim(small_machine(),
                  make_workload("gemm:threads=2,blocks=10,block_flops=4800000,imbalance=200us,"
                                "runtime=libomp"),
                  {});
    ASSERT_TRUE(sim.run());
    const double polls = static_cast<double>(imbalance.ns()) / 10.0;
    const double per_wait = 1 + (polls - 512) / 256;
    const double yields =
        static_cast<double>(gemm_of(sim).sched_yields()) / static_cast<double>(gemm_of(sim).barriers());
    // The yields' own system calls take some of the wait from the polls.
    EXPECT_LE(yields, per_wait + 1);
    EXPECT_GE(yields, 0.8 * per_wait);
}

TEST(Gemm, LibompOversubscribedYieldsEveryPoll)
{
    // 16 threads on 8 CPUs: KMP_TRY_YIELD_OVERSUB, a sched_yield() per poll,
    // so far more yields than the countdown's one per 256 polls would give.
    Simulator sim(small_machine(), make_workload("gemm:threads=16,blocks=5,block_flops=4800000,runtime=libomp"), {});
    ASSERT_TRUE(sim.run());
    EXPECT_EQ(sim.workload().ops(), 80.0);
    EXPECT_GT(gemm_of(sim).sched_yields(), 16u * 5u);
}

TEST(Gemm, OneThreadPerCoreRunsAtTheFlopRateTimesTheClock)
{
    Simulator sim(small_machine(), make_workload(kSmall), {});
    ASSERT_TRUE(sim.run());
    EXPECT_EQ(sim.workload().ops(), 80.0);  // blocks computed
    const Headline h = sim.workload().headline(sim.elapsed());
    EXPECT_EQ(h.name, "GFLOP/s");
    EXPECT_FALSE(h.lower_is_better);
    // 4 x 48 GFLOP/s, less fork placement, barrier skew and idle exits.
    EXPECT_GT(h.value, 0.9 * 192);
    EXPECT_LE(h.value, 192.0);
}

TEST(Gemm, MoreThreadsThanCpusSpinBrieflyThenSleep)
{
    // 16 threads on 8 CPUs, every CPU shared with its SMT sibling busy: at
    // most 8 x 48 x 0.6 GFLOP/s, and libgomp throttles its spin to 100
    // polls, so the waiters sleep and are woken.
    Simulator sim(small_machine(), make_workload("gemm:threads=16,blocks=5,block_flops=4800000"), {});
    ASSERT_TRUE(sim.run());
    EXPECT_EQ(sim.workload().ops(), 80.0);
    EXPECT_LE(sim.workload().headline(sim.elapsed()).value, 8 * 48 * 0.6);
    EXPECT_GT(gemm_of(sim).futex_waits(), 0u);
    EXPECT_EQ(sim.metrics().wakeups, gemm_of(sim).futex_wakes());
}

TEST(Gemm, ReportsGflopsYieldsAndSleeps)
{
    Simulator sim(small_machine(), make_workload("gemm:threads=2,blocks=3,block_flops=4800000,barrier=3"), {});
    ASSERT_TRUE(sim.run());
    const std::string out = sim.workload().report(sim.elapsed());
    EXPECT_EQ(out.rfind("gemm: 2 threads, 3 blocks: ", 0), 0u) << out;
    EXPECT_NE(out.find(" GFLOP/s\n"), std::string::npos) << out;
    EXPECT_NE(out.find("sched_yield calls: "), std::string::npos) << out;
    EXPECT_NE(out.find("futex waits (sleeps): "), std::string::npos) << out;
}

TEST(Gemm, BadParametersNameTheParameterAndWhatWasExpected)
{
    EXPECT_NE(error_of("gemm:size=4").find("unknown parameter 'size' of gemm; expected threads, blocks"),
              std::string::npos);
    EXPECT_NE(error_of("gemm:blocks=0").find("blocks=0: expected a whole number from 1"), std::string::npos);
    EXPECT_NE(error_of("gemm:flop_rate=x").find("flop_rate=x: expected a number"), std::string::npos);
    EXPECT_NE(error_of("gemm:runtime=tbb").find("runtime"), std::string::npos);
    EXPECT_NE(error_of("gemm:wait_policy=idle").find("wait_policy"), std::string::npos);
    EXPECT_NE(error_of("gemm:spin_iter=0ns").find("spin_iter=0ns: expected a duration above 0"), std::string::npos);
}

}  // namespace
}  // namespace wb

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

TEST(Gemm, ThreadsNeverSleepSoTheOnlyPlacementsAreTheForks)
{
    std::vector<DecisionRecord> records;
    Simulator sim(small_machine(), make_workload(kSmall), {});
    sim.set_record_sink([&](const DecisionRecord& r) { records.push_back(r); });
    ASSERT_TRUE(sim.run());
    ASSERT_EQ(records.size(), 4u);
    for (const DecisionRecord& r : records)
        EXPECT_NE(r.wake_flags & WF_FORK, 0u);
    EXPECT_EQ(sim.metrics().wakeups, 0u);
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

TEST(Gemm, MoreThreadsThanCpusShareCpusThroughYield)
{
    // 16 threads on 8 CPUs, every CPU shared with its SMT sibling busy: at
    // most 8 x 48 x 0.6 GFLOP/s, and the spinners give way with sched_yield.
    Simulator sim(small_machine(), make_workload("gemm:threads=16,blocks=5,block_flops=4800000"), {});
    ASSERT_TRUE(sim.run());
    EXPECT_EQ(sim.workload().ops(), 80.0);
    EXPECT_LE(sim.workload().headline(sim.elapsed()).value, 8 * 48 * 0.6);
    EXPECT_GT(sim.metrics().involuntary_switches, 0u);
}

TEST(Gemm, ReportsAOneLineSummary)
{
    Simulator sim(small_machine(), make_workload("gemm:threads=2,blocks=3,block_flops=4800000,barrier=3"), {});
    ASSERT_TRUE(sim.run());
    const std::string out = sim.workload().report(sim.elapsed());
    EXPECT_EQ(out.rfind("gemm: 2 threads, 3 blocks: ", 0), 0u) << out;
    EXPECT_NE(out.find(" GFLOP/s\n"), std::string::npos) << out;
}

TEST(Gemm, BadParametersNameTheParameterAndWhatWasExpected)
{
    EXPECT_NE(error_of("gemm:size=4").find("unknown parameter 'size' of gemm; expected threads, blocks"),
              std::string::npos);
    EXPECT_NE(error_of("gemm:blocks=0").find("blocks=0: expected a whole number from 1"), std::string::npos);
    EXPECT_NE(error_of("gemm:flop_rate=x").find("flop_rate=x: expected a number"), std::string::npos);
}

}  // namespace
}  // namespace wb

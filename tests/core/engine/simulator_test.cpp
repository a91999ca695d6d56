// SPDX-License-Identifier: Apache-2.0
//
// The engine end to end on the pipe workload: the cost model's arithmetic,
// the wakeup mechanics (wake lists, IPIs, idle exits) and determinism.
#include "engine/simulator.h"

#include <gtest/gtest.h>

#include "io/input_error.h"
#include "io/results_json.h"
#include "topology/synthetic.h"
#include "workload/pipe.h"
#include "workload/workload_spec.h"

#include "../workload/workload_test_util.h"

namespace wb {
namespace {

using test::teaching;

struct RunOutcome {
    std::string json;
    std::vector<std::string> records;
    RunMetrics metrics;
    Time elapsed;
    double us_per_op = 0;
};

RunOutcome simulate(Machine m, const std::string& workload, std::uint64_t seed = 1, bool record = false)
{
    SimOptions opt;
    opt.seed = seed;
    Simulator sim(std::move(m), make_workload(workload), opt);
    RunOutcome out;
    if (record)
        sim.set_record_sink([&](const DecisionRecord& r) { out.records.push_back(decision_record_to_json(r)); });
    EXPECT_TRUE(sim.run());
    out.metrics = sim.metrics();
    out.elapsed = sim.elapsed();
    out.us_per_op = sim.workload().headline(sim.elapsed()).value;
    out.json = run_result_to_json({"teaching", workload, "baseline", "", seed}, sim.finished(), sim.elapsed(),
                                  sim.workload().ops(), sim.workload().headline(sim.elapsed()), sim.metrics());
    return out;
}

TEST(Simulator, PinnedPipeCostsExactlyWhatTheCostModelSays)
{
    // Both tasks on CPU 3: no placement, no IPI, no idle. Each side per round
    // trip: write (syscall + copy), the wakeup, the read's syscall, the
    // switch away (into the other process's address space), and the read's
    // copy once woken. CPU 3 starts in C6 (50 us to leave, once), a few ns
    // per round trip.
    const RunOutcome r = simulate(teaching(), "pipe:loops=20000,cpus=3");
    ASSERT_EQ(r.metrics.involuntary_switches, 0u);
    const double per_side = 100 + 400 + 600 + 100 + 1500 + 200 + 400;
    EXPECT_NEAR(r.us_per_op, 2 * per_side / 1000, 0.005);
    EXPECT_EQ(r.metrics.ipis, 0u);
    // Every wakeup and both forks: one allowed CPU, so no selection at all.
    EXPECT_EQ(r.metrics.wakeups_by_path[static_cast<std::size_t>(WakePath::NotSelected)], r.metrics.wakeups + 2);
    EXPECT_EQ(r.metrics.placement_from_waker[static_cast<std::size_t>(DistanceClass::SameCpu)], r.metrics.wakeups + 2);
}

TEST(Simulator, PipeThreadsShareAnAddressSpace)
{
    // perf's -T: two threads of one process switch without changing address space.
    const RunOutcome r = simulate(teaching(), "pipe:loops=20000,cpus=3,threads=1");
    const double per_side = 100 + 400 + 600 + 100 + 1500 + 400;
    EXPECT_NEAR(r.us_per_op, 2 * per_side / 1000, 0.005);
}

TEST(Simulator, PipeAcrossTwoCpusPaysTheIpiAndTheShallowIdleExit)
{
    // Free to use all CPUs, the pair settles on two SMT siblings (the
    // wakee's prev is idle and shares the LLC): every wakeup goes through the
    // target's wake list, and the idle target wakes from C1 (its predicted
    // idle is short).
    const RunOutcome r = simulate(teaching(), "pipe:loops=2000");
    EXPECT_GT(r.metrics.ipis, 3900u);
    // The waker's ttwu work, the IPI's flight, the C1 exit.
    EXPECT_GE(r.metrics.wakeup_latency.percentile(0.5), 600 + 1000 + 2000);
    EXPECT_LT(r.metrics.wakeup_latency.percentile(0.5), 600 + 1000 + 2000 + 100);
    EXPECT_GT(r.metrics.wakeups_by_path[static_cast<std::size_t>(WakePath::PrevIdle)], 3900u);
    // Only a fork may land on its parent's CPU; no wakeup stacks the pair.
    EXPECT_LE(r.metrics.placement_from_waker[static_cast<std::size_t>(DistanceClass::SameCpu)], 2u);
}

TEST(Simulator, SameSeedSameResultsAndRecords)
{
    const RunOutcome a = simulate(teaching(), "pipe:loops=500", 7, true);
    const RunOutcome b = simulate(teaching(), "pipe:loops=500", 7, true);
    EXPECT_EQ(a.json, b.json);
    EXPECT_EQ(a.records, b.records);
    EXPECT_EQ(a.records.size(), a.metrics.wakeups + 2);  // + the two forks
}

TEST(Simulator, DifferentSeedsGiveDifferentRuns)
{
    // The seed places each CPU's tick; a run crosses ticks at other moments.
    const RunOutcome a = simulate(teaching(), "pipe:loops=3000", 1);
    const RunOutcome b = simulate(teaching(), "pipe:loops=3000", 2);
    EXPECT_NE(a.json, b.json);
}

TEST(Simulator, InvariantCheckerFindsABrokenCount)
{
    SimOptions opt;
    opt.check = true;
    Simulator sim(teaching(), make_workload("pipe:loops=100"), opt);
    ASSERT_TRUE(sim.run());
    std::string why;
    EXPECT_TRUE(sim.check_invariants(&why)) << why;
    const_cast<SchedState&>(sim.state()).rq(0).ttwu_pending = 5;
    EXPECT_FALSE(sim.check_invariants(&why));
    EXPECT_EQ(why, "CPU 0 counts 5 pending wakeups but 0 tasks wait on its wake list");
}

TEST(Simulator, RecordsSayWhereEachWakeupWentAndWhy)
{
    const RunOutcome r = simulate(teaching(), "pipe:loops=50", 1, true);
    ASSERT_GT(r.records.size(), 10u);
    // The first two are the forks' slow-path placements.
    EXPECT_NE(r.records[0].find("\"path\":\"slow_path\""), std::string::npos);
    EXPECT_NE(r.records[5].find("\"function\":\"select_idle_sibling\""), std::string::npos);
    EXPECT_NE(r.records[5].find("\"WF_SYNC\""), std::string::npos);
}

TEST(Simulator, RecordingDoesNotChangeTheRun)
{
    const RunOutcome quiet = simulate(teaching(), "pipe:loops=300", 3, false);
    const RunOutcome loud = simulate(teaching(), "pipe:loops=300", 3, true);
    EXPECT_EQ(quiet.json, loud.json);
}

TEST(Simulator, TheTimeLimitStopsARunThatWouldNotFinish)
{
    SimOptions opt;
    opt.time_limit = Time::ms(1);
    Simulator sim(teaching(), make_workload("pipe:loops=1000000000"), opt);
    EXPECT_FALSE(sim.run());
    EXPECT_FALSE(sim.finished());
    EXPECT_EQ(sim.elapsed(), Time::ms(1));
    EXPECT_LE(sim.state().now, Time::ms(1));
}

TEST(Simulator, BadWorkloadSpecsAreReported)
{
    try {
        make_workload("pipe:x");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("expected name=value, found 'x'"), std::string::npos);
    }
    try {
        make_workload("pipe:loops=5,x");  // a stray item joins the value before it
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("loops=5,x: expected a whole number"), std::string::npos);
    }
    EXPECT_THROW(make_workload("pipe:loop=5"), InputError);
    EXPECT_THROW(make_workload("pipes"), InputError);
    try {
        make_workload("pipe:loops=0");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("loops=0: expected a whole number from 1"), std::string::npos);
    }
}

}  // namespace
}  // namespace wb

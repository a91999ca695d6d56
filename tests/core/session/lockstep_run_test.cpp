// SPDX-License-Identifier: Apache-2.0
#include "session/lockstep_run.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "engine/simulator.h"
#include "io/input_error.h"
#include "io/topology_library.h"

namespace wb {
namespace {

RunRequest pipe_request(const std::string& workload)
{
    RunRequest r;
    r.workload = workload;
    r.seed = 1;
    return r;
}

const Machine& altra()
{
    static const Machine m = resolve_machine("ampere-altra-80");
    return m;
}

TEST(LockstepRun, StepHandsOutExactlyOneRecordPerPolicy)
{
    LockstepRun run(altra(), pipe_request("pipe:loops=50"), {"baseline", "sync-waker-v3", "baseline"});
    ASSERT_EQ(run.size(), 3);
    for (std::uint64_t k = 0; k < 10; ++k) {
        const LockstepStep step = run.step_wakeup();
        ASSERT_EQ(step.records.size(), 3u);
        for (const auto& rec : step.records) {
            ASSERT_TRUE(rec.has_value());
            EXPECT_EQ(rec->seq, k);
        }
    }
}

TEST(LockstepRun, IdenticalPoliciesNeverDiverge)
{
    LockstepRun run(altra(), pipe_request("pipe:loops=2000"), {"baseline", "baseline"});
    EXPECT_FALSE(run.next_divergence(500).has_value());
    run.run_until(Time::ms(5));
    EXPECT_FALSE(run.first_divergence().has_value());
    EXPECT_EQ(run.snapshot(0).decisions, run.snapshot(1).decisions);
    EXPECT_EQ(run.snapshot(0).events, run.snapshot(1).events);
}

// The patch's first own step decides a wakeup differently from mainline;
// until then both runs are the same run.
TEST(LockstepRun, BaselineAndSyncWakerV3DivergeAtAKnownWakeup)
{
    LockstepRun stepped(altra(), pipe_request("pipe:loops=2000"), {"baseline", "sync-waker-v3"});
    const std::optional<Divergence> d = stepped.next_divergence(100000);
    ASSERT_TRUE(d.has_value());
    ASSERT_EQ(d->records.size(), 2u);
    const DecisionRecord& base = d->records[0];
    const DecisionRecord& v3 = d->records[1];
    // Wakeups 0-2 are the two forks and the first pipe write; at the
    // second write mainline takes idle prev (CPU 2), the patch keeps the
    // sync wakee on the waker's CPU 3.
    EXPECT_EQ(d->wakeup, 3u);
    EXPECT_EQ(base.waker_cpu, 3);
    EXPECT_EQ(base.prev_cpu, 2);
    EXPECT_EQ(base.chosen, 2);
    EXPECT_EQ(base.path, WakePath::PrevIdle);
    EXPECT_EQ(v3.chosen, 3);
    EXPECT_EQ(v3.path, WakePath::Policy);
    ASSERT_FALSE(v3.steps.empty());
    EXPECT_EQ(v3.steps.back().function, "sync-waker-v3");
    EXPECT_EQ(v3.steps.back().result, 3);
    EXPECT_EQ(base.seq, v3.seq);
    EXPECT_TRUE(base.chosen != v3.chosen || base.path != v3.path);
    ASSERT_TRUE(stepped.first_divergence().has_value());
    EXPECT_EQ(stepped.first_divergence()->wakeup, d->wakeup);

    // Running finds the same wakeup on the way.
    LockstepRun running(altra(), pipe_request("pipe:loops=2000"), {"baseline", "sync-waker-v3"});
    running.run_until(Time::ms(50));
    ASSERT_TRUE(running.first_divergence().has_value());
    EXPECT_EQ(running.first_divergence()->wakeup, d->wakeup);
    EXPECT_EQ(running.first_divergence()->records[1].chosen, v3.chosen);

    // And so does running in many short pieces, as the GUI's worker does.
    LockstepRun pieces(altra(), pipe_request("pipe:loops=2000"), {"baseline", "sync-waker-v3"});
    for (Time t = Time::us(7); t < Time::ms(5); t += Time::us(7))
        pieces.run_until(t);
    ASSERT_TRUE(pieces.first_divergence().has_value());
    EXPECT_EQ(pieces.first_divergence()->wakeup, d->wakeup);
}

TEST(LockstepRun, FiguresEqualRunOne)
{
    LockstepRun run(altra(), pipe_request("pipe:loops=3000"), {"baseline", "sync-waker-v3"});
    // Stepping a while first must not change where the runs end.
    for (int i = 0; i < 25; ++i)
        run.step_wakeup();
    run.run_until(Time::ms(1));
    while (run.run_until(run.now() + Time::ms(3))) {
    }
    ASSERT_TRUE(run.finished());
    for (int i = 0; i < run.size(); ++i) {
        const RunOutcome alone = run_one(altra(), run.request(i));
        const RunSnapshot snap = run.snapshot(i);
        EXPECT_TRUE(snap.finished);
        EXPECT_EQ(snap.headline.value, alone.headline.value) << run.request(i).policy;
        EXPECT_EQ(snap.metrics.events, alone.metrics.events);
        EXPECT_EQ(snap.metrics.wakeups, alone.metrics.wakeups);
        EXPECT_EQ(outcome_of(run.sim(i)).elapsed, alone.elapsed);
    }
}

TEST(LockstepRun, RejectsBadCountsAndSpecs)
{
    EXPECT_THROW(LockstepRun(altra(), pipe_request("pipe:loops=5"), {}), std::invalid_argument);
    EXPECT_THROW(LockstepRun(altra(), pipe_request("pipe:loops=5"),
                             {"baseline", "baseline", "baseline", "baseline", "baseline"}),
                 std::invalid_argument);
    EXPECT_THROW(LockstepRun(altra(), pipe_request("pipe:loops=5"), {"no-such-policy"}), InputError);
    EXPECT_THROW(LockstepRun(altra(), pipe_request("pipe:nope=1"), {"baseline"}), InputError);
}

TEST(LockstepRun, BreakConditionMarksTheRecordItSaw)
{
    LockstepRun run(altra(), pipe_request("pipe:loops=50"), {"baseline"});
    run.set_break_condition([](int, const DecisionRecord& rec, const SchedState&) { return rec.seq == 4; });
    for (std::uint64_t k = 0; k < 8; ++k) {
        const LockstepStep step = run.step_wakeup();
        ASSERT_TRUE(step.records[0].has_value());
        EXPECT_EQ(step.hits[0], k == 4) << k;
    }
}

}  // namespace
}  // namespace wb

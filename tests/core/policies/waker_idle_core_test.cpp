// SPDX-License-Identifier: Apache-2.0
#include "policies/waker_idle_core.h"

#include <gtest/gtest.h>

#include "sched/fair_util.h"

#include "policy_world.h"

namespace wb::test {
namespace {

constexpr unsigned int kSyncWakeup = WF_TTWU | WF_SYNC;

// SMT-2, LLC {0-7}: the sync waker runs alone on 0 (sibling 1 idle); cores
// {2,3} and {4,5} each have a busy thread; core {6,7} is wholly idle; the
// idle-cores hint is set. p's prev 2 is busy.
struct CoreWorld {
    World w{"llc=2,core=4,smt=2"};
    Pair pair;
    CoreWorld()
    {
        pair = reciprocal_pair(w, 0, 2);
        w.run_on(2);
        w.run_on(4);
        w.set_idle_cores_hint(0, true);
    }

    // select_idle_cpu() over LLC 0 in idle-core mode from `target`, as the
    // policy `spec` changes it.
    CpuId scan(std::string_view spec, CpuId target, bool sync, DecisionRecord* rec = nullptr)
    {
        const std::unique_ptr<PlacementPolicy> policy = make_policy(spec);
        SchedState copy = w.s;
        copy.policy = policy.get();
        WakeupArgs args{w.waker_on(0), pair.wakee, 2, sync};
        return select_idle_cpu(copy, pair.wakee, w.llc(0), true, target, rec, &args);
    }
};

TEST(WakerIdleCore, TheWakersCoreCountsAsIdle)
{
    CoreWorld x;
    DecisionRecord base;
    EXPECT_EQ(x.w.wake_under("baseline", 0, x.pair.wakee, kSyncWakeup, &base), 6);
    EXPECT_EQ(base.path, WakePath::LlcScan);

    DecisionRecord rec;
    WakePath path = WakePath::Count;
    EXPECT_EQ(x.w.wake_under("waker-idle-core", 0, x.pair.wakee, kSyncWakeup, &rec, &path), 1);
    EXPECT_EQ(path, WakePath::Policy);
    const std::vector<DecisionStep> steps = policy_steps(rec);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].function, "waker-idle-core");
    EXPECT_EQ(steps[0].branch, "waker's core idle but for the waker");
    EXPECT_EQ(steps[0].result, 1);
}

TEST(WakerIdleCore, NeverOnTheWakerCpuItself)
{
    // From target 7 the scan wraps to 0 and reaches the waker's own CPU
    // first: the wakee goes to its idle sibling 1.
    CoreWorld x;
    EXPECT_EQ(x.scan("baseline", 7, true), 6);
    DecisionRecord rec;
    EXPECT_EQ(x.scan("waker-idle-core", 7, true, &rec), 1);
    EXPECT_EQ(policy_steps(rec).at(0).result, 1);
}

TEST(WakerIdleCore, OnlyTheIdleCoreScanChanges)
{
    // Hint clear: no idle-core scan; mainline's SMT-sibling step picks 3.
    CoreWorld x;
    x.w.set_idle_cores_hint(0, false);
    DecisionRecord rec;
    EXPECT_EQ(x.w.wake_under("baseline", 0, x.pair.wakee, kSyncWakeup), 3);
    EXPECT_EQ(x.w.wake_under("waker-idle-core", 0, x.pair.wakee, kSyncWakeup, &rec), 3);
    EXPECT_TRUE(policy_steps(rec).empty());

    // A busy sibling on the waker's core: the core does not qualify.
    CoreWorld y;
    y.w.run_on(1);
    EXPECT_EQ(y.scan("waker-idle-core", 7, true), y.scan("baseline", 7, true));
}

TEST(WakerIdleCore, SyncSwitch)
{
    CoreWorld x;
    EXPECT_EQ(x.scan("waker-idle-core", 7, false), 6);
    EXPECT_EQ(x.scan("waker-idle-core:sync=off", 7, false), 1);
}

TEST(WakerIdleCore, WakerAloneSwitch)
{
    CoreWorld x;
    x.w.queue_on(0);
    EXPECT_EQ(x.scan("waker-idle-core", 7, true), 6);
    EXPECT_EQ(x.scan("waker-idle-core:waker_alone=off", 7, true), 1);
}

TEST(WakerIdleCore, OneDeclineStandsForEveryCoreOfTheScan)
{
    // Not sync: the hook is asked at each busy core ({0,1}, {2,3}, {4,5})
    // and gives the same answer each time: one step.
    CoreWorld x;
    DecisionRecord rec;
    EXPECT_EQ(x.scan("waker-idle-core", 7, false, &rec), 6);
    EXPECT_GE(rec.scanned.size(), 6u);
    std::vector<DecisionStep> declined = declined_steps(rec);
    ASSERT_EQ(declined.size(), 1u);
    EXPECT_EQ(declined[0].function, "waker-idle-core");
    EXPECT_EQ(declined[0].branch, "not taken");
    EXPECT_EQ(declined[0].detail, "not WF_SYNC");

    // Sync, from target 1: cores {2,3} and {4,5} are not the waker's.
    DecisionRecord rec2;
    EXPECT_EQ(x.scan("waker-idle-core", 1, true, &rec2), 6);
    declined = declined_steps(rec2);
    ASSERT_EQ(declined.size(), 1u);
    EXPECT_EQ(declined[0].detail, "the scanned core does not hold the waker cpu 0");
}

TEST(WakerIdleCore, ABusySiblingOfTheWakerIsNamed)
{
    CoreWorld x;
    x.w.run_on(1);
    DecisionRecord rec;
    EXPECT_EQ(x.scan("waker-idle-core", 7, true, &rec), x.scan("baseline", 7, true));
    const std::vector<DecisionStep> declined = declined_steps(rec);
    ASSERT_EQ(declined.size(), 2u);
    EXPECT_EQ(declined[0].detail, "the waker's sibling " + idle_text(x.w.s, 1));
    EXPECT_EQ(declined[1].detail, "the scanned core does not hold the waker cpu 0");
}

}  // namespace
}  // namespace wb::test

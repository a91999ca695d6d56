// SPDX-License-Identifier: Apache-2.0
#include "policies/sync_waker_v4.h"

#include <gtest/gtest.h>

#include "policy_world.h"

namespace wb::test {
namespace {

constexpr unsigned int kSyncWakeup = WF_TTWU | WF_SYNC;

// NO_WA_IDLE, so wake_affine_weight() decides: the waker's CPU carries
// `waker_load`, prev (1) carries `prev_load`, the wakee 100.
void weigh(World& w, const Pair& pair, unsigned long waker_load, unsigned long prev_load)
{
    w.s.feats.set(Feat::WA_IDLE, false);
    w.s.rq(0).cfs.avg.load_avg = waker_load;
    w.s.rq(1).cfs.avg.load_avg = prev_load;
    w.s.task(pair.wakee).se.avg.load_avg = 100;
}

TEST(SyncWakerV4, WakeAffineChoseTheWakerCpu)
{
    World w("llc=2,core=4");
    const Pair pair = reciprocal_pair(w, 0, 1);
    EXPECT_EQ(w.wake_under("baseline", 0, pair.wakee, kSyncWakeup), 1);

    DecisionRecord rec;
    WakePath path = WakePath::Count;
    EXPECT_EQ(w.wake_under("sync-waker-v4", 0, pair.wakee, kSyncWakeup, &rec, &path), 0);
    EXPECT_EQ(path, WakePath::Policy);
    EXPECT_EQ(rec.target, 0);
    // wake_affine() ran and chose the waker; v4's step follows it, and
    // select_idle_sibling() never ran.
    ASSERT_GE(rec.steps.size(), 2u);
    EXPECT_EQ(rec.steps[rec.steps.size() - 2].function, "wake_affine");
    const DecisionStep& last = rec.steps.back();
    EXPECT_EQ(last.function, "sync-waker-v4");
    EXPECT_EQ(last.branch, "wake_affine chose the waker cpu");
    EXPECT_EQ(last.result, 0);
    EXPECT_FALSE(has_step(rec, "select_idle_sibling"));
}

TEST(SyncWakerV4, WakeAffineChosePrevIsLeftAlone)
{
    World w("llc=2,core=4");
    const Pair pair = reciprocal_pair(w, 0, 1);
    weigh(w, pair, 2000, 0);  // prev is much lighter: wake_affine keeps prev
    DecisionRecord base;
    EXPECT_EQ(w.wake_under("baseline", 0, pair.wakee, kSyncWakeup, &base), 1);
    EXPECT_EQ(base.target, 1);

    DecisionRecord rec;
    EXPECT_EQ(w.wake_under("sync-waker-v4", 0, pair.wakee, kSyncWakeup, &rec), 1);
    EXPECT_TRUE(policy_steps(rec).empty());
    // v3 overrides wake_affine() here; that is what v4 narrows.
    EXPECT_EQ(w.wake_under("sync-waker-v3", 0, pair.wakee, kSyncWakeup), 0);
    EXPECT_EQ(w.wake_under("sync-waker-v4:target_check=off", 0, pair.wakee, kSyncWakeup), 0);
}

TEST(SyncWakerV4, SyncSwitch)
{
    World w("llc=2,core=4");
    const Pair pair = reciprocal_pair(w, 0, 1);
    weigh(w, pair, 100, 1000);  // wake_affine pulls to the waker without sync too
    EXPECT_EQ(w.wake_under("baseline", 0, pair.wakee, WF_TTWU), 1);
    EXPECT_EQ(w.wake_under("sync-waker-v4", 0, pair.wakee, WF_TTWU), 1);
    EXPECT_EQ(w.wake_under("sync-waker-v4:sync=off", 0, pair.wakee, WF_TTWU), 0);
}

TEST(SyncWakerV4, SmtCheckSwitch)
{
    World w("llc=2,core=4,smt=2");
    const Pair pair = reciprocal_pair(w, 0, 2);
    EXPECT_EQ(w.wake_under("baseline", 0, pair.wakee, kSyncWakeup), 2);
    EXPECT_EQ(w.wake_under("sync-waker-v4", 0, pair.wakee, kSyncWakeup), 2);
    EXPECT_EQ(w.wake_under("sync-waker-v4:smt_check=off", 0, pair.wakee, kSyncWakeup), 0);
}

TEST(SyncWakerV4, ReciprocalSwitch)
{
    World w("llc=2,core=4");
    const Pair pair = reciprocal_pair(w, 0, 1);
    w.s.task(pair.wakee).last_wakee = kNoTask;
    EXPECT_EQ(w.wake_under("sync-waker-v4", 0, pair.wakee, kSyncWakeup), 1);
    EXPECT_EQ(w.wake_under("sync-waker-v4:reciprocal=off", 0, pair.wakee, kSyncWakeup), 0);
}

TEST(SyncWakerV4, WakerAloneSwitch)
{
    World w("llc=2,core=4");
    const Pair pair = reciprocal_pair(w, 0, 1);
    weigh(w, pair, 100, 1000);
    w.queue_on(0);
    EXPECT_EQ(w.wake_under("baseline", 0, pair.wakee, kSyncWakeup), 1);
    EXPECT_EQ(w.wake_under("sync-waker-v4", 0, pair.wakee, kSyncWakeup), 1);
    EXPECT_EQ(w.wake_under("sync-waker-v4:waker_alone=off", 0, pair.wakee, kSyncWakeup), 0);
}

TEST(SyncWakerV4, FitsSwitch)
{
    World w("cluster=2,core=4,capacity=446x4/1024x4");
    const Pair pair = reciprocal_pair(w, 0, 5);
    w.s.task(pair.wakee).se.avg.util_avg = 400;
    EXPECT_EQ(w.wake_under("baseline", 0, pair.wakee, kSyncWakeup), 4);
    EXPECT_EQ(w.wake_under("sync-waker-v4", 0, pair.wakee, kSyncWakeup), 4);
    EXPECT_EQ(w.wake_under("sync-waker-v4:fits=off", 0, pair.wakee, kSyncWakeup), 0);
}

}  // namespace
}  // namespace wb::test

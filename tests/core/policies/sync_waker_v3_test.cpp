// SPDX-License-Identifier: Apache-2.0
#include "policies/sync_waker_v3.h"

#include <gtest/gtest.h>

#include "sched/fair_util.h"

#include "policy_world.h"

namespace wb::test {
namespace {

constexpr unsigned int kSyncWakeup = WF_TTWU | WF_SYNC;

// No SMT, two LLCs of four CPUs: the waker alone on 0, its partner's prev 1 idle.
TEST(SyncWakerV3, ReciprocalSyncPairStaysOnTheWakerCpu)
{
    World w("llc=2,core=4");
    const Pair pair = reciprocal_pair(w, 0, 1);

    // Mainline: wake_affine picks the waker's CPU, then select_idle_sibling
    // moves the wakee to its idle prev.
    DecisionRecord base;
    EXPECT_EQ(w.wake_under("baseline", 0, pair.wakee, kSyncWakeup, &base), 1);
    EXPECT_EQ(base.path, WakePath::PrevIdle);

    DecisionRecord rec;
    WakePath path = WakePath::Count;
    EXPECT_EQ(w.wake_under("sync-waker-v3", 0, pair.wakee, kSyncWakeup, &rec, &path), 0);
    EXPECT_EQ(path, WakePath::Policy);
    EXPECT_EQ(rec.path, WakePath::Policy);
    EXPECT_EQ(rec.chosen, 0);
    const std::vector<DecisionStep> steps = policy_steps(rec);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].function, "sync-waker-v3");
    EXPECT_EQ(steps[0].branch, "reciprocal sync pair: waker cpu");
    EXPECT_EQ(steps[0].result, 0);
    EXPECT_NE(steps[0].detail.find("SMT inactive"), std::string::npos) << steps[0].detail;
    EXPECT_NE(steps[0].detail.find("waker cpu 0 runs 1 fair task"), std::string::npos) << steps[0].detail;
    // Neither wake_affine() nor select_idle_sibling() ran.
    EXPECT_FALSE(has_step(rec, "wake_affine"));
    EXPECT_FALSE(has_step(rec, "select_idle_sibling"));
}

TEST(SyncWakerV3, OtherWakeupsAreUnchanged)
{
    World w("llc=2,core=4");
    const Pair pair = reciprocal_pair(w, 0, 1);
    // Not sync: mainline's choice, and no policy step.
    DecisionRecord rec;
    EXPECT_EQ(w.wake_under("sync-waker-v3", 0, pair.wakee, WF_TTWU, &rec),
              w.wake_under("baseline", 0, pair.wakee, WF_TTWU));
    EXPECT_TRUE(policy_steps(rec).empty());
    EXPECT_EQ(declined_steps(rec).size(), 1u);
    // Fork takes the slow path whatever the policy.
    EXPECT_EQ(w.wake_under("sync-waker-v3", 0, pair.wakee, WF_FORK), w.wake_under("baseline", 0, pair.wakee, WF_FORK));
}

TEST(SyncWakerV3, SyncSwitch)
{
    World w("llc=2,core=4");
    const Pair pair = reciprocal_pair(w, 0, 1);
    EXPECT_EQ(w.wake_under("baseline", 0, pair.wakee, WF_TTWU), 1);
    EXPECT_EQ(w.wake_under("sync-waker-v3", 0, pair.wakee, WF_TTWU), 1);
    EXPECT_EQ(w.wake_under("sync-waker-v3:sync=off", 0, pair.wakee, WF_TTWU), 0);
}

TEST(SyncWakerV3, SmtCheckSwitchIsTheReviewedRegression)
{
    // On SMT-2 the waker's sibling is idle: mainline and v3 place there (or
    // on idle prev); without the SMT condition the pair shares one thread.
    World w("llc=2,core=4,smt=2");
    const Pair pair = reciprocal_pair(w, 0, 2);
    const CpuId base = w.wake_under("baseline", 0, pair.wakee, kSyncWakeup);
    EXPECT_EQ(base, 2);
    EXPECT_EQ(w.wake_under("sync-waker-v3", 0, pair.wakee, kSyncWakeup), base);
    EXPECT_EQ(w.wake_under("sync-waker-v3:smt_check=off", 0, pair.wakee, kSyncWakeup), 0);
}

TEST(SyncWakerV3, ReciprocalSwitch)
{
    World w("llc=2,core=4");
    const Pair pair = reciprocal_pair(w, 0, 1);
    w.s.task(pair.wakee).last_wakee = kNoTask;  // p last woke nobody
    EXPECT_EQ(w.wake_under("sync-waker-v3", 0, pair.wakee, kSyncWakeup), 1);
    EXPECT_EQ(w.wake_under("sync-waker-v3:reciprocal=off", 0, pair.wakee, kSyncWakeup), 0);
}

TEST(SyncWakerV3, WakerAloneSwitch)
{
    World w("llc=2,core=4");
    const Pair pair = reciprocal_pair(w, 0, 1);
    w.queue_on(0);  // a second runnable task behind the waker
    const CpuId base = w.wake_under("baseline", 0, pair.wakee, kSyncWakeup);
    EXPECT_EQ(base, 1);
    EXPECT_EQ(w.wake_under("sync-waker-v3", 0, pair.wakee, kSyncWakeup), base);
    EXPECT_EQ(w.wake_under("sync-waker-v3:waker_alone=off", 0, pair.wakee, kSyncWakeup), 0);

    // A delayed-dequeue entity is queued but not runnable: still alone.
    Rq& rq = w.s.rq(0);
    --rq.cfs.h_nr_runnable;
    EXPECT_EQ(w.wake_under("sync-waker-v3", 0, pair.wakee, kSyncWakeup), 0);
}

TEST(SyncWakerV3, FitsSwitchOnAsymmetricCapacity)
{
    // Little CPUs 0-3 (446), big 4-7 (1024), one LLC in two clusters.
    World w("cluster=2,core=4,capacity=446x4/1024x4");
    ASSERT_TRUE(w.d.sched_asym_cpucapacity());
    const Pair pair = reciprocal_pair(w, 0, 5);

    // A small wakee fits the little waker CPU: v3 applies on asym systems.
    w.s.task(pair.wakee).se.avg.util_avg = 100;
    EXPECT_EQ(w.wake_under("sync-waker-v3", 0, pair.wakee, kSyncWakeup), 0);

    // Too big for it: mainline's capacity scan finds the big CPU 4.
    w.s.task(pair.wakee).se.avg.util_avg = 400;
    EXPECT_EQ(w.wake_under("baseline", 0, pair.wakee, kSyncWakeup), 4);
    EXPECT_EQ(w.wake_under("sync-waker-v3", 0, pair.wakee, kSyncWakeup), 4);
    EXPECT_EQ(w.wake_under("sync-waker-v3:fits=off", 0, pair.wakee, kSyncWakeup), 0);
}

// The one "not taken" step of a declined sync-waker-v3 wakeup, checked to
// leave the decision to mainline, with or without a record.
DecisionStep declined_once(const World& w, TaskId p, unsigned int flags)
{
    DecisionRecord rec;
    const CpuId with = w.wake_under("sync-waker-v3", 0, p, flags, &rec);
    EXPECT_EQ(with, w.wake_under("baseline", 0, p, flags));
    EXPECT_EQ(with, w.wake_under("sync-waker-v3", 0, p, flags));
    EXPECT_TRUE(policy_steps(rec).empty());
    // wake_affine() still ran: the policy only looked before it.
    EXPECT_TRUE(has_step(rec, "wake_affine_idle") || has_step(rec, "wake_affine"));
    const std::vector<DecisionStep> declined = declined_steps(rec);
    EXPECT_EQ(declined.size(), 1u);
    return declined.empty() ? DecisionStep{} : declined[0];
}

TEST(SyncWakerV3, DeclineOnSmtSaysSmtActive)
{
    World w("llc=2,core=4,smt=2");
    const Pair pair = reciprocal_pair(w, 0, 2);
    const DecisionStep st = declined_once(w, pair.wakee, kSyncWakeup);
    EXPECT_EQ(st.function, "sync-waker-v3");
    EXPECT_EQ(st.branch, "not taken");
    EXPECT_EQ(st.detail, "SMT active");
    EXPECT_EQ(st.result, kNoCpu);
}

TEST(SyncWakerV3, DeclineWithoutSyncSaysNotWfSync)
{
    // SMT is active too, but sync is tested first: the first failure is named.
    World w("llc=2,core=4,smt=2");
    const Pair pair = reciprocal_pair(w, 0, 2);
    const DecisionStep st = declined_once(w, pair.wakee, WF_TTWU);
    EXPECT_EQ(st.branch, "not taken");
    EXPECT_EQ(st.detail, "not WF_SYNC");
}

TEST(SyncWakerV3, DeclineForAnExitingWakerSaysItIsNotSync)
{
    // WF_SYNC is set, but an exiting waker will not sleep on its CPU.
    World w("llc=2,core=4");
    const Pair pair = reciprocal_pair(w, 0, 1);
    w.s.task(pair.waker).exiting = true;
    EXPECT_EQ(declined_once(w, pair.wakee, kSyncWakeup).detail, "not sync: the waker is exiting");
}

TEST(SyncWakerV3, DeclineOnABusyWakerCpuCountsItsTasks)
{
    World w("llc=2,core=4");
    const Pair pair = reciprocal_pair(w, 0, 1);
    w.queue_on(0);
    EXPECT_EQ(declined_once(w, pair.wakee, kSyncWakeup).detail, "waker cpu 0 runs 2 fair tasks");
    w.queue_on(0);
    EXPECT_EQ(declined_once(w, pair.wakee, kSyncWakeup).detail, "waker cpu 0 runs 3 fair tasks");
}

TEST(SyncWakerV3, DeclineForAnotherWakerNamesTheLastWakee)
{
    World w("llc=2,core=4");
    const Pair pair = reciprocal_pair(w, 0, 1);
    const TaskId other = w.add_task(5);
    w.s.task(pair.wakee).last_wakee = other;
    EXPECT_EQ(declined_once(w, pair.wakee, kSyncWakeup).detail, "p's last_wakee is not current (task " +
                                                                    std::to_string(other) + ", current task " +
                                                                    std::to_string(pair.waker) + ")");
}

TEST(SyncWakerV3, DeclineForATooBigWakeeGivesUtilAndCapacity)
{
    World w("cluster=2,core=4,capacity=446x4/1024x4");
    const Pair pair = reciprocal_pair(w, 0, 5);
    w.s.task(pair.wakee).se.avg.util_avg = 400;
    const std::string expected = "util " + std::to_string(task_util_est(synced_avg(w.s, pair.wakee))) +
                                 " does not fit capacity " + std::to_string(capacity_of(w.s, 0));
    EXPECT_EQ(declined_once(w, pair.wakee, kSyncWakeup).detail, expected);
}

}  // namespace
}  // namespace wb::test

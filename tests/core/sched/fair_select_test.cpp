// SPDX-License-Identifier: Apache-2.0
#include "sched/fair_select.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "sched/select_idle.h"
#include "sched/wake_affine.h"
#include "topology/synthetic.h"

#include "sched_world.h"

namespace wb {
namespace {

// The shared world, with idle scans allowed, loads and whole wakeups.
struct World : test::SchedWorld {
    explicit World(std::string_view spec, const FeatureSet& feats = FeatureSet()) : SchedWorld(spec, feats)
    {
        allow_idle_scans();
    }

    void set_load(CpuId cpu, unsigned long load) { s.rq(cpu).cfs.avg.load_avg = load; }

    // A wakeup of p by the task running on waker_cpu (or an interrupt, if
    // none runs there).
    CpuId wake(CpuId waker_cpu, TaskId p, unsigned int flags = WF_TTWU, DecisionRecord* rec = nullptr,
               WakePath* path = nullptr)
    {
        const WakerContext waker{waker_cpu, s.rq(waker_cpu).curr, s.rq(waker_cpu).curr != kNoTask};
        return select_task_rq_fair(s, waker, p, s.task(p).wake_cpu, flags, rec, path);
    }
};

using test::irq_on;

// --- select_idle_sibling: every early return, in order -------------------------

TEST(SelectIdleSibling, TargetIdleWinsAndLeavesRecentUsedCpuAlone)
{
    World w("llc=2,core=4,smt=2");
    const TaskId p = w.add_task(3);
    w.s.task(p).recent_used_cpu = 5;
    WakePath path = WakePath::Count;
    EXPECT_EQ(select_idle_sibling(w.s, irq_on(0), p, 3, 0, nullptr, &path), 0);
    EXPECT_EQ(path, WakePath::TargetIdle);
    EXPECT_EQ(w.s.task(p).recent_used_cpu, 5);  // step 4 not reached
}

TEST(SelectIdleSibling, PrevIdleInTargetsLlc)
{
    World w("llc=2,core=4,smt=2");
    w.run_on(0);
    const TaskId p = w.add_task(3);
    w.s.task(p).recent_used_cpu = 5;
    WakePath path = WakePath::Count;
    EXPECT_EQ(select_idle_sibling(w.s, irq_on(0), p, 3, 0, nullptr, &path), 3);
    EXPECT_EQ(path, WakePath::PrevIdle);
    EXPECT_EQ(w.s.task(p).recent_used_cpu, 5);
}

TEST(SelectIdleSibling, PrevIdleInAnotherLlcIsNotUsed)
{
    World w("llc=2,core=4,smt=2");
    w.run_on_all_but({9});
    const TaskId p = w.add_task(9);
    WakePath path = WakePath::Count;
    EXPECT_EQ(select_idle_sibling(w.s, irq_on(0), p, 9, 0, nullptr, &path), 0);
    EXPECT_EQ(path, WakePath::TargetFallback);
    EXPECT_EQ(w.s.task(p).recent_used_cpu, 9);  // step 4 reached: prev stored
}

TEST(SelectIdleSibling, PrevInAnotherClusterIsOnlyAFallback)
{
    // One LLC, clusters {0,1} {2,3}, no SMT.
    World w("llc=1,cluster=2,core=2");
    ASSERT_TRUE(w.d.sched_cluster_active());
    w.run_on(0);
    w.run_on(1);
    w.run_on(3);
    const TaskId p = w.add_task(2);
    const int llc = w.llc(0);

    // The scan budget runs out in target's cluster: prev is the fallback.
    w.shared(llc).nr_idle_scan = 2;
    WakePath path = WakePath::Count;
    EXPECT_EQ(select_idle_sibling(w.s, irq_on(0), p, 2, 0, nullptr, &path), 2);
    EXPECT_EQ(path, WakePath::PrevAffFallback);

    // With budget enough the LLC scan itself finds 2 after the cluster pass.
    w.shared(llc).nr_idle_scan = 4;
    EXPECT_EQ(select_idle_sibling(w.s, irq_on(0), p, 2, 0, nullptr, &path), 2);
    EXPECT_EQ(path, WakePath::LlcScan);

    // Without clusters the same prev returns at step 2.
    World v("core=4");
    v.run_on(0);
    const TaskId q = v.add_task(2);
    EXPECT_EQ(select_idle_sibling(v.s, irq_on(0), q, 2, 0, nullptr, &path), 2);
    EXPECT_EQ(path, WakePath::PrevIdle);
}

TEST(SelectIdleSibling, RecentUsedCpuInAnotherClusterIsOnlyAFallback)
{
    World w("llc=1,cluster=2,core=2");
    w.run_on(0);
    w.run_on(1);
    w.run_on(2);
    const TaskId p = w.add_task(1);
    w.s.task(p).recent_used_cpu = 3;
    w.shared(w.llc(0)).nr_idle_scan = 2;
    WakePath path = WakePath::Count;
    EXPECT_EQ(select_idle_sibling(w.s, irq_on(0), p, 1, 0, nullptr, &path), 3);
    EXPECT_EQ(path, WakePath::RecentFallback);
    EXPECT_EQ(w.s.task(p).recent_used_cpu, 1);
}

TEST(SelectIdleSibling, PerCpuKthreadWakerStacksOnPrev)
{
    World w("llc=2,core=4,smt=2");
    w.run_on_all_but({5});
    const TaskId kworker = w.s.rq(4).curr;
    w.s.task(kworker).kthread = true;
    w.s.task(kworker).cpus_allowed = CpuMask::of(16, {4});
    w.s.task(kworker).nr_cpus_allowed = 1;
    const TaskId p = w.add_task(4);

    WakePath path = WakePath::Count;
    const WakerContext in_task{4, kworker, true};
    EXPECT_EQ(select_idle_sibling(w.s, in_task, p, 4, 4, nullptr, &path), 4);
    EXPECT_EQ(path, WakePath::PerCpuKthread);

    // From interrupt context the kthread is not about to sleep: look on.
    const WakerContext in_irq{4, kworker, false};
    EXPECT_EQ(select_idle_sibling(w.s, in_irq, p, 4, 4, nullptr, &path), 5);
    EXPECT_EQ(path, WakePath::SmtSibling);

    // A second task queued on the kthread's CPU: no stacking.
    w.s.rq(4).nr_running = 2;
    EXPECT_EQ(select_idle_sibling(w.s, in_task, p, 4, 4, nullptr, &path), 5);
}

TEST(SelectIdleSibling, RecentUsedCpuAndItsOverwrite)
{
    World w("llc=2,core=4,smt=2");
    w.run_on_all_but({2, 9});
    const TaskId p = w.add_task(8);
    w.s.task(p).recent_used_cpu = 2;
    WakePath path = WakePath::Count;
    EXPECT_EQ(select_idle_sibling(w.s, irq_on(0), p, 8, 0, nullptr, &path), 2);
    EXPECT_EQ(path, WakePath::RecentUsed);
    EXPECT_EQ(w.s.task(p).recent_used_cpu, 8);

    // Not allowed any more: skipped, and still overwritten.
    w.s.task(p).recent_used_cpu = 2;
    w.s.task(p).cpus_allowed.reset(2);
    EXPECT_NE(select_idle_sibling(w.s, irq_on(0), p, 8, 0, nullptr, &path), 2);
    EXPECT_EQ(w.s.task(p).recent_used_cpu, 8);
}

TEST(SelectIdleSibling, AsymCapacityPathSkipsTheLlcScan)
{
    World w("cluster=2,core=4,capacity=446x4/1024x4");
    const TaskId p = w.add_task(0);
    w.s.task(p).se.avg.util_avg = 400;  // idle little target does not fit
    WakePath path = WakePath::Count;
    EXPECT_EQ(select_idle_sibling(w.s, irq_on(0), p, 0, 0, nullptr, &path), 4);
    EXPECT_EQ(path, WakePath::AsymCapacity);

    // Nothing found (no budget): target, still on the asym path.
    w.shared(w.d.shortcuts(0).sd_asym_cpucapacity).nr_idle_scan = 0;
    EXPECT_EQ(select_idle_sibling(w.s, irq_on(0), p, 0, 0, nullptr, &path), 0);
    EXPECT_EQ(path, WakePath::AsymCapacity);

    // A task that fits takes the idle little target at step 1.
    w.s.task(p).se.avg.util_avg = 100;
    EXPECT_EQ(select_idle_sibling(w.s, irq_on(0), p, 0, 0, nullptr, &path), 0);
    EXPECT_EQ(path, WakePath::TargetIdle);
}

TEST(SelectIdleSibling, AsymFitUsesUtilSyncedToTheRunqueueWithoutWritingIt)
{
    World w("cluster=2,core=4,capacity=446x4/1024x4");
    const TaskId p = w.add_task(0);
    // Ran hot (util 800, too big for a little CPU) until 1 ms, then slept
    // while its runqueue's PELT clock reached 200 ms: ~6 half-lives.
    SchedAvg& avg = w.s.task(p).se.avg;
    avg.last_update_time = 1'000'000;
    avg.util_avg = 800;
    avg.util_sum = 800 * (kLoadAvgMax - 1024);
    w.s.rq(0).cfs.avg.last_update_time = 200'000'000;
    WakePath path = WakePath::Count;
    EXPECT_EQ(select_idle_sibling(w.s, irq_on(0), p, 0, 0, nullptr, &path), 0);
    EXPECT_EQ(path, WakePath::TargetIdle);
    EXPECT_EQ(w.s.task(p).se.avg.util_avg, 800u);  // the PELT code updates p, not the selector

    // Not synced (same clock): still too big for the little target.
    w.s.rq(0).cfs.avg.last_update_time = 1'000'000;
    EXPECT_EQ(select_idle_sibling(w.s, irq_on(0), p, 0, 0, nullptr, &path), 4);
    EXPECT_EQ(path, WakePath::AsymCapacity);
}

TEST(SelectIdleSibling, AsymWithSmtRejectsAnIdleTargetOnABusyCore)
{
    World w("core=4,smt=2,capacity=800x2/1024x2");
    w.run_on(5);
    const TaskId p = w.add_task(4);
    w.s.task(p).se.avg.util_avg = 100;
    const int sd = w.d.shortcuts(4).sd_asym_cpucapacity;
    WakePath path = WakePath::Count;
    // Step 1 refuses idle 4 (its sibling 5 is busy); without the idle-cores
    // hint select_idle_capacity() prefers every CPU and takes it after all.
    EXPECT_EQ(select_idle_sibling(w.s, irq_on(4), p, 4, 4, nullptr, &path), 4);
    EXPECT_EQ(path, WakePath::AsymCapacity);
    // With the hint, the whole idle core {6,7} wins.
    w.shared(sd).has_idle_cores = true;
    EXPECT_EQ(select_idle_sibling(w.s, irq_on(4), p, 4, 4, nullptr, &path), 6);
    EXPECT_EQ(path, WakePath::AsymCapacity);
}

TEST(SelectIdleSibling, NoLlcDomainReturnsTarget)
{
    World w("llc=2,core=1");  // two CPUs, each its own LLC
    ASSERT_EQ(w.llc(0), -1);
    w.run_on(0);
    w.run_on(1);
    const TaskId p = w.add_task(1);
    WakePath path = WakePath::Count;
    EXPECT_EQ(select_idle_sibling(w.s, irq_on(0), p, 1, 0, nullptr, &path), 0);
    EXPECT_EQ(path, WakePath::NoLlc);
}

TEST(SelectIdleSibling, SmtSiblingOfPrevOnlyWhenTheHintIsClear)
{
    World w("llc=2,core=4,smt=2");
    w.run_on_all_but({1, 3, 6, 7});
    const TaskId p = w.add_task(2);
    WakePath path = WakePath::Count;
    // target 0's sibling 1 is idle, but prev 2's sibling 3 is what is tried.
    EXPECT_EQ(select_idle_sibling(w.s, irq_on(0), p, 2, 0, nullptr, &path), 3);
    EXPECT_EQ(path, WakePath::SmtSibling);

    // With the hint set, the LLC scan looks for a whole idle core instead.
    w.shared(w.llc(0)).has_idle_cores = true;
    EXPECT_EQ(select_idle_sibling(w.s, irq_on(0), p, 2, 0, nullptr, &path), 6);
    EXPECT_EQ(path, WakePath::LlcScan);
}

TEST(SelectIdleSibling, LlcScanThenTargetFallback)
{
    World w("llc=2,core=4,smt=2");
    w.run_on_all_but({6});
    const TaskId p = w.add_task(0);
    WakePath path = WakePath::Count;
    EXPECT_EQ(select_idle_sibling(w.s, irq_on(0), p, 0, 0, nullptr, &path), 6);
    EXPECT_EQ(path, WakePath::LlcScan);

    w.run_on(6);
    EXPECT_EQ(select_idle_sibling(w.s, irq_on(0), p, 0, 0, nullptr, &path), 0);
    EXPECT_EQ(path, WakePath::TargetFallback);
}

TEST(SelectIdleSibling, SchedIdleTargetIsIdleOnlyForNormalWakees)
{
    World w("llc=2,core=4,smt=2");
    w.run_on_all_but({});
    Rq& rq = w.s.rq(0);
    w.s.task(rq.curr).policy = SchedPolicy::Idle;
    rq.cfs.h_nr_idle = 1;

    const TaskId normal = w.add_task(0);
    WakePath path = WakePath::Count;
    EXPECT_EQ(select_idle_sibling(w.s, irq_on(0), normal, 0, 0, nullptr, &path), 0);
    EXPECT_EQ(path, WakePath::TargetIdle);

    const TaskId background = w.add_task(0);
    w.s.task(background).policy = SchedPolicy::Idle;
    EXPECT_EQ(select_idle_sibling(w.s, irq_on(0), background, 0, 0, nullptr, &path), 0);
    EXPECT_EQ(path, WakePath::TargetFallback);
}

// --- wake_wide and record_wakee ------------------------------------------------------

TEST(WakeWide, Thresholds)
{
    World w("llc=2,core=4,smt=2");  // llc_size 8
    const TaskId waker = w.run_on(0);
    const TaskId p = w.add_task(3);
    const WakerContext ctx{0, waker, true};
    auto wide = [&](unsigned int waker_flips, unsigned int wakee_flips) {
        w.s.task(waker).wakee_flips = waker_flips;
        w.s.task(p).wakee_flips = wakee_flips;
        return wake_wide(w.s, ctx, p);
    };
    EXPECT_TRUE(wide(64, 8));                    // lo 8 >= 8 and hi 64 >= 8 * 8
    EXPECT_FALSE(wide(63, 8));                   // hi < lo * llc_size
    EXPECT_FALSE(wide(640, 7));                  // lo < llc_size
    EXPECT_TRUE(wide(8, 64));                    // symmetric in waker and wakee
    EXPECT_FALSE(wake_wide(w.s, irq_on(1), p));  // the idle task's flips count as 0
}

TEST(RecordWakee, CountsNewWakeesAndHalvesOnceAfterMoreThanOneSecond)
{
    World w("llc=2,core=4,smt=2");
    ASSERT_EQ(w.m.costs[Cost::hz], 250);
    const TaskId waker = w.run_on(0);
    const TaskId a = w.add_task(1);
    const TaskId b = w.add_task(2);
    const WakerContext ctx{0, waker, true};
    Task& cur = w.s.task(waker);

    record_wakee(w.s, ctx, a);
    record_wakee(w.s, ctx, a);  // same wakee: no flip
    EXPECT_EQ(cur.wakee_flips, 1u);
    record_wakee(w.s, ctx, b);
    EXPECT_EQ(cur.wakee_flips, 2u);
    EXPECT_EQ(cur.last_wakee, b);

    cur.wakee_flips = 8;
    w.s.now = Time::s(1);  // jiffies 250 == decay_ts + HZ: not after it yet
    record_wakee(w.s, ctx, b);
    EXPECT_EQ(cur.wakee_flips, 8u);
    w.s.now = Time::ms(1004);  // jiffies 251
    record_wakee(w.s, ctx, b);
    EXPECT_EQ(cur.wakee_flips, 4u);
    EXPECT_EQ(cur.wakee_flip_decay_ts, 251u);

    w.s.now = Time::s(20);  // however long the gap, one halving
    record_wakee(w.s, ctx, a);
    EXPECT_EQ(cur.wakee_flips, 3u);  // 4 / 2 + 1
}

// --- wake_affine ---------------------------------------------------------------------

TEST(WakeAffineIdle, EveryBranch)
{
    World w("llc=2,core=4,smt=2");
    // Idle waker CPU sharing the cache with prev: prev if idle, else waker.
    EXPECT_EQ(wake_affine_idle(w.s, 0, 3, false, nullptr), 3);
    w.run_on(3);
    EXPECT_EQ(wake_affine_idle(w.s, 0, 3, false, nullptr), 0);
    // Idle waker CPU in another LLC does not attract.
    EXPECT_EQ(wake_affine_idle(w.s, 8, 3, false, nullptr), kNoCpu);

    // Sync: the waker alone on its CPU, delayed-dequeue tasks not counted.
    const TaskId waker = w.run_on(0);
    (void)waker;
    EXPECT_EQ(wake_affine_idle(w.s, 0, 3, true, nullptr), 0);
    EXPECT_EQ(wake_affine_idle(w.s, 0, 3, false, nullptr), kNoCpu);
    Rq& rq0 = w.s.rq(0);
    rq0.nr_running = 2;
    rq0.cfs.h_nr_queued = 2;
    rq0.cfs.h_nr_runnable = 1;  // one delayed entity
    EXPECT_EQ(wake_affine_idle(w.s, 0, 3, true, nullptr), 0);
    rq0.cfs.h_nr_runnable = 2;
    EXPECT_EQ(wake_affine_idle(w.s, 0, 3, true, nullptr), kNoCpu);

    // Busy waker, idle prev: prev.
    EXPECT_EQ(wake_affine_idle(w.s, 0, 9, true, nullptr), 9);
}

TEST(WakeAffineWeight, BiasIsHalfTheDomainMargin)
{
    World w("llc=2,core=4,smt=2");
    const std::vector<int>& chain = w.d.domains_of(0);
    const int smt = chain[0];
    const int mc = chain[1];
    ASSERT_EQ(w.d.domain(smt).imbalance_pct, 110);
    ASSERT_EQ(w.d.domain(mc).imbalance_pct, 117);
    const TaskId waker = w.run_on(0);
    w.run_on(1);
    const TaskId p = w.add_task(1);
    const WakerContext ctx{0, waker, true};
    w.set_load(0, 106);
    w.set_load(1, 100);
    // 106 * 100 < 100 * 108, but not < 100 * 105.
    EXPECT_EQ(wake_affine_weight(w.s, ctx, mc, p, 0, 1, false, nullptr), 0);
    EXPECT_EQ(wake_affine_weight(w.s, ctx, smt, p, 0, 1, false, nullptr), kNoCpu);

    w.s.feats.set(Feat::WA_BIAS, false);
    EXPECT_EQ(wake_affine_weight(w.s, ctx, mc, p, 0, 1, false, nullptr), kNoCpu);
}

TEST(WakeAffineWeight, TaskLoadMovesFromPrevToWaker)
{
    World w("llc=2,core=4,smt=2");
    const int mc = w.d.domains_of(0)[1];
    const TaskId waker = w.run_on(0);
    w.run_on(4);
    const TaskId p = w.add_task(4);
    const WakerContext ctx{0, waker, true};
    w.set_load(0, 300);
    w.set_load(4, 700);
    w.s.task(p).se.avg.load_avg = 200;  // (300+200)*100 < (700-200)*108
    EXPECT_EQ(wake_affine_weight(w.s, ctx, mc, p, 0, 4, false, nullptr), 0);
    w.s.task(p).se.avg.load_avg = 250;  // 550*100 >= 450*108
    EXPECT_EQ(wake_affine_weight(w.s, ctx, mc, p, 0, 4, false, nullptr), kNoCpu);
    // prev's load without p may go negative: never pulled then.
    w.set_load(4, 50);
    w.set_load(0, 0);
    EXPECT_EQ(wake_affine_weight(w.s, ctx, mc, p, 0, 4, false, nullptr), kNoCpu);
}

TEST(WakeAffineWeight, CapacitiesCrossMultiply)
{
    World w("llc=2,core=4,smt=2");
    const int mc = w.d.domains_of(0)[1];
    const TaskId waker = w.run_on(0);
    w.run_on(4);
    const TaskId p = w.add_task(4);
    const WakerContext ctx{0, waker, true};
    w.s.feats.set(Feat::WA_BIAS, false);
    w.set_load(0, 100);
    w.set_load(4, 150);
    EXPECT_EQ(wake_affine_weight(w.s, ctx, mc, p, 0, 4, false, nullptr), 0);
    w.s.rq(0).cpu_capacity = 512;  // 100 * 1024 >= 150 * 512
    EXPECT_EQ(wake_affine_weight(w.s, ctx, mc, p, 0, 4, false, nullptr), kNoCpu);
}

TEST(WakeAffineWeight, SyncDiscountsTheWakerAndWinsTies)
{
    World w("llc=2,core=4,smt=2");
    const int mc = w.d.domains_of(0)[1];
    const TaskId waker = w.run_on(0);
    w.run_on(4);
    const TaskId p = w.add_task(4);
    const WakerContext ctx{0, waker, true};
    w.s.feats.set(Feat::WA_BIAS, false);
    w.set_load(0, 200);
    w.set_load(4, 200);
    EXPECT_EQ(wake_affine_weight(w.s, ctx, mc, p, 0, 4, false, nullptr), kNoCpu);  // tie
    EXPECT_EQ(wake_affine_weight(w.s, ctx, mc, p, 0, 4, true, nullptr), 0);        // tie, sync

    w.set_load(0, 400);
    w.s.task(waker).se.avg.load_avg = 300;  // 400 - 300 < 200
    EXPECT_EQ(wake_affine_weight(w.s, ctx, mc, p, 0, 4, true, nullptr), 0);
    EXPECT_EQ(wake_affine_weight(w.s, ctx, mc, p, 0, 4, false, nullptr), kNoCpu);
    w.s.task(waker).se.avg.load_avg = 500;  // the waker carries more than its CPU
    w.set_load(4, 0);
    EXPECT_EQ(wake_affine_weight(w.s, ctx, mc, p, 0, 4, true, nullptr), 0);
}

TEST(WakeAffine, FeatureSwitches)
{
    World w("llc=2,core=4,smt=2");
    const int mc = w.d.domains_of(0)[1];
    const TaskId waker = w.run_on(0);
    const TaskId p = w.add_task(4);
    const WakerContext ctx{0, waker, true};
    w.set_load(4, 500);  // idle prev with blocked load
    w.s.task(p).se.avg.load_avg = 100;

    EXPECT_EQ(wake_affine(w.s, ctx, mc, p, 0, 4, false, nullptr), 4);  // WA_IDLE: prev idle
    w.s.feats.set(Feat::WA_IDLE, false);
    EXPECT_EQ(wake_affine(w.s, ctx, mc, p, 0, 4, false, nullptr), 0);  // weight: 100*100 < 400*108
    w.s.feats.set(Feat::WA_WEIGHT, false);
    EXPECT_EQ(wake_affine(w.s, ctx, mc, p, 0, 4, false, nullptr), 4);  // nothing decides: prev
}

// --- select_task_rq_fair ---------------------------------------------------------------

TEST(SelectTaskRqFair, AffineWakeupPullsToTheWakersLlc)
{
    World w("llc=2,core=4,smt=2");
    w.run_on_all_but({5});
    w.set_load(0, 100);
    w.set_load(9, 2000);
    const TaskId p = w.add_task(9);
    w.s.task(p).se.avg.load_avg = 100;
    WakePath path = WakePath::Count;
    EXPECT_EQ(w.wake(0, p, WF_TTWU, nullptr, &path), 5);
    EXPECT_EQ(path, WakePath::LlcScan);
}

TEST(SelectTaskRqFair, WakeWideKeepsTargetAtPrev)
{
    World w("llc=2,core=4,smt=2");
    w.run_on_all_but({5});
    w.set_load(0, 100);
    w.set_load(9, 2000);
    const TaskId p = w.add_task(9);
    w.s.task(w.s.rq(0).curr).wakee_flips = 100;
    w.s.task(p).wakee_flips = 10;
    DecisionRecord rec;
    EXPECT_EQ(w.wake(0, p, WF_TTWU, &rec), 9);  // prev's LLC is all busy
    EXPECT_EQ(rec.target, 9);
    EXPECT_EQ(rec.path, WakePath::TargetFallback);
}

TEST(SelectTaskRqFair, NoAffineDomainBeyondNodeReclaimDistance)
{
    // Far nodes (40 > 30): the NUMA level has no SD_WAKE_AFFINE.
    World far("node=2,core=4,distance=40");
    far.run_on_all_but({1});
    far.set_load(4, 1000);
    const TaskId p = far.add_task(4);
    DecisionRecord rec;
    EXPECT_EQ(far.wake(0, p, WF_TTWU, &rec), 4);
    EXPECT_EQ(rec.target, 4);
    const bool noted = std::any_of(rec.steps.begin(), rec.steps.end(),
                                   [](const DecisionStep& st) { return st.branch == "no affine domain"; });
    EXPECT_TRUE(noted);

    // Near nodes (20): wake_affine runs and pulls p to the waker's node.
    World near("node=2,core=4,distance=20");
    near.run_on_all_but({1});
    near.set_load(4, 1000);
    const TaskId q = near.add_task(4);
    DecisionRecord rec2;
    EXPECT_EQ(near.wake(0, q, WF_TTWU, &rec2), 1);
    EXPECT_EQ(rec2.target, 0);
}

TEST(SelectTaskRqFair, CurrentCpuFlagShortCircuitsButRecordsTheWakee)
{
    World w("llc=2,core=4,smt=2");
    const TaskId waker = w.run_on(3);
    const TaskId p = w.add_task(12);
    WakePath path = WakePath::Count;
    EXPECT_EQ(w.wake(3, p, WF_TTWU | WF_CURRENT_CPU, nullptr, &path), 3);
    EXPECT_EQ(path, WakePath::CurrentCpu);
    EXPECT_EQ(w.s.task(waker).last_wakee, p);

    // Not allowed on the waker's CPU: the normal path (prev 12 is idle).
    w.s.task(p).cpus_allowed.reset(3);
    EXPECT_EQ(w.wake(3, p, WF_TTWU | WF_CURRENT_CPU, nullptr, &path), 12);
    EXPECT_EQ(path, WakePath::TargetIdle);
}

TEST(SelectTaskRqFair, ExitingWakerIsNotSync)
{
    World w("llc=2,core=4,smt=2");
    w.run_on_all_but({1, 2, 3, 4, 5, 6, 7, 9});
    const TaskId waker = w.s.rq(0).curr;
    const TaskId p = w.add_task(8);
    w.set_load(8, 0);
    // Sync and alone on its CPU: wake_affine picks the waker's CPU, and the
    // LLC scan then finds the idle sibling 1.
    DecisionRecord rec;
    EXPECT_EQ(w.wake(0, p, WF_TTWU | WF_SYNC, &rec), 1);
    EXPECT_EQ(rec.target, 0);

    w.s.task(waker).exiting = true;
    DecisionRecord rec2;
    w.wake(0, p, WF_TTWU | WF_SYNC, &rec2);
    EXPECT_EQ(rec2.target, 8);
}

TEST(SelectTaskRqFair, ForkTakesTheSlowPathToTheIdlerLlc)
{
    World w("llc=2,core=4,smt=2");
    const TaskId parent = w.run_on(0);
    w.run_on(1);
    for (CpuId c = 8; c < 16; ++c)
        w.s.rq(c).idle_stamp = Time::ns(1000 + c);  // 15 idled last
    for (CpuId c = 2; c < 8; ++c)
        w.s.rq(c).idle_stamp = Time::ns(1000 + c);
    const TaskId child = w.add_task(0);
    WakePath path = WakePath::Count;
    DecisionRecord rec;
    EXPECT_EQ(w.wake(0, child, WF_FORK, &rec, &path), 15);
    EXPECT_EQ(path, WakePath::SlowPath);
    EXPECT_EQ(rec.from_waker, DistanceClass::OtherLlc);
    EXPECT_EQ(w.s.task(parent).last_wakee, kNoTask);  // fork does not record a wakee
}

TEST(SelectTaskRqFair, ForkWithoutDomainsStaysOnPrev)
{
    World w("core=1");
    const TaskId child = w.add_task(0);
    WakePath path = WakePath::Count;
    EXPECT_EQ(w.wake(0, child, WF_FORK, nullptr, &path), 0);
    EXPECT_EQ(path, WakePath::TargetFallback);
}

// --- select_task_rq --------------------------------------------------------------------

TEST(SelectTaskRq, OneAllowedCpuSkipsTheFairSelector)
{
    World w("llc=2,core=4,smt=2");
    const TaskId p = w.add_task(3);
    w.s.task(p).cpus_allowed = CpuMask::of(16, {7});
    w.s.task(p).nr_cpus_allowed = 1;
    unsigned int flags = WF_TTWU;
    WakePath path = WakePath::Count;
    DecisionRecord rec;
    EXPECT_EQ(select_task_rq(w.s, irq_on(0), p, 3, &flags, &rec, &path), 7);
    EXPECT_EQ(path, WakePath::NotSelected);
    EXPECT_EQ(rec.path, WakePath::NotSelected);
    EXPECT_EQ(flags, WF_TTWU);

    const TaskId q = w.add_task(3);
    EXPECT_EQ(select_task_rq(w.s, irq_on(0), q, 3, &flags, nullptr, &path), 3);
    EXPECT_EQ(flags, WF_TTWU | WF_RQ_SELECTED);
    EXPECT_EQ(path, WakePath::TargetIdle);
}

TEST(SelectTaskRq, FallsBackWhenTheSelectorAnswersOutsideTheAffinity)
{
    World w("llc=2,core=4,smt=2");
    const TaskId p = w.add_task(0);
    w.s.task(p).cpus_allowed = CpuMask::of(16, {9, 10});
    w.s.task(p).nr_cpus_allowed = 2;
    unsigned int flags = WF_TTWU;
    DecisionRecord rec;
    // The fast path returns the idle prev 0, which p may no longer use.
    EXPECT_EQ(select_task_rq(w.s, irq_on(0), p, 0, &flags, &rec), 9);
    EXPECT_EQ(rec.chosen, 9);
    EXPECT_EQ(rec.steps.back().branch, "select_fallback_rq");
}

// --- Decision records ------------------------------------------------------------------

TEST(DecisionRecord, StepsScanOrderPathAndDistances)
{
    World w("llc=2,core=4,smt=2");
    w.run_on_all_but({5});
    w.set_load(0, 100);
    w.set_load(9, 2000);
    const TaskId waker = w.s.rq(0).curr;
    const TaskId p = w.add_task(9);
    w.s.task(p).recent_used_cpu = 9;
    w.s.task(p).se.avg.load_avg = 100;
    w.s.now = Time::ms(3);

    DecisionRecord rec;
    EXPECT_EQ(w.wake(0, p, WF_TTWU, &rec), 5);
    EXPECT_EQ(rec.time, Time::ms(3));
    EXPECT_EQ(rec.waker, waker);
    EXPECT_EQ(rec.wakee, p);
    EXPECT_EQ(rec.waker_cpu, 0);
    EXPECT_EQ(rec.prev_cpu, 9);
    EXPECT_EQ(rec.wake_flags, WF_TTWU);
    EXPECT_EQ(rec.target, 0);
    EXPECT_EQ(rec.chosen, 5);
    EXPECT_EQ(rec.path, WakePath::LlcScan);
    EXPECT_EQ(rec.from_waker, DistanceClass::Llc);
    EXPECT_EQ(rec.from_prev, DistanceClass::OtherLlc);
    EXPECT_EQ(rec.scanned, (std::vector<CpuId>{1, 2, 3, 4, 5}));

    std::vector<std::string> steps;
    for (const DecisionStep& st : rec.steps)
        steps.push_back(std::string(st.function) + ":" + std::string(st.branch));
    const std::vector<std::string> expected{
        "wake_wide:not wide",
        "select_task_rq_fair:affine domain",
        "wake_affine_idle:no idle choice",
        "wake_affine_weight:waker lighter",
        "wake_affine:waker cpu",
        "select_idle_sibling:target not idle",
        "select_idle_sibling:prev not usable",
        "select_idle_sibling:recent_used_cpu not usable",
        "select_idle_sibling:idle-cores hint clear",
        "select_idle_cpu:scan budget",
        "select_idle_cpu:idle cpu",
    };
    EXPECT_EQ(steps, expected);
    EXPECT_EQ(rec.steps[0].detail, "wakee_flips 1/0: lo < llc_size 8");
    EXPECT_EQ(rec.steps[1].detail, "PKG (0-15) spans waker 0 and prev 9");
    EXPECT_EQ(rec.steps[3].detail,
              "this_eff 20480000 < prev_eff 210124800 (loads 100/2000, task 100, imbalance_pct 117)");
    EXPECT_EQ(rec.steps[3].result, 0);
    EXPECT_EQ(rec.steps[9].detail, "nr_idle_scan 8");
    EXPECT_EQ(rec.steps.back().result, 5);
}

// A deterministic mix of busy, idle and SCHED_IDLE CPUs, loads, hints and
// budgets, to compare a recorded and an unrecorded run of the same wakeup.
void scramble(World& w, std::uint32_t seed)
{
    auto next = [&seed] {
        seed = seed * 1664525u + 1013904223u;
        return seed >> 8;
    };
    for (CpuId c = 0; c < w.m.nr_cpus(); ++c) {
        const std::uint32_t r = next() % 4;
        if (r != 0)
            w.run_on(c);
        w.set_load(c, next() % 2048);
        w.s.rq(c).idle_stamp = Time::ns(1 + next() % 1000);
    }
    for (std::size_t id = 0; id < w.d.domains().size(); ++id) {
        w.s.shared[id].has_idle_cores = next() % 2 == 0;
        w.s.shared[id].nr_idle_scan = static_cast<int>(next() % 5);
    }
}

TEST(DecisionRecord, NullRecordChoosesTheSameCpuAndLeavesTheSameState)
{
    for (const char* spec : {"llc=2,core=4,smt=2", "llc=1,cluster=2,core=4", "core=4,smt=2,capacity=800x2/1024x2",
                             "node=2,llc=2,core=4,smt=2"}) {
        for (std::uint32_t seed = 1; seed <= 40; ++seed) {
            World a(spec);
            World b(spec);
            scramble(a, seed);
            scramble(b, seed);
            const CpuId waker_cpu = static_cast<CpuId>(seed % static_cast<std::uint32_t>(a.m.nr_cpus()));
            if (a.s.rq(waker_cpu).curr == kNoTask) {
                a.run_on(waker_cpu);
                b.run_on(waker_cpu);
            }
            const CpuId prev = static_cast<CpuId>((seed * 7) % static_cast<std::uint32_t>(a.m.nr_cpus()));
            const TaskId pa = a.add_task(prev);
            const TaskId pb = b.add_task(prev);
            a.s.task(pa).recent_used_cpu = b.s.task(pb).recent_used_cpu = (prev + 3) % a.m.nr_cpus();
            a.s.task(pa).se.avg.load_avg = b.s.task(pb).se.avg.load_avg = seed * 37 % 1024;
            a.s.task(pa).se.avg.util_avg = b.s.task(pb).se.avg.util_avg = seed * 53 % 1024;
            const unsigned int flags = seed % 3 == 0 ? (WF_TTWU | WF_SYNC) : seed % 5 == 0 ? WF_FORK : WF_TTWU;

            DecisionRecord rec;
            WakePath path_a = WakePath::Count;
            WakePath path_b = WakePath::Count;
            const CpuId with = a.wake(waker_cpu, pa, flags, &rec, &path_a);
            const CpuId without = b.wake(waker_cpu, pb, flags, nullptr, &path_b);
            ASSERT_EQ(with, without) << spec << " seed " << seed;
            EXPECT_EQ(rec.chosen, with);
            EXPECT_EQ(path_a, path_b);
            EXPECT_EQ(rec.path, path_a);
            EXPECT_EQ(a.s.task(pa).recent_used_cpu, b.s.task(pb).recent_used_cpu);
            for (std::size_t id = 0; id < a.s.shared.size(); ++id)
                EXPECT_EQ(a.s.shared[id].has_idle_cores, b.s.shared[id].has_idle_cores);
            EXPECT_FALSE(rec.steps.empty());
        }
    }
}

}  // namespace
}  // namespace wb

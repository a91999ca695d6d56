// SPDX-License-Identifier: Apache-2.0
#include "sched/eevdf.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sched/eevdf_tree.h"
#include "sched/sched_state.h"
#include "topology/sched_domains.h"
#include "topology/synthetic.h"

namespace wb {
namespace {

using ::testing::HasSubstr;

// A machine, its domains and the scheduler state over them. The state
// points into the first two, so a Rig never moves.
struct Rig {
    explicit Rig(std::string_view spec = "core=2", std::string_view features = "")
        : machine(parse_synthetic(spec)), domains(SchedDomains::build(machine))
    {
        FeatureSet feats;
        EXPECT_EQ(feats.apply(features), "");
        s = make_sched_state(machine, domains, feats);
    }
    Rig(const Rig&) = delete;
    Rig& operator=(const Rig&) = delete;

    TaskId add_task(int nice = 0, SchedPolicy policy = SchedPolicy::Normal)
    {
        Task t;
        t.id = static_cast<TaskId>(s.tasks.size());
        t.name = "t" + std::to_string(t.id);
        t.nice = nice;
        t.policy = policy;
        t.cpus_allowed = machine.all_cpus();
        t.nr_cpus_allowed = machine.nr_cpus();
        set_load_weight(t);
        s.tasks.push_back(t);
        return t.id;
    }

    // A task already running for a while, woken onto `cpu` with no lag.
    TaskId wake(CpuId cpu, int nice = 0, unsigned flags = ENQUEUE_WAKEUP)
    {
        const TaskId id = add_task(nice);
        enqueue_task_fair(s, cpu, id, flags);
        return id;
    }

    void advance(Time d) { s.now += d; }
    SchedEntity& se(TaskId id) { return s.task(id).se; }
    CfsRq& cfs(CpuId cpu = 0) { return s.rq(cpu).cfs; }

    void expect_consistent(CpuId cpu = 0)
    {
        std::string why;
        EXPECT_TRUE(check_cfs_invariants(s, cpu, &why)) << why;
    }

    Machine machine;
    SchedDomains domains;
    SchedState s;
};

constexpr Time kMs = Time::ms(1);

TEST(EevdfWeights, FollowTheNiceTable)
{
    EXPECT_EQ(sched_prio_to_weight(0), 1024u);
    EXPECT_EQ(sched_prio_to_weight(-5), 3121u);
    EXPECT_EQ(sched_prio_to_weight(19), 15u);
    EXPECT_EQ(sched_prio_to_weight(-40), 88761u);  // clamped to nice -20
    Task idle;
    idle.policy = SchedPolicy::Idle;
    idle.nice = -10;
    EXPECT_EQ(task_load_weight(idle), kWeightIdlePrio);
}

TEST(EevdfWeights, CalcDeltaFairScalesByTheInverseWeight)
{
    SchedEntity se;
    EXPECT_EQ(calc_delta_fair(1000000, se), 1000000u);  // nice 0: real time is virtual time
    se.weight = sched_prio_to_weight(-5);
    // 1e6 * 1024 * wmult(3121) >> 32, as __calc_delta computes it.
    EXPECT_EQ(calc_delta_fair(1000000, se), (1000000ull * 1024 * 1376151) >> 32);
    EXPECT_NEAR(static_cast<double>(calc_delta_fair(1000000, se)), 1e6 * 1024 / 3121, 1.0);
    se.weight = sched_prio_to_weight(19);
    EXPECT_NEAR(static_cast<double>(calc_delta_fair(1000000, se)), 1e6 * 1024 / 15, 5.0);
}

TEST(Eevdf, TwoNiceZeroTasksAlternateInBaseSlices)
{
    Rig r("core=2");
    ASSERT_EQ(r.s.base_slice(), 1400000);  // 0.7 ms x (1 + ilog2(2))
    const TaskId a = r.wake(0);
    const TaskId b = r.wake(0);
    TaskId running = pick_next_task_fair(r.s, 0);
    ASSERT_EQ(running, a);  // equal deadlines: the one queued first
    Time started = r.s.now;
    std::vector<TaskId> order{running};
    for (int i = 0; i < 20; ++i) {
        r.s.now = fair_resched_time(r.s, 0);
        ASSERT_TRUE(task_tick_fair(r.s, 0));
        EXPECT_EQ((r.s.now - started).ns(), r.s.base_slice()) << "run " << i;
        const TaskId next = pick_next_task_fair(r.s, 0);
        EXPECT_NE(next, running) << "run " << i;
        running = next;
        started = r.s.now;
        order.push_back(running);
        r.expect_consistent();
    }
    EXPECT_EQ(order[1], b);
    EXPECT_EQ(r.se(a).sum_exec_runtime, 10u * static_cast<std::uint64_t>(r.s.base_slice()));
    EXPECT_EQ(r.se(b).sum_exec_runtime, r.se(a).sum_exec_runtime);
    EXPECT_EQ(r.s.task(running).state, TaskState::Running);
    EXPECT_EQ(r.s.task(running == a ? b : a).state, TaskState::Runnable);
}

TEST(Eevdf, NiceMinusFiveGetsAboutThreeTimesTheCpuOfNiceZero)
{
    Rig r("core=2");
    const TaskId heavy = r.wake(0, -5);
    const TaskId light = r.wake(0, 0);
    pick_next_task_fair(r.s, 0);
    const Time tick = Time::ns(1000000000 / static_cast<std::int64_t>(r.machine.costs[Cost::hz]));
    while (r.s.now < Time::s(1)) {
        r.advance(tick);
        if (task_tick_fair(r.s, 0))
            pick_next_task_fair(r.s, 0);
    }
    const double ratio = static_cast<double>(r.se(heavy).sum_exec_runtime) / r.se(light).sum_exec_runtime;
    EXPECT_NEAR(ratio, 3121.0 / 1024.0, 0.25);
    EXPECT_NEAR(static_cast<double>(r.se(heavy).sum_exec_runtime + r.se(light).sum_exec_runtime), 1e9, 1e6);
    r.expect_consistent();
}

TEST(Eevdf, WakingTaskKeepsItsLagInflatedByTheQueueWeight)
{
    Rig r("core=2");
    r.wake(0);
    r.wake(0, -5);
    pick_next_task_fair(r.s, 0);
    r.advance(kMs);
    update_curr(r.s, 0);

    const TaskId c = r.add_task(0);
    r.se(c).vlag = 300000;
    const std::int64_t v = cfs_avg_vruntime(r.s, 0);
    const auto big_w = static_cast<std::int64_t>((1024 + 3121) << 10);  // W: the two queued, curr included
    const auto w = static_cast<std::int64_t>(1024 << 10);
    enqueue_task_fair(r.s, 0, c, ENQUEUE_WAKEUP);

    EXPECT_EQ(r.se(c).vruntime, v - 300000 * (big_w + w) / big_w);
    // The point of the inflation: once c's own weight has moved V, c is
    // owed exactly the lag it left with.
    EXPECT_NEAR(static_cast<double>(cfs_avg_vruntime(r.s, 0) - r.se(c).vruntime), 300000.0, 1.0);
    r.expect_consistent();
}

TEST(Eevdf, WithoutPlaceLagAWakingTaskStartsAtV)
{
    Rig r("core=2", "NO_PLACE_LAG");
    r.wake(0);
    r.wake(0);
    pick_next_task_fair(r.s, 0);
    r.advance(kMs);
    update_curr(r.s, 0);
    const TaskId c = r.add_task(0);
    r.se(c).vlag = 300000;
    const std::int64_t v = cfs_avg_vruntime(r.s, 0);
    enqueue_task_fair(r.s, 0, c, ENQUEUE_WAKEUP);
    EXPECT_EQ(r.se(c).vruntime, v);
}

TEST(Eevdf, NewTaskFirstDeadlineIsHalfASlice)
{
    Rig r("core=2");
    r.wake(0);
    const TaskId child = r.add_task(0);
    enqueue_task_fair(r.s, 0, child, ENQUEUE_INITIAL);
    EXPECT_EQ(r.se(child).deadline - r.se(child).vruntime, r.s.base_slice() / 2);

    Rig full("core=2", "NO_PLACE_DEADLINE_INITIAL");
    full.wake(0);
    const TaskId other = full.add_task(0);
    enqueue_task_fair(full.s, 0, other, ENQUEUE_INITIAL);
    EXPECT_EQ(full.se(other).deadline - full.se(other).vruntime, full.s.base_slice());
}

// B runs its slice first, then A is picked and runs 0.1 ms: A is eligible,
// protected to its deadline, when a task with a 0.1 ms slice wakes.
struct ShortWakeup {
    explicit ShortWakeup(std::string_view features) : r("core=2", features)
    {
        b = r.wake(0);  // queued first: the first pick of two equal tasks
        a = r.wake(0);
        EXPECT_EQ(pick_next_task_fair(r.s, 0), b);
        r.s.now = fair_resched_time(r.s, 0);
        task_tick_fair(r.s, 0);
        EXPECT_EQ(pick_next_task_fair(r.s, 0), a);
        r.advance(Time::us(100));
        c = r.add_task(0);
        r.se(c).custom_slice = true;
        r.se(c).slice = 100000;
        enqueue_task_fair(r.s, 0, c, ENQUEUE_WAKEUP);
    }
    Rig r;
    TaskId a = kNoTask, b = kNoTask, c = kNoTask;
};

TEST(EevdfWakeupPreempt, ShorterSliceWakeeCutsTheProtection)
{
    ShortWakeup w("");
    ASSERT_TRUE(entity_eligible(w.r.s, 0, w.a));
    ASSERT_LT(w.r.se(w.a).vruntime, w.r.se(w.a).vprot);
    EXPECT_TRUE(wakeup_preempt_fair(w.r.s, 0, w.c, WF_TTWU));
    EXPECT_EQ(w.r.se(w.a).vprot, w.r.se(w.a).vruntime);  // protection cancelled
    EXPECT_EQ(w.r.cfs().next, w.c);                      // and the short task goes next
    EXPECT_EQ(pick_next_task_fair(w.r.s, 0), w.c);
}

TEST(EevdfWakeupPreempt, WithoutPreemptShortTheProtectionHolds)
{
    ShortWakeup w("NO_PREEMPT_SHORT");
    EXPECT_FALSE(wakeup_preempt_fair(w.r.s, 0, w.c, WF_TTWU));
    EXPECT_EQ(w.r.cfs().next, kNoTask);
}

// A ran 1 ms while B waited: A is no longer eligible. C wakes with 1 ms of
// positive lag, so it is eligible with the earliest deadline.
struct LagWakeup {
    LagWakeup()
    {
        a = r.wake(0);
        b = r.wake(0);
        EXPECT_EQ(pick_next_task_fair(r.s, 0), a);
        r.advance(kMs);
        c = r.add_task(0);
        r.se(c).vlag = 1000000;
        enqueue_task_fair(r.s, 0, c, ENQUEUE_WAKEUP);
    }
    Rig r;
    TaskId a = kNoTask, b = kNoTask, c = kNoTask;
};

TEST(EevdfWakeupPreempt, EligibleWakeeWithEarliestDeadlinePreempts)
{
    LagWakeup w;
    EXPECT_TRUE(wakeup_preempt_fair(w.r.s, 0, w.c, WF_TTWU));
    EXPECT_TRUE(w.r.cfs().need_resched);
    EXPECT_EQ(pick_next_task_fair(w.r.s, 0), w.c);
}

TEST(EevdfWakeupPreempt, ForkNeverPreempts)
{
    LagWakeup w;
    EXPECT_FALSE(wakeup_preempt_fair(w.r.s, 0, w.c, WF_FORK));
    EXPECT_FALSE(w.r.cfs().need_resched);
}

TEST(EevdfWakeupPreempt, NoWakeupPreemptionFeatureMeansNoPreemption)
{
    LagWakeup w;
    w.r.s.feats.set(Feat::WAKEUP_PREEMPTION, false);
    EXPECT_FALSE(wakeup_preempt_fair(w.r.s, 0, w.c, WF_TTWU));
}

TEST(EevdfWakeupPreempt, IdleTaskIsAlwaysPreempted)
{
    Rig r("core=2");
    const TaskId a = r.wake(0);
    EXPECT_EQ(r.s.rq(0).curr, kNoTask);
    EXPECT_TRUE(wakeup_preempt_fair(r.s, 0, a, WF_TTWU));
}

TEST(EevdfWakeupPreempt, SchedIdleRules)
{
    Rig r("core=2");
    const TaskId background = r.add_task(0, SchedPolicy::Idle);
    enqueue_task_fair(r.s, 0, background, ENQUEUE_WAKEUP);
    ASSERT_EQ(pick_next_task_fair(r.s, 0), background);
    EXPECT_EQ(r.cfs().h_nr_idle, 1u);
    r.advance(Time::us(10));
    // A normal task preempts SCHED_IDLE, even a newly forked one.
    const TaskId normal = r.wake(0);
    EXPECT_TRUE(wakeup_preempt_fair(r.s, 0, normal, WF_FORK));
    ASSERT_EQ(pick_next_task_fair(r.s, 0), normal);
    // The reverse never happens.
    const TaskId other_idle = r.add_task(0, SchedPolicy::Idle);
    r.se(other_idle).vlag = 5000000;
    enqueue_task_fair(r.s, 0, other_idle, ENQUEUE_WAKEUP);
    EXPECT_FALSE(wakeup_preempt_fair(r.s, 0, other_idle, WF_TTWU));
    EXPECT_EQ(r.cfs().h_nr_idle, 2u);
    r.expect_consistent();
}

// NEXT_BUDDY on: curr ran 0.5 ms, the wakee has lag and an earlier deadline.
bool next_buddy_wakeup(unsigned wake_flags, std::int64_t migration_cost, TaskId* buddy)
{
    Rig r("core=2", "NEXT_BUDDY");
    r.s.tunables.migration_cost = migration_cost;
    r.wake(0);
    r.wake(0);
    pick_next_task_fair(r.s, 0);
    r.advance(Time::us(500));
    const TaskId wakee = r.add_task(0);
    r.se(wakee).vlag = 500000;
    enqueue_task_fair(r.s, 0, wakee, ENQUEUE_WAKEUP);
    const bool preempt = wakeup_preempt_fair(r.s, 0, wakee, wake_flags);
    *buddy = r.cfs().next == wakee ? wakee : kNoTask;
    return preempt;
}

TEST(EevdfWakeupPreempt, NextBuddyMakesTheWakeeThePick)
{
    TaskId buddy = kNoTask;
    EXPECT_TRUE(next_buddy_wakeup(WF_TTWU, 500000, &buddy));
    EXPECT_NE(buddy, kNoTask);
}

TEST(EevdfWakeupPreempt, SyncTestMeasuresTheRunAfterUpdateCurr)
{
    // The kernel's sync test compares now - exec_start with the threshold
    // right after update_curr() has set exec_start to now: it never
    // preempts unless the threshold is 0. The buddy is still nominated.
    TaskId buddy = kNoTask;
    EXPECT_FALSE(next_buddy_wakeup(WF_TTWU | WF_SYNC, 500000, &buddy));
    EXPECT_NE(buddy, kNoTask);
    EXPECT_FALSE(next_buddy_wakeup(WF_TTWU | WF_SYNC | WF_RQ_SELECTED, 500000, &buddy));
    EXPECT_TRUE(next_buddy_wakeup(WF_TTWU | WF_SYNC, 0, &buddy));
}

TEST(EevdfRunToParity, ProtectsCurrUntilItsDeadline)
{
    // Two CPUs: base slice 1.4 ms, normalized slice 0.7 ms.
    Rig on("core=2", "NO_PREEMPT_SHORT");
    Rig off("core=2", "NO_PREEMPT_SHORT,NO_RUN_TO_PARITY");
    for (Rig* r : {&on, &off}) {
        r->wake(0);
        r->wake(0);
        pick_next_task_fair(r->s, 0);
        r->advance(Time::us(800));
    }
    EXPECT_EQ(fair_resched_time(on.s, 0), Time::us(1400));
    EXPECT_EQ(fair_resched_time(off.s, 0), Time::us(700));
    EXPECT_FALSE(task_tick_fair(on.s, 0));  // 0.8 ms in, protected up to its 1.4 ms deadline
    EXPECT_TRUE(task_tick_fair(off.s, 0));  // only the 0.7 ms normalized slice is protected
    EXPECT_EQ(pick_next_task_fair(off.s, 0), 1);
}

TEST(EevdfRunToParity, ShortestQueuedSliceBoundsTheProtection)
{
    Rig r("core=2", "NO_PREEMPT_SHORT");
    const TaskId a = r.wake(0);
    const TaskId b = r.add_task(0);
    r.se(b).custom_slice = true;
    r.se(b).slice = 300000;
    enqueue_task_fair(r.s, 0, b, ENQUEUE_WAKEUP);
    ASSERT_EQ(pick_next_task_fair(r.s, 0), b);  // same vruntime, earlier deadline
    r.s.now = fair_resched_time(r.s, 0);
    task_tick_fair(r.s, 0);
    ASSERT_EQ(pick_next_task_fair(r.s, 0), a);
    // a's slice is 1.4 ms but b's 0.3 ms bounds how long a is protected.
    EXPECT_EQ(r.se(a).vprot - r.se(a).vruntime, 300000);
}

TEST(EevdfUpdateCurr, FairReschedTimeIsTheFirstInstantUpdateCurrAsksToSwitch)
{
    Rig r("core=2");
    const TaskId heavy = r.wake(0, -3);  // shorter virtual slice: picked first
    r.wake(0, 0);
    ASSERT_EQ(pick_next_task_fair(r.s, 0), heavy);
    const Time at = fair_resched_time(r.s, 0);
    EXPECT_NEAR(static_cast<double>(at.ns()), 1.4e6, 2.0);  // its wall-clock slice
    SchedState early = r.s;
    early.now = at - Time::ns(1);
    EXPECT_FALSE(update_curr(early, 0));
    SchedState exact = r.s;
    exact.now = at;
    EXPECT_TRUE(update_curr(exact, 0));
}

TEST(EevdfUpdateCurr, OnlyTaskIsNeverAskedToSwitch)
{
    Rig r("core=2");
    const TaskId a = r.wake(0);
    pick_next_task_fair(r.s, 0);
    r.advance(kMs * 10);
    EXPECT_FALSE(update_curr(r.s, 0));
    EXPECT_EQ(r.se(a).sum_exec_runtime, 10000000u);
    EXPECT_GE(r.se(a).deadline, r.se(a).vruntime);  // deadlines renewed as it ran
    EXPECT_EQ(fair_resched_time(r.s, 0), Time::max());
}

// A ran 1 ms while B waited, then slept (in io_schedule() if `io`):
// ineligible, so it stays queued.
struct DelayedSleep {
    explicit DelayedSleep(std::string_view features = "", bool io = false) : r("core=2", features)
    {
        a = r.wake(0);
        b = r.wake(0);
        EXPECT_EQ(pick_next_task_fair(r.s, 0), a);
        r.advance(kMs);
        r.s.task(a).state = TaskState::Sleeping;
        r.s.task(a).in_iowait = io;
        dequeued = dequeue_task_fair(r.s, 0, a, DEQUEUE_SLEEP);
    }
    Rig r;
    TaskId a = kNoTask, b = kNoTask;
    bool dequeued = true;
};

TEST(EevdfDelayDequeue, IneligibleSleeperStaysQueued)
{
    DelayedSleep d;
    EXPECT_FALSE(d.dequeued);
    EXPECT_TRUE(d.r.se(d.a).on_rq);
    EXPECT_TRUE(d.r.se(d.a).sched_delayed);
    EXPECT_EQ(d.r.s.rq(0).nr_running, 2u);
    EXPECT_EQ(d.r.cfs().h_nr_queued, 2u);
    EXPECT_EQ(d.r.cfs().h_nr_runnable, 1u);
    EXPECT_EQ(cfs_h_nr_delayed(d.r.s.rq(0)), 1u);
    EXPECT_LT(d.r.se(d.a).vlag, 0);
    d.r.expect_consistent();
    EXPECT_EQ(pick_next_task_fair(d.r.s, 0), d.b);
    EXPECT_TRUE(d.r.se(d.a).sched_delayed);  // still there, behind b
    d.r.expect_consistent();
}

TEST(EevdfDelayDequeue, SpecialSleeperLeavesAtOnceEvenIfIneligible)
{
    // The same ineligible sleeper as DelayedSleep, in a special task state.
    Rig r("core=2");
    const TaskId a = r.wake(0);
    const TaskId b = r.wake(0);
    ASSERT_EQ(pick_next_task_fair(r.s, 0), a);
    r.advance(kMs);
    r.s.task(a).state = TaskState::Sleeping;
    EXPECT_TRUE(dequeue_task_fair(r.s, 0, a, DEQUEUE_SLEEP | DEQUEUE_SPECIAL));
    EXPECT_FALSE(r.se(a).on_rq);
    EXPECT_FALSE(r.se(a).sched_delayed);
    EXPECT_LT(r.se(a).vlag, 0);
    EXPECT_EQ(r.cfs().h_nr_queued, 1u);
    EXPECT_EQ(r.cfs().h_nr_runnable, 1u);
    EXPECT_EQ(r.s.rq(0).nr_running, 1u);
    r.expect_consistent();
    EXPECT_EQ(pick_next_task_fair(r.s, 0), b);
}

TEST(EevdfDelayDequeue, WakeupRequeuesInPlace)
{
    DelayedSleep d;
    pick_next_task_fair(d.r.s, 0);
    d.r.advance(Time::us(200));
    const std::int64_t vruntime = d.r.se(d.a).vruntime;
    const std::int64_t deadline = d.r.se(d.a).deadline;
    d.r.s.task(d.a).state = TaskState::Runnable;
    enqueue_task_fair(d.r.s, 0, d.a, ENQUEUE_WAKEUP | ENQUEUE_DELAYED);
    EXPECT_FALSE(d.r.se(d.a).sched_delayed);
    EXPECT_EQ(d.r.se(d.a).vruntime, vruntime);
    EXPECT_EQ(d.r.se(d.a).deadline, deadline);
    EXPECT_EQ(d.r.cfs().h_nr_runnable, 2u);
    EXPECT_EQ(d.r.s.rq(0).nr_running, 2u);
    d.r.expect_consistent();
}

TEST(EevdfDelayDequeue, DequeuedForGoodWhenPicked)
{
    DelayedSleep d;
    ASSERT_EQ(pick_next_task_fair(d.r.s, 0), d.b);
    // b runs its slice; meanwhile V passes a, whose deadline is now the earliest.
    d.r.s.now = fair_resched_time(d.r.s, 0);
    ASSERT_TRUE(task_tick_fair(d.r.s, 0));
    ASSERT_TRUE(entity_eligible(d.r.s, 0, d.a));
    EXPECT_EQ(pick_eevdf(d.r.s, 0, true), d.a);
    EXPECT_EQ(pick_next_task_fair(d.r.s, 0), d.b);  // a met, dequeued, b picked instead
    EXPECT_FALSE(d.r.se(d.a).on_rq);
    EXPECT_FALSE(d.r.se(d.a).sched_delayed);
    EXPECT_EQ(d.r.s.rq(0).nr_running, 1u);
    EXPECT_EQ(d.r.cfs().h_nr_queued, 1u);
    EXPECT_EQ(d.r.cfs().h_nr_runnable, 1u);
    EXPECT_EQ(d.r.se(d.a).vlag, 0);  // DELAY_ZERO: the credit earned while delayed is dropped
    d.r.expect_consistent();
}

TEST(EevdfDelayDequeue, WithoutDelayZeroTheCreditIsKept)
{
    DelayedSleep d("NO_DELAY_ZERO");
    pick_next_task_fair(d.r.s, 0);
    d.r.s.now = fair_resched_time(d.r.s, 0);
    task_tick_fair(d.r.s, 0);
    pick_next_task_fair(d.r.s, 0);
    EXPECT_FALSE(d.r.se(d.a).on_rq);
    EXPECT_GT(d.r.se(d.a).vlag, 0);
}

TEST(EevdfDelayDequeue, LastTaskLeavesWhenTheCpuFindsOnlyIt)
{
    DelayedSleep d;
    ASSERT_EQ(pick_next_task_fair(d.r.s, 0), d.b);
    d.r.advance(Time::us(100));
    d.r.s.task(d.b).state = TaskState::Sleeping;
    dequeue_task_fair(d.r.s, 0, d.b, DEQUEUE_SLEEP);
    EXPECT_EQ(pick_next_task_fair(d.r.s, 0), kNoTask);
    EXPECT_EQ(d.r.s.rq(0).nr_running, 0u);
    EXPECT_EQ(d.r.cfs().h_nr_queued, 0u);
    EXPECT_TRUE(idle_cpu(d.r.s.rq(0)));
    d.r.expect_consistent();
}

TEST(EevdfDelayDequeue, NoDelayDequeueDequeuesAtOnce)
{
    DelayedSleep d("NO_DELAY_DEQUEUE");
    EXPECT_TRUE(d.dequeued);
    EXPECT_FALSE(d.r.se(d.a).on_rq);
    EXPECT_EQ(d.r.s.rq(0).nr_running, 1u);
    EXPECT_EQ(d.r.cfs().h_nr_runnable, 1u);
    d.r.expect_consistent();
}

TEST(EevdfDelayDequeue, EligibleSleeperLeavesAtOnce)
{
    Rig r("core=2");
    const TaskId a = r.wake(0);
    r.wake(0);
    ASSERT_EQ(pick_next_task_fair(r.s, 0), a);
    // Sleeps before running at all: at V, so eligible (a single ns would not be).
    EXPECT_TRUE(dequeue_task_fair(r.s, 0, a, DEQUEUE_SLEEP));
    EXPECT_EQ(r.s.rq(0).nr_running, 1u);
}

// The sleep dequeue judges eligibility from the lag it has just stored; it
// must agree with the exact, cross-multiplied test, also just past V where
// the rounding of V matters and with weights that do not divide evenly.
TEST(EevdfDelayDequeue, DelayedExactlyWhenIneligible)
{
    std::mt19937 rng(20261130);
    int delayed = 0, left = 0;
    for (int round = 0; round < 300; ++round) {
        Rig r("core=2");
        const int tasks = 2 + static_cast<int>(rng() % 3);
        for (int i = 0; i < tasks; ++i)
            r.wake(0, static_cast<int>(rng() % 7) - 3);
        const TaskId curr = pick_next_task_fair(r.s, 0);
        r.advance(Time::ns(static_cast<std::int64_t>(rng() % 2 ? rng() % 4 : rng() % 2000000)));
        update_curr(r.s, 0);
        const bool eligible = entity_eligible(r.s, 0, curr);
        r.s.task(curr).state = TaskState::Sleeping;
        EXPECT_EQ(dequeue_task_fair(r.s, 0, curr, DEQUEUE_SLEEP), eligible) << "round " << round;
        ++(eligible ? left : delayed);
        r.expect_consistent();
    }
    EXPECT_GT(delayed, 0);
    EXPECT_GT(left, 0);
}

TEST(EevdfMigration, PeltLeavesTheOldRunqueueAndJoinsTheNew)
{
    Rig r("core=2");
    const TaskId a = r.wake(0);
    pick_next_task_fair(r.s, 0);
    for (int i = 0; i < 100; ++i) {
        r.advance(kMs);
        task_tick_fair(r.s, 0);
    }
    EXPECT_GT(r.se(a).avg.util_avg, 850u);
    EXPECT_NEAR(static_cast<double>(r.cfs(0).avg.util_avg), static_cast<double>(r.se(a).avg.util_avg), 20.0);
    dequeue_task_fair(r.s, 0, a, DEQUEUE_SLEEP);
    pick_next_task_fair(r.s, 0);
    r.advance(kMs * 2);
    update_cfs_rq_load_avg(r.s, 0);
    EXPECT_GT(r.cfs(0).avg.load_avg, 700u);  // blocked load stays until a leaves

    set_task_cpu(r.s, a, 1);
    EXPECT_LT(r.cfs(0).avg.load_avg, 5u);
    EXPECT_LT(r.cfs(0).avg.util_avg, 5u);
    EXPECT_EQ(r.se(a).avg.last_update_time, 0u);
    EXPECT_EQ(r.s.task(a).cpu, 1);

    enqueue_task_fair(r.s, 1, a, ENQUEUE_WAKEUP | ENQUEUE_MIGRATED);
    EXPECT_EQ(r.se(a).exec_start, 0u);
    EXPECT_NEAR(static_cast<double>(r.cfs(1).avg.load_avg), static_cast<double>(r.se(a).avg.load_avg), 2.0);
    EXPECT_NEAR(static_cast<double>(r.cfs(1).avg.util_avg), static_cast<double>(r.se(a).avg.util_avg), 2.0);
    r.expect_consistent(0);
    r.expect_consistent(1);
}

TEST(EevdfMigration, AttachAgeLoadAgesTheSleepBeforeAttaching)
{
    unsigned long aged = 0, stale = 0, before = 0;
    for (bool age : {true, false}) {
        Rig r("core=2", age ? "" : "NO_ATTACH_AGE_LOAD");
        const TaskId a = r.wake(0);
        pick_next_task_fair(r.s, 0);
        for (int i = 0; i < 100; ++i) {
            r.advance(kMs);
            task_tick_fair(r.s, 0);
        }
        dequeue_task_fair(r.s, 0, a, DEQUEUE_SLEEP);
        pick_next_task_fair(r.s, 0);
        before = r.se(a).avg.util_avg;
        r.advance(kMs * 32);
        set_task_cpu(r.s, a, 1);
        enqueue_task_fair(r.s, 1, a, ENQUEUE_WAKEUP | ENQUEUE_MIGRATED);
        (age ? aged : stale) = r.se(a).avg.util_avg;
    }
    EXPECT_NEAR(static_cast<double>(aged), before / 2.0, before * 0.03);
    EXPECT_EQ(stale, before);
}

TEST(EevdfMigration, DeadTaskTakesItsLoadAway)
{
    Rig r("core=2");
    const TaskId a = r.wake(0);
    r.wake(0);
    pick_next_task_fair(r.s, 0);
    for (int i = 0; i < 50; ++i) {
        r.advance(kMs);
        if (task_tick_fair(r.s, 0))
            pick_next_task_fair(r.s, 0);
    }
    const TaskId victim = r.s.rq(0).curr == a ? a : r.s.rq(0).curr;
    r.s.task(victim).state = TaskState::Dead;
    dequeue_task_fair(r.s, 0, victim, DEQUEUE_SLEEP);
    EXPECT_THROW(task_dead_fair(r.s, victim), std::logic_error);  // not switched out yet
    pick_next_task_fair(r.s, 0);
    update_cfs_rq_load_avg(r.s, 0);
    const unsigned long before = r.cfs().avg.load_avg;
    const unsigned long own = r.se(victim).avg.load_avg;
    task_dead_fair(r.s, victim);
    EXPECT_NEAR(static_cast<double>(r.cfs().avg.load_avg), static_cast<double>(before - own), 2.0);
    EXPECT_GT(own, 300u);
    r.expect_consistent();
}

TEST(EevdfMigration, DelayedTaskFinishesItsDequeueFirst)
{
    DelayedSleep d;
    pick_next_task_fair(d.r.s, 0);
    set_task_cpu(d.r.s, d.a, 1);
    EXPECT_FALSE(d.r.se(d.a).on_rq);
    EXPECT_FALSE(d.r.se(d.a).sched_delayed);
    EXPECT_EQ(d.r.s.rq(0).nr_running, 1u);
    d.r.expect_consistent(0);
    d.r.expect_consistent(1);
}

// nr_iowait counts a sleeper in io_schedule() once it has left the
// runqueue (__block_task()), where it is until its wakeup.
TEST(EevdfIowait, ASleeperThatLeavesAtOnceCountsWhereItSlept)
{
    DelayedSleep d("NO_DELAY_DEQUEUE", true);
    EXPECT_TRUE(d.dequeued);
    EXPECT_EQ(d.r.s.rq(0).nr_iowait, 1);
    EXPECT_EQ(d.r.s.rq(1).nr_iowait, 0);
}

TEST(EevdfIowait, ADelayedSleeperCountsOnlyOnceItsDequeueFinishes)
{
    DelayedSleep d("", true);
    ASSERT_FALSE(d.dequeued);
    EXPECT_EQ(d.r.s.rq(0).nr_iowait, 0);  // still queued: a wakeup requeues it in place
    ASSERT_EQ(pick_next_task_fair(d.r.s, 0), d.b);
    d.r.s.now = fair_resched_time(d.r.s, 0);
    ASSERT_TRUE(task_tick_fair(d.r.s, 0));
    ASSERT_EQ(pick_next_task_fair(d.r.s, 0), d.b);  // a met and dequeued for good
    ASSERT_FALSE(d.r.se(d.a).on_rq);
    EXPECT_EQ(d.r.s.rq(0).nr_iowait, 1);
}

TEST(EevdfIowait, ADelayedSleeperMovedByLoadBalancingTakesItsCountAlong)
{
    // The soak's finding: the count stayed on CPU 0 while the task, now on
    // CPU 1, was later woken there and uncounted from CPU 1.
    DelayedSleep d("", true);
    pick_next_task_fair(d.r.s, 0);
    set_task_cpu(d.r.s, d.a, 1);
    EXPECT_EQ(d.r.s.rq(0).nr_iowait, 0);
    EXPECT_EQ(d.r.s.rq(1).nr_iowait, 1);
}

TEST(EevdfMigration, QueuedMoveKeepsTheRelativeDeadline)
{
    // b was forked (half-slice request) and waits; the balancer moves it.
    for (bool rel : {true, false}) {
        Rig r("core=2", rel ? "" : "NO_PLACE_REL_DEADLINE");
        r.wake(0);
        pick_next_task_fair(r.s, 0);
        r.advance(Time::us(300));
        const TaskId b = r.wake(0, 0, ENQUEUE_INITIAL);
        ASSERT_EQ(r.se(b).deadline - r.se(b).vruntime, r.s.base_slice() / 2);
        move_queued_task_fair(r.s, b, 1);
        EXPECT_EQ(r.s.task(b).cpu, 1);
        // With PLACE_REL_DEADLINE the rest of its request moves with it;
        // without, it gets a fresh full slice on arrival.
        EXPECT_EQ(r.se(b).deadline - r.se(b).vruntime, rel ? r.s.base_slice() / 2 : r.s.base_slice());
        EXPECT_FALSE(r.se(b).rel_deadline);
        EXPECT_EQ(r.s.rq(0).nr_running, 1u);
        EXPECT_EQ(r.s.rq(1).nr_running, 1u);
        r.expect_consistent(0);
        r.expect_consistent(1);
    }
}

TEST(EevdfMigration, CurrTakenOffAndBackKeepsItsRequest)
{
    // A change of curr's parameters: dequeued without sleeping, enqueued
    // again while still curr. It must stay curr, off the tree, and resume
    // its request where it was.
    Rig r("core=2");
    const TaskId a = r.wake(0);
    ASSERT_EQ(pick_next_task_fair(r.s, 0), a);
    r.advance(Time::us(300));
    const TaskId b = r.wake(0);
    r.advance(Time::us(200));
    update_curr(r.s, 0);
    const std::int64_t request = r.se(a).deadline - r.se(a).vruntime;
    ASSERT_GT(request, 0);
    EXPECT_TRUE(dequeue_task_fair(r.s, 0, a, 0));
    EXPECT_TRUE(r.se(a).rel_deadline);
    EXPECT_EQ(r.cfs().h_nr_queued, 1u);
    enqueue_task_fair(r.s, 0, a, 0);
    EXPECT_EQ(r.cfs().curr, a);
    EXPECT_FALSE(r.se(a).rel_deadline);
    EXPECT_EQ(r.se(a).deadline - r.se(a).vruntime, request);
    EXPECT_EQ(r.cfs().h_nr_queued, 2u);
    EXPECT_EQ(r.cfs().h_nr_runnable, 2u);
    EXPECT_EQ(r.s.rq(0).nr_running, 2u);
    EXPECT_THAT(timeline_in_order(r.s.tasks, r.cfs().tasks_timeline), ::testing::ElementsAre(b));
    r.expect_consistent(0);
}

TEST(EevdfMigration, MisuseIsALogicErrorNamingTheFix)
{
    Rig r("core=2");
    const TaskId a = r.wake(0);
    EXPECT_THROW(migrate_task_rq_fair(r.s, a, 1), std::logic_error);
    EXPECT_THROW(enqueue_task_fair(r.s, 0, a, ENQUEUE_WAKEUP), std::logic_error);
    const TaskId b = r.add_task();
    r.s.task(b).cpu = 0;
    EXPECT_THROW(dequeue_task_fair(r.s, 0, b, DEQUEUE_SLEEP), std::logic_error);
    try {
        enqueue_task_fair(r.s, 1, b, ENQUEUE_WAKEUP);
        ADD_FAILURE() << "no exception";
    } catch (const std::logic_error& e) {
        EXPECT_THAT(e.what(), HasSubstr("belongs to CPU 0, not 1; set_task_cpu()"));
    }
    r.expect_consistent(0);
    r.expect_consistent(1);
}

TEST(EevdfPelt, NewTasksClaimHalfTheSpareCapacity)
{
    Rig r("core=2");
    const TaskId first = r.add_task();
    r.s.task(first).cpu = 0;
    post_init_entity_util_avg(r.s, first);
    EXPECT_EQ(r.se(first).avg.util_avg, 512u);
    EXPECT_EQ(r.se(first).avg.load_avg, 1024u);
    enqueue_task_fair(r.s, 0, first, ENQUEUE_INITIAL);
    EXPECT_EQ(r.cfs().avg.util_avg, 512u);

    const TaskId second = r.add_task();
    r.s.task(second).cpu = 0;
    post_init_entity_util_avg(r.s, second);
    EXPECT_EQ(r.se(second).avg.util_avg, 256u);  // (1024 - 512) / 2
}

TEST(EevdfPelt, UtilEstFollowsDequeuesOfTheTask)
{
    Rig r("core=2");
    const TaskId a = r.wake(0);
    const TaskId b = r.wake(0);
    pick_next_task_fair(r.s, 0);
    for (int i = 0; i < 50; ++i) {
        r.advance(kMs);
        if (task_tick_fair(r.s, 0))
            pick_next_task_fair(r.s, 0);
    }
    const TaskId running = r.s.rq(0).curr;
    const SchedAvg before = r.se(running).avg;
    r.s.task(running).state = TaskState::Sleeping;
    dequeue_task_fair(r.s, 0, running, DEQUEUE_SLEEP);
    EXPECT_EQ(r.se(running).avg.util_est, r.se(running).avg.util_avg);  // jumped up from 0
    EXPECT_GT(r.se(running).avg.util_est, before.util_est);
    EXPECT_TRUE(r.se(running).util_avg_unchanged);
    // Only the queued, runnable task counts in the runqueue's estimate.
    const TaskId other = running == a ? b : a;
    EXPECT_EQ(r.cfs().avg.util_est, r.se(other).avg.util_est);
    r.expect_consistent();
    // Woken again (in place if it was delayed), it brings its estimate back.
    r.advance(Time::us(300));
    r.s.task(running).state = TaskState::Runnable;
    enqueue_task_fair(r.s, 0, running, ENQUEUE_WAKEUP);
    EXPECT_EQ(r.cfs().avg.util_est, r.se(other).avg.util_est + r.se(running).avg.util_est);
    EXPECT_GT(r.cfs().avg.util_est, 0u);
    r.expect_consistent();
}

TEST(EevdfInvariants, CheckerReportsWhatIsWrong)
{
    Rig r("core=2");
    r.wake(0);
    r.wake(0);
    std::string why;
    ASSERT_TRUE(check_cfs_invariants(r.s, 0, &why)) << why;
    ++r.cfs().h_nr_runnable;
    EXPECT_FALSE(check_cfs_invariants(r.s, 0, &why));
    EXPECT_THAT(why, HasSubstr("h_nr_runnable 3 but 2"));
    --r.cfs().h_nr_runnable;
    r.cfs().sum_w_vruntime += 1;
    EXPECT_FALSE(check_cfs_invariants(r.s, 0, &why));
    EXPECT_THAT(why, HasSubstr("EEVDF sums"));
}

TEST(EevdfInvariants, HoldAfterRandomOperations)
{
    Rig r("core=2");
    std::mt19937 rng(20260817);
    constexpr int kTasks = 8;
    for (int i = 0; i < kTasks; ++i) {
        const TaskId id =
            r.add_task(static_cast<int>(rng() % 11) - 5, i == 7 ? SchedPolicy::Idle : SchedPolicy::Normal);
        Task& t = r.s.task(id);
        t.cpu = static_cast<CpuId>(i % 2);
        post_init_entity_util_avg(r.s, id);
        enqueue_task_fair(r.s, t.cpu, id, ENQUEUE_INITIAL);
        t.state = TaskState::Runnable;
        if (wakeup_preempt_fair(r.s, t.cpu, id, WF_FORK))
            pick_next_task_fair(r.s, t.cpu);
    }
    int delayed_wakeups = 0, sleeps = 0, delayed_sleeps = 0, moves = 0;
    for (int step = 0; step < 6000; ++step) {
        const auto cpu = static_cast<CpuId>(rng() % 2);
        switch (rng() % 5) {
        case 0: {  // time passes; both CPUs tick
            r.advance(Time::us(50 + rng() % 3000));
            for (CpuId c = 0; c < 2; ++c)
                if (task_tick_fair(r.s, c))
                    pick_next_task_fair(r.s, c);
            break;
        }
        case 1: {  // the running task sleeps
            const TaskId curr = r.s.rq(cpu).curr;
            if (curr == kNoTask)
                break;
            r.s.task(curr).state = TaskState::Sleeping;
            if (!dequeue_task_fair(r.s, cpu, curr, DEQUEUE_SLEEP))
                ++delayed_sleeps;
            pick_next_task_fair(r.s, cpu);
            ++sleeps;
            break;
        }
        case 2:
        case 3: {  // a sleeper wakes: in place if still delayed, else on a random CPU
            const auto id = static_cast<TaskId>(rng() % kTasks);
            Task& t = r.s.task(id);
            if (t.state != TaskState::Sleeping || r.s.rq(t.cpu).cfs.curr == id)
                break;
            CpuId target = t.cpu;
            unsigned flags = ENQUEUE_WAKEUP;
            if (t.se.sched_delayed) {
                flags |= ENQUEUE_DELAYED;
                ++delayed_wakeups;
            } else if (rng() % 2) {
                target = 1 - t.cpu;
                set_task_cpu(r.s, id, target);
                flags |= ENQUEUE_MIGRATED;
            }
            t.state = TaskState::Runnable;
            enqueue_task_fair(r.s, target, id, flags);
            if (wakeup_preempt_fair(r.s, target, id, WF_TTWU) || r.s.rq(target).cfs.need_resched)
                pick_next_task_fair(r.s, target);
            break;
        }
        case 4: {  // the balancer moves a waiting task
            for (TaskId id : timeline_in_order(r.s.tasks, r.s.rq(cpu).cfs.tasks_timeline)) {
                if (!r.s.task(id).se.sched_delayed) {
                    move_queued_task_fair(r.s, id, 1 - cpu);
                    if (r.s.rq(1 - cpu).curr == kNoTask)
                        pick_next_task_fair(r.s, 1 - cpu);
                    ++moves;
                    break;
                }
            }
            break;
        }
        }
        for (CpuId c = 0; c < 2; ++c) {
            std::string why;
            ASSERT_TRUE(check_cfs_invariants(r.s, c, &why)) << "step " << step << ": " << why;
            // Nothing runnable waits on an idle CPU.
            if (r.s.rq(c).curr == kNoTask) {
                ASSERT_EQ(r.s.rq(c).cfs.h_nr_runnable, 0u) << "step " << step << " cpu " << c;
            }
        }
    }
    // The walk exercised what it claims to.
    EXPECT_GT(sleeps, 200) << "sleeps";
    EXPECT_GT(delayed_sleeps, 50) << "delayed sleeps";
    EXPECT_GT(delayed_wakeups, 10) << "delayed wakeups";
    EXPECT_GT(moves, 100) << "moves";
    std::printf("random walk: %d sleeps (%d delayed), %d delayed wakeups, %d moves\n", sleeps, delayed_sleeps,
                delayed_wakeups, moves);
}

}  // namespace
}  // namespace wb

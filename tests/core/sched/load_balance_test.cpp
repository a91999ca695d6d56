// SPDX-License-Identifier: Apache-2.0
//
// One balance attempt on hand-built runqueues: which task is pulled, which
// may move (affinity, running, cache hot, eligibility), failure accounting
// and intervals, when a running task is pushed, and who balances a group.
#include "sched/load_balance.h"

#include <gtest/gtest.h>

#include "lb_world.h"

namespace wb::test {
namespace {

TEST(SchedBalanceRq, PullsTheLongestWaitingTaskFromTheOverloadedCpu)
{
    Lb w("core=4");  // MC {0-3}, groups of one CPU
    w.run_on(0);
    const TaskId b = w.queue_on(0);
    const TaskId c = w.queue_on(0);
    w.run_on(1);
    w.signals(0, 1024, 3072, 3072);
    w.signals(1, 1024, 1024, 1024);

    LbEnv env = make_lb_env(w.s, 3, w.pos(3, "MC"), CpuIdleType::Idle);
    const int gi = sched_balance_find_src_group(w.s, w.lb, env);
    ASSERT_EQ(gi, w.group_holding(env, 0));
    // One-CPU groups spread tasks evenly: (3 - 0) / 2 tasks.
    EXPECT_EQ(env.migration_type, MigrationType::Task);
    EXPECT_EQ(env.imbalance, 1);
    EXPECT_EQ(sched_balance_find_src_rq(w.s, w.lb, env, gi), 0);

    bool more = true;
    LbOutcome out;
    EXPECT_EQ(sched_balance_rq(w.s, w.lb, 3, w.pos(3, "MC"), CpuIdleType::Idle, &more, out), 1);
    ASSERT_EQ(out.moved.size(), 1u);
    // The running task is skipped; of the waiting ones the one queued first goes.
    EXPECT_EQ(out.moved[0].p, b);
    EXPECT_EQ(w.s.task(b).cpu, 3);
    EXPECT_EQ(w.s.task(c).cpu, 0);
    EXPECT_EQ(w.s.rq(3).nr_running, 1u);
    EXPECT_EQ(w.s.rq(0).nr_running, 2u);
    // The idle destination must be woken to run it.
    EXPECT_EQ(out.resched, std::vector<CpuId>{3});
    EXPECT_GT(out.cost, Time());
    std::string why;
    EXPECT_TRUE(check_cfs_invariants(w.s, 0, &why)) << why;
    EXPECT_TRUE(check_cfs_invariants(w.s, 3, &why)) << why;
}

TEST(SchedBalanceRq, MisfitToABiggerIdleCpuBecomesAnActiveBalance)
{
    Lb w("core=4,capacity=512x2/1024x2");
    const TaskId p = w.run_on(0);
    w.s.task(p).se.avg.util_avg = 500;  // over 80 % of 512
    w.s.task(p).se.avg.load_avg = 800;
    w.signals(0, 500, 500, 800);
    update_misfit_status(w.s, w.lb, p, 0);
    EXPECT_EQ(w.lb.cpu(0).misfit_task_load, 800u);
    // The same task on a big CPU fits.
    update_misfit_status(w.s, w.lb, p, 2);
    EXPECT_EQ(w.lb.cpu(2).misfit_task_load, 0u);

    // A little CPU cannot help it.
    LbEnv little = make_lb_env(w.s, 1, 0, CpuIdleType::Idle);
    EXPECT_EQ(sched_balance_find_src_group(w.s, w.lb, little), -1);

    LbEnv env = make_lb_env(w.s, 2, 0, CpuIdleType::Idle);
    const int gi = sched_balance_find_src_group(w.s, w.lb, env);
    ASSERT_EQ(gi, w.group_holding(env, 0));
    EXPECT_EQ(env.migration_type, MigrationType::Misfit);
    EXPECT_EQ(env.imbalance, 1);
    EXPECT_EQ(sched_balance_find_src_rq(w.s, w.lb, env, gi), 0);

    // It runs, so it cannot be pulled: the stopper must push it.
    SdRuntime& rt = w.lb.cpu(2).sd[0];
    rt.balance_interval = 8;
    bool more = true;
    LbOutcome out;
    EXPECT_EQ(sched_balance_rq(w.s, w.lb, 2, 0, CpuIdleType::Idle, &more, out), 0);
    ASSERT_EQ(out.active.size(), 1u);
    EXPECT_EQ(out.active[0].busiest, 0);
    EXPECT_EQ(out.active[0].push_cpu, 2);
    EXPECT_TRUE(w.lb.cpu(0).active_balance);
    // A misfit waiting for its push is no balance failure.
    EXPECT_EQ(rt.nr_balance_failed, 0u);
    EXPECT_EQ(rt.balance_interval, static_cast<unsigned>(w.d.domain(w.d.domains_of(2)[0]).min_interval));

    // The stopper picks the running task itself and it lands on CPU 2.
    EXPECT_EQ(active_balance_pick(w.s, w.lb, 0, 2), p);
    EXPECT_TRUE(detach_task(w.s, w.lb, p, 2));
    EXPECT_EQ(pick_next_task_fair(w.s, 0), kNoTask);
    EXPECT_TRUE(attach_task(w.s, w.lb, p, 2));
    EXPECT_EQ(w.s.task(p).cpu, 2);
    EXPECT_EQ(w.s.rq(2).nr_running, 1u);
    EXPECT_EQ(w.s.rq(0).nr_running, 0u);
}

TEST(SchedBalanceRq, ATaskThatMayNotMoveGoesToTheHeadOfItsList)
{
    Lb w("core=4");
    const TaskId a = w.run_on(0);
    const TaskId pinned = w.queue_on(0, CpuMask::of(4, {0}));
    const TaskId c = w.queue_on(0);
    w.run_on(1);
    w.signals(0, 1024, 3072, 3072);
    w.signals(1, 1024, 1024, 1024);
    ASSERT_EQ(cfs_tasks(w.lb, 0), (std::vector<TaskId>{a, pinned, c}));

    bool more = true;
    LbOutcome out;
    EXPECT_EQ(sched_balance_rq(w.s, w.lb, 3, w.pos(3, "MC"), CpuIdleType::Idle, &more, out), 1);
    ASSERT_EQ(out.moved.size(), 1u);
    EXPECT_EQ(out.moved[0].p, c);
    // The running task and the pinned one were passed over, each
    // list_move()d to the head in turn, so they keep their order.
    EXPECT_EQ(cfs_tasks(w.lb, 0), (std::vector<TaskId>{a, pinned}));
    EXPECT_EQ(cfs_tasks(w.lb, 3), (std::vector<TaskId>{c}));
}

TEST(CanMigrateTask, CacheHotUntilBalancingFailedMoreThanCacheNiceTries)
{
    Lb w("core=2,smt=2");  // SMT {0,1} {2,3}, MC {0-3} (cache_nice_tries 1)
    w.run_on(0);
    const TaskId b = w.queue_on(0);
    w.s.task(b).se.exec_start = static_cast<std::uint64_t>((w.s.now - Time::us(100)).ns());

    LbEnv env = make_lb_env(w.s, 2, w.pos(2, "MC"), CpuIdleType::Idle);
    env.src_cpu = 0;
    EXPECT_TRUE(task_hot(w.s, b, env));
    SdRuntime& rt = w.rt(2, "MC");
    EXPECT_FALSE(can_migrate_task(w.s, w.lb, b, env));
    rt.nr_balance_failed = 1;
    EXPECT_FALSE(can_migrate_task(w.s, w.lb, b, env));
    rt.nr_balance_failed = 2;
    EXPECT_TRUE(can_migrate_task(w.s, w.lb, b, env));
    rt.nr_balance_failed = 0;

    // Ran 600 us ago: past migration_cost, cold.
    w.s.task(b).se.exec_start = static_cast<std::uint64_t>((w.s.now - Time::us(600)).ns());
    EXPECT_TRUE(can_migrate_task(w.s, w.lb, b, env));
    w.s.task(b).se.exec_start = static_cast<std::uint64_t>((w.s.now - Time::us(100)).ns());
    // migration_cost 0: nothing is ever hot.
    w.s.tunables.migration_cost = 0;
    EXPECT_TRUE(can_migrate_task(w.s, w.lb, b, env));
    w.s.tunables.migration_cost = 500000;

    // SMT siblings share their caches.
    LbEnv smt = make_lb_env(w.s, 1, w.pos(1, "SMT"), CpuIdleType::Idle);
    smt.src_cpu = 0;
    EXPECT_FALSE(task_hot(w.s, b, smt));
    EXPECT_TRUE(can_migrate_task(w.s, w.lb, b, smt));
}

TEST(CanMigrateTask, RunningPinnedAndPerCpuTasksStay)
{
    Lb w("core=2,smt=2");
    const TaskId a = w.run_on(0);
    const TaskId pinned = w.queue_on(0, CpuMask::of(4, {0, 3}));
    LbEnv env = make_lb_env(w.s, 2, w.pos(2, "MC"), CpuIdleType::Idle);
    env.src_cpu = 0;
    env.flags = LBF_ALL_PINNED;

    // Not allowed on 2, but on 3 of 2's group: a second pass may send it there.
    EXPECT_FALSE(can_migrate_task(w.s, w.lb, pinned, env));
    EXPECT_TRUE(env.flags & LBF_SOME_PINNED);
    EXPECT_TRUE(env.flags & LBF_DST_PINNED);
    EXPECT_TRUE(env.flags & LBF_ALL_PINNED);
    EXPECT_EQ(env.new_dst_cpu, 3);

    // Running: allowed, so not all pinned, but it cannot be pulled.
    EXPECT_FALSE(can_migrate_task(w.s, w.lb, a, env));
    EXPECT_FALSE(env.flags & LBF_ALL_PINNED);
    // ... unless the stopper has preempted it.
    env.stopper = true;
    env.flags |= LBF_ACTIVE_LB;
    EXPECT_TRUE(can_migrate_task(w.s, w.lb, a, env));

    // Newly idle balancing does not look for another destination.
    LbEnv newidle = make_lb_env(w.s, 2, w.pos(2, "MC"), CpuIdleType::NewlyIdle);
    newidle.src_cpu = 0;
    EXPECT_FALSE(can_migrate_task(w.s, w.lb, pinned, newidle));
    EXPECT_FALSE(newidle.flags & LBF_DST_PINNED);

    const TaskId kthread = w.queue_on(0);
    w.s.task(kthread).kthread = true;
    w.s.task(kthread).nr_cpus_allowed = 1;
    EXPECT_FALSE(can_migrate_task(w.s, w.lb, kthread, env));
}

TEST(CanMigrateTask, IneligibleTaskWaitsForAFailureWhenTheDestinationIsBusy)
{
    Lb w("core=2");
    w.run_on(0);
    // Placed owing 3 ms of service: behind the queue's average.
    const TaskId b = w.add_task();
    w.s.task(b).se.vlag = -3000000;
    enqueue_task_fair(w.s, 0, b, ENQUEUE_WAKEUP);
    w.s.task(b).state = TaskState::Runnable;
    lb_task_enqueued(w.s, w.lb, b);
    ASSERT_FALSE(entity_eligible(w.s, 0, b));

    LbEnv env = make_lb_env(w.s, 1, w.pos(1, "MC"), CpuIdleType::Idle);
    env.src_cpu = 0;
    // An empty destination takes it at once.
    EXPECT_TRUE(can_migrate_task(w.s, w.lb, b, env));
    w.run_on(1);
    EXPECT_FALSE(can_migrate_task(w.s, w.lb, b, env));
    w.rt(1, "MC").nr_balance_failed = 1;
    EXPECT_TRUE(can_migrate_task(w.s, w.lb, b, env));
}

TEST(SchedBalanceRq, FailuresCountIntervalsResetAndBalancedDomainsBackOff)
{
    Lb w("core=2");  // MC {0,1}: min_interval 2 ms, max_interval 4 ms, cache_nice_tries 1
    w.run_on(0);
    const TaskId b = w.queue_on(0);
    w.s.task(b).se.exec_start = static_cast<std::uint64_t>((w.s.now - Time::us(50)).ns());
    w.signals(0, 1024, 2048, 2048);
    SdRuntime& rt = w.rt(1, "MC");
    const int mc = w.pos(1, "MC");
    bool more = true;

    // Hot: nothing moves, a failure is counted, and the interval is reset.
    rt.balance_interval = 4;
    LbOutcome out;
    EXPECT_EQ(sched_balance_rq(w.s, w.lb, 1, mc, CpuIdleType::Idle, &more, out), 0);
    EXPECT_EQ(rt.nr_balance_failed, 1u);
    EXPECT_EQ(rt.balance_interval, 2u);
    EXPECT_TRUE(out.active.empty());
    // Newly idle attempts are not counted.
    EXPECT_EQ(sched_balance_rq(w.s, w.lb, 1, mc, CpuIdleType::NewlyIdle, &more, out), 0);
    EXPECT_EQ(rt.nr_balance_failed, 1u);
    EXPECT_EQ(sched_balance_rq(w.s, w.lb, 1, mc, CpuIdleType::Idle, &more, out), 0);
    EXPECT_EQ(rt.nr_balance_failed, 2u);
    // Two failures > cache_nice_tries: the hot task goes, the count resets.
    EXPECT_EQ(sched_balance_rq(w.s, w.lb, 1, mc, CpuIdleType::Idle, &more, out), 1);
    EXPECT_EQ(rt.nr_balance_failed, 0u);
    EXPECT_EQ(w.s.task(b).cpu, 1);

    // Now balanced: the interval doubles up to max_interval.
    rt.nr_balance_failed = 3;
    EXPECT_EQ(sched_balance_rq(w.s, w.lb, 1, mc, CpuIdleType::Idle, &more, out), 0);
    EXPECT_EQ(rt.nr_balance_failed, 0u);
    EXPECT_EQ(rt.balance_interval, 4u);
    EXPECT_EQ(sched_balance_rq(w.s, w.lb, 1, mc, CpuIdleType::Idle, &more, out), 0);
    EXPECT_EQ(rt.balance_interval, 4u);
    // ... but newly idle balancing does not back off.
    rt.balance_interval = 2;
    EXPECT_EQ(sched_balance_rq(w.s, w.lb, 1, mc, CpuIdleType::NewlyIdle, &more, out), 0);
    EXPECT_EQ(rt.balance_interval, 2u);
}

TEST(NeedActiveBalance, AfterRepeatedFailuresOrForAMisfit)
{
    Lb w("core=2");
    w.run_on(0);
    LbEnv env = make_lb_env(w.s, 1, w.pos(1, "MC"), CpuIdleType::Idle);
    env.src_cpu = 0;
    SdRuntime& rt = w.rt(1, "MC");
    const int tries = w.d.domain(env.sd).cache_nice_tries;

    env.migration_type = MigrationType::Task;
    rt.nr_balance_failed = static_cast<unsigned>(tries + 2);
    EXPECT_FALSE(need_active_balance(w.s, w.lb, env));
    rt.nr_balance_failed = static_cast<unsigned>(tries + 3);
    EXPECT_TRUE(need_active_balance(w.s, w.lb, env));
    // Failures only count for a task imbalance.
    env.migration_type = MigrationType::Load;
    EXPECT_FALSE(need_active_balance(w.s, w.lb, env));
    env.migration_type = MigrationType::Misfit;
    rt.nr_balance_failed = 0;
    EXPECT_TRUE(need_active_balance(w.s, w.lb, env));
}

TEST(ShouldWeBalance, FirstIdleCpuOfTheGroupPreferringAnIdleCore)
{
    Lb w("core=2,smt=2");  // MC groups {0,1} {2,3}
    const int mc = w.pos(0, "MC");
    auto balances = [&](CpuId cpu) {
        return should_we_balance(w.s, w.lb, make_lb_env(w.s, cpu, mc, CpuIdleType::Idle));
    };
    // Both threads idle: the first.
    EXPECT_TRUE(balances(0));
    EXPECT_FALSE(balances(1));
    // 0 busy: 1 is the first idle thread, even though its core is busy.
    w.run_on(0);
    EXPECT_FALSE(balances(0));
    EXPECT_TRUE(balances(1));
    // Both busy: the group's first CPU does it.
    w.run_on(1);
    EXPECT_TRUE(balances(0));
    EXPECT_FALSE(balances(1));
    // Newly idle: every CPU with nothing queued balances for itself.
    EXPECT_TRUE(should_we_balance(w.s, w.lb, make_lb_env(w.s, 3, mc, CpuIdleType::NewlyIdle)));
    EXPECT_FALSE(should_we_balance(w.s, w.lb, make_lb_env(w.s, 1, mc, CpuIdleType::NewlyIdle)));
}

}  // namespace
}  // namespace wb::test

// SPDX-License-Identifier: Apache-2.0
//
// The balancer's state: what each group knows beyond its span (the child
// domain's flags, cores, asym-packing preference, balance mask), each CPU's
// own group per level, intervals as sd_init() sets them, and rq->cfs_tasks,
// the order in which the balancer considers a runqueue's tasks.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lb_world.h"

namespace wb::test {
namespace {

TEST(MakeLoadBalanceState, GroupsCarryTheirChildDomainsFlagsAndCores)
{
    Lb w("cluster=2,core=2,smt=2");  // SMT {0,1}, CLS {0-3}, MC {0-7}
    auto group_of = [&](std::string_view level, CpuId cpu) -> const GroupLbInfo& {
        const int pos = w.pos(cpu, level);
        const int sd = w.d.domains_of(cpu)[static_cast<std::size_t>(pos)];
        return w.lb.groups[static_cast<std::size_t>(sd)]
                          [static_cast<std::size_t>(w.lb.cpu(cpu).local_group[static_cast<std::size_t>(pos)])];
    };
    // SMT's groups are single CPUs: no child, no flags.
    EXPECT_EQ(group_of("SMT", 1).flags, 0u);
    EXPECT_EQ(group_of("SMT", 1).balance_mask, CpuMask::of(8, {1}));
    // CLS's groups are SMT cores, MC's are clusters.
    EXPECT_TRUE(group_of("CLS", 2).flags & SD_SHARE_CPUCAPACITY);
    EXPECT_EQ(group_of("CLS", 2).cores, 1);
    EXPECT_EQ(group_of("CLS", 2).balance_mask, CpuMask::of(8, {2, 3}));
    EXPECT_FALSE(group_of("MC", 5).flags & SD_SHARE_CPUCAPACITY);
    EXPECT_TRUE(group_of("MC", 5).flags & SD_CLUSTER);
    EXPECT_EQ(group_of("MC", 5).cores, 2);
    EXPECT_EQ(group_of("MC", 5).balance_mask, CpuMask::range(8, 4, 7));
    // sd_init(): intervals start at the span weight in ms.
    EXPECT_EQ(w.rt(5, "MC").balance_interval, 8u);
    EXPECT_EQ(w.rt(5, "SMT").balance_interval, 2u);
    EXPECT_EQ(w.rt(5, "MC").newidle_ratio, 512u);
    // HZ x CPUs / 10.
    EXPECT_EQ(w.lb.max_load_balance_interval, 200u);
}

TEST(MakeLoadBalanceState, AsymPackingPrefersTheHighestPriorityCpuOfAGroup)
{
    Lb w("core=2,smt=2,asym_packing=1,asym_prio=3/5");  // thread 1 of each core preferred
    const int pos = w.pos(0, "MC");
    const int sd = w.d.domains_of(0)[static_cast<std::size_t>(pos)];
    const std::vector<GroupLbInfo>& groups = w.lb.groups[static_cast<std::size_t>(sd)];
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_EQ(groups[0].asym_prefer_cpu, 1);
    EXPECT_EQ(groups[1].asym_prefer_cpu, 3);
}

TEST(CfsTasks, QueuedAndPickedTasksGoToTheHeadTheBalancerTakesFromTheTail)
{
    Lb w("core=2");
    const TaskId a = w.queue_on(0);
    const TaskId b = w.queue_on(0);
    const TaskId c = w.queue_on(0);
    EXPECT_EQ(cfs_tasks(w.lb, 0), (std::vector<TaskId>{a, b, c}));
    ASSERT_EQ(pick_next_task_fair(w.s, 0), a);
    lb_task_picked(w.s, w.lb, 0, a);
    EXPECT_EQ(cfs_tasks(w.lb, 0), (std::vector<TaskId>{b, c, a}));

    // A task sleeping as a delayed entity keeps its place, and keeps it
    // when woken in place.
    lb_task_dequeued(w.lb, b, 0, true);
    EXPECT_EQ(cfs_tasks(w.lb, 0), (std::vector<TaskId>{b, c, a}));
    EXPECT_TRUE(w.lb.link(b).delayed);
    lb_task_enqueued(w.s, w.lb, b);
    EXPECT_EQ(cfs_tasks(w.lb, 0), (std::vector<TaskId>{b, c, a}));
    EXPECT_FALSE(w.lb.link(b).delayed);

    // A task that leaves the queue leaves the list.
    lb_task_dequeued(w.lb, c, 0, false);
    EXPECT_EQ(cfs_tasks(w.lb, 0), (std::vector<TaskId>{b, a}));
    EXPECT_EQ(w.lb.link(c).cpu, kNoCpu);
}

// A delayed task whose dequeue is finished (a pick met it) leaves the list
// at the next pick on its CPU, found from the fair class's record of such
// dequeues rather than by walking the list.
TEST(CfsTasks, ADelayedTaskLeavesTheListAtThePickAfterItsDequeue)
{
    for (const bool woken_before_the_pick : {false, true}) {
        Lb w("core=2");
        const TaskId a = w.run_on(0);
        const TaskId b = w.queue_on(0);
        // a runs well past its share, then sleeps: not eligible, so it stays
        // queued as a delayed entity and keeps its entry.
        w.s.now += Time::ms(5);
        ASSERT_FALSE(dequeue_task_fair(w.s, 0, a, DEQUEUE_SLEEP));
        w.s.task(a).state = TaskState::Sleeping;
        lb_task_dequeued(w.lb, a, 0, true);
        ASSERT_EQ(pick_next_task_fair(w.s, 0), b);
        lb_task_picked(w.s, w.lb, 0, b);
        EXPECT_EQ(cfs_tasks(w.lb, 0), (std::vector<TaskId>{a, b}));

        ASSERT_TRUE(dequeue_task_fair(w.s, 0, a, DEQUEUE_SLEEP | DEQUEUE_DELAYED));
        EXPECT_EQ(cfs_tasks(w.lb, 0), (std::vector<TaskId>{a, b}));
        std::string why;
        EXPECT_TRUE(check_cfs_tasks(w.s, w.lb, 0, &why)) << why;
        if (woken_before_the_pick) {
            // The model's one narrow difference from the kernel (docs/model.md):
            // woken before its CPU picks, it keeps its old place.
            enqueue_task_fair(w.s, 0, a, ENQUEUE_WAKEUP);
            w.s.task(a).state = TaskState::Runnable;
            lb_task_enqueued(w.s, w.lb, a);
        }
        lb_task_picked(w.s, w.lb, 0, kNoTask);
        if (woken_before_the_pick) {
            EXPECT_EQ(cfs_tasks(w.lb, 0), (std::vector<TaskId>{a, b}));
        } else {
            EXPECT_EQ(cfs_tasks(w.lb, 0), (std::vector<TaskId>{b}));
            EXPECT_EQ(w.lb.link(a).cpu, kNoCpu);
        }
        EXPECT_TRUE(w.s.rq(0).cfs.delayed_dequeued.empty());
    }
}

// The check finds an entry left behind that nothing will drop.
TEST(CfsTasks, CheckFindsAnEntryOfATaskNoLongerQueued)
{
    Lb w("core=2");
    const TaskId a = w.queue_on(0);
    w.queue_on(0);
    std::string why;
    ASSERT_TRUE(check_cfs_tasks(w.s, w.lb, 0, &why)) << why;
    ASSERT_TRUE(dequeue_task_fair(w.s, 0, a, DEQUEUE_SLEEP));  // not reported to the balancer
    EXPECT_FALSE(check_cfs_tasks(w.s, w.lb, 0, &why));
    EXPECT_THAT(why, ::testing::HasSubstr("task " + std::to_string(a) + " is not queued here"));
}

TEST(CfsTasks, AMovedTaskJoinsTheHeadOfItsNewList)
{
    Lb w("core=2");
    w.run_on(0);
    const TaskId b = w.queue_on(0);
    const TaskId d = w.run_on(1);
    EXPECT_TRUE(detach_task(w.s, w.lb, b, 1));
    EXPECT_EQ(cfs_tasks(w.lb, 0).size(), 1u);
    attach_task(w.s, w.lb, b, 1);
    EXPECT_EQ(cfs_tasks(w.lb, 1), (std::vector<TaskId>{d, b}));
    EXPECT_EQ(w.lb.link(b).cpu, 1);
    // A second runnable task on CPU 1: the root domain is overloaded.
    EXPECT_TRUE(w.lb.overloaded);
}

}  // namespace
}  // namespace wb::test

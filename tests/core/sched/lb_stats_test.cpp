// SPDX-License-Identifier: Apache-2.0
//
// The statistics of a balance attempt: group classification, the busiest
// group and runqueue, and the imbalance for each migration type.
#include <gtest/gtest.h>

#include "lb_world.h"

namespace wb::test {
namespace {

SgLbStats stats(unsigned nr, unsigned weight, unsigned long util, unsigned long runnable)
{
    SgLbStats sgs;
    sgs.sum_nr_running = nr;
    sgs.group_weight = weight;
    sgs.group_capacity = 1024UL * weight;
    sgs.group_util = util;
    sgs.group_runnable = runnable;
    return sgs;
}

TEST(GroupClassify, FirstMatchInTheKernelsOrder)
{
    // More tasks than CPUs and utilisation past capacity / pct: overloaded.
    EXPECT_EQ(group_classify(117, false, stats(3, 2, 1900, 2000)), GroupType::Overloaded);
    // ... or waiting time past it, whatever the utilisation.
    EXPECT_EQ(group_classify(117, false, stats(3, 2, 1000, 2500)), GroupType::Overloaded);
    // Overloaded beats the affinity flag, which beats misfit.
    EXPECT_EQ(group_classify(117, true, stats(3, 2, 1900, 2000)), GroupType::Overloaded);
    SgLbStats misfit = stats(1, 2, 600, 600);
    misfit.group_misfit_task_load = 700;
    EXPECT_EQ(group_classify(117, true, misfit), GroupType::Imbalanced);
    EXPECT_EQ(group_classify(117, false, misfit), GroupType::MisfitTask);
    SgLbStats smt = stats(2, 2, 1000, 1000);
    smt.group_smt_balance = true;
    smt.group_misfit_task_load = 10;
    EXPECT_EQ(group_classify(117, false, smt), GroupType::SmtBalance);
    // As many tasks as CPUs and nearly full: no spare capacity.
    EXPECT_EQ(group_classify(117, false, stats(2, 2, 1800, 1800)), GroupType::FullyBusy);
    EXPECT_EQ(group_classify(117, false, stats(2, 2, 1700, 1700)), GroupType::HasSpare);
    // Fewer tasks than CPUs always has spare capacity.
    EXPECT_EQ(group_classify(117, false, stats(1, 2, 2048, 2048)), GroupType::HasSpare);
}

TEST(FindSrcGroup, BalancedWhenNobodyWaits)
{
    Lb w("core=4");
    w.run_on(0);
    w.run_on(1);
    w.signals(0, 1024, 1024, 1024);
    w.signals(1, 1024, 1024, 1024);
    LbEnv env = make_lb_env(w.s, 3, w.pos(3, "MC"), CpuIdleType::Idle);
    EXPECT_EQ(sched_balance_find_src_group(w.s, w.lb, env), -1);
    EXPECT_EQ(env.imbalance, 0);
}

TEST(CalculateImbalance, UtilisationAcrossLlcs)
{
    Lb w("llc=2,core=2");  // MC {0,1} {2,3}, PKG {0-3}
    w.run_on(0);
    w.queue_on(0);
    w.queue_on(0);
    w.run_on(1);
    w.signals(0, 1024, 3072, 3072);
    w.signals(1, 1024, 1024, 1024);
    LbEnv env = make_lb_env(w.s, 2, w.pos(2, "PKG"), CpuIdleType::Idle);
    const int gi = sched_balance_find_src_group(w.s, w.lb, env);
    ASSERT_EQ(gi, w.group_holding(env, 0));
    // Across caches the spare capacity of the local LLC is filled.
    EXPECT_EQ(env.migration_type, MigrationType::Util);
    EXPECT_EQ(env.imbalance, 2048);
    // The CPU with the most utilisation (runnable-boosted) and tasks to spare.
    EXPECT_EQ(sched_balance_find_src_rq(w.s, w.lb, env, gi), 0);
}

TEST(CalculateImbalance, LoadBetweenOverloadedGroups)
{
    Lb w("core=2");
    w.run_on(0);
    w.queue_on(0);
    w.queue_on(0);
    w.run_on(1);
    w.queue_on(1);
    w.signals(0, 1024, 3072, 3072);
    w.signals(1, 1024, 2048, 2048);
    LbEnv env = make_lb_env(w.s, 1, w.pos(1, "MC"), CpuIdleType::NotIdle);
    EXPECT_EQ(sched_balance_find_src_group(w.s, w.lb, env), w.group_holding(env, 0));
    // Average 2560: move 512 of load so neither side crosses it.
    EXPECT_EQ(env.migration_type, MigrationType::Load);
    EXPECT_EQ(env.imbalance, 512);
}

TEST(CalculateImbalance, OverloadedNotClearlyBusierStays)
{
    Lb w("core=2");
    w.run_on(0);
    w.queue_on(0);
    w.run_on(1);
    w.queue_on(1);
    w.signals(0, 1024, 2200, 2200);
    w.signals(1, 1024, 2048, 2048);
    LbEnv env = make_lb_env(w.s, 1, w.pos(1, "MC"), CpuIdleType::NotIdle);
    // 2200 is within imbalance_pct (117 %) of 2048.
    EXPECT_EQ(sched_balance_find_src_group(w.s, w.lb, env), -1);
}

}  // namespace
}  // namespace wb::test

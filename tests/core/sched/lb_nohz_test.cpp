// SPDX-License-Identifier: Apache-2.0
//
// Idle load balancing for tickless CPUs: the busy count, the kick decision,
// the kicked CPU and its pass over the idle CPUs.
#include <gtest/gtest.h>

#include "lb_world.h"

namespace wb::test {
namespace {

TEST(Nohz, TicklessCpusLeaveTheBusyCountAndABusyTickKicksOneOfThem)
{
    Lb w("core=4");
    const int llc = w.d.shortcuts(0).sd_llc;
    ASSERT_GE(llc, 0);
    EXPECT_EQ(w.s.shared[static_cast<std::size_t>(llc)].nr_busy_cpus, 4);
    for (CpuId cpu : {1, 2, 3})
        nohz_balance_enter_idle(w.s, w.lb, cpu);
    EXPECT_EQ(w.lb.nohz.nr_cpus, 3);
    EXPECT_EQ(w.s.shared[static_cast<std::size_t>(llc)].nr_busy_cpus, 1);

    // One task: nothing to hand out yet, but new idle CPUs and their
    // blocked load need a look.
    w.run_on(0);
    EXPECT_EQ(nohz_balancer_kick(w.s, w.lb, 0), NOHZ_STATS_KICK | NOHZ_NEXT_KICK);
    w.lb.nohz.needs_update = false;
    w.lb.nohz.has_blocked_load = false;
    EXPECT_EQ(nohz_balancer_kick(w.s, w.lb, 0), 0u);
    // A second runnable task: a full balance.
    w.queue_on(0);
    const unsigned flags = nohz_balancer_kick(w.s, w.lb, 0);
    EXPECT_EQ(flags, NOHZ_STATS_KICK | NOHZ_BALANCE_KICK);
    EXPECT_EQ(kick_ilb(w.s, w.lb, 0, flags), 1);  // the first tickless idle CPU
    EXPECT_EQ(w.lb.nohz.next_balance, lb_jiffies(w.s) + 1);
    // Already kicked: no second IPI.
    EXPECT_EQ(kick_ilb(w.s, w.lb, 0, flags), kNoCpu);

    // The kicked CPU pulls on behalf of itself and the others.
    w.signals(0, 1024, 2048, 2048);
    w.lb.cpu(1).nohz_flags = 0;
    LbOutcome out;
    nohz_idle_balance(w.s, w.lb, 1, flags, out);
    EXPECT_EQ(out.moved.size(), 1u);
    EXPECT_EQ(out.exec_cpu, 1);
    EXPECT_EQ(w.s.rq(0).nr_running, 1u);
}

}  // namespace
}  // namespace wb::test

// SPDX-License-Identifier: Apache-2.0
//
// When balancing runs: newly-idle gating by avg_idle and max_newidle_lb_cost,
// NI_RANDOM's dice, the cost maximum's decay, and balance intervals.
#include <gtest/gtest.h>

#include "lb_world.h"

namespace wb::test {
namespace {

TEST(SchedBalanceDomains, BalancesDueDomainsAndSchedulesTheNext)
{
    Lb w("core=4");  // MC: balance_interval 4 ms, max_interval 8 ms
    w.run_on(0);
    const std::uint64_t now = lb_jiffies(w.s);
    LbOutcome out;
    // A run starts with every domain due. Balanced: the interval doubles,
    // and a busy CPU waits busy_factor times longer.
    sched_balance_domains(w.s, w.lb, 0, CpuIdleType::NotIdle, out);
    EXPECT_EQ(w.lb.counters.balance_attempts, 1u);
    EXPECT_EQ(w.rt(0, "MC").last_balance, now);
    EXPECT_EQ(w.rt(0, "MC").balance_interval, 8u);
    EXPECT_EQ(w.lb.cpu(0).next_balance, now + 31);  // 8 ms x 16 = 32 jiffies, less one
    // Not due again yet.
    sched_balance_domains(w.s, w.lb, 0, CpuIdleType::NotIdle, out);
    EXPECT_EQ(w.lb.counters.balance_attempts, 1u);
    // An idle CPU looks again sooner.
    sched_balance_domains(w.s, w.lb, 1, CpuIdleType::Idle, out);
    EXPECT_EQ(w.lb.cpu(1).next_balance, now + 2);
    // Balancing took time: the base cost and the four CPUs read, twice.
    EXPECT_EQ(out.cost, w.lb.cost_per_cpu * 10);
}

TEST(SchedBalanceNewidle, NextBalanceFollowsAChangedBalanceInterval)
{
    Lb w("core=4");  // HZ 250: 4 ms a jiffy
    CpuLbState& c = w.lb.cpu(1);
    SdRuntime& rt = c.sd[0];
    Rng rng(1);
    LbOutcome out;
    w.lb.overloaded = false;
    const std::uint64_t now = lb_jiffies(w.s);
    rt.last_balance = now;
    c.next_balance = now + 1000;
    rt.balance_interval = 40;
    EXPECT_EQ(sched_balance_newidle(w.s, w.lb, 1, rng, out), 0);
    EXPECT_EQ(c.next_balance, now + 10);
    // The interval in jiffies is remembered: a new balance_interval must
    // not meet the old answer.
    rt.balance_interval = 20;
    EXPECT_EQ(sched_balance_newidle(w.s, w.lb, 1, rng, out), 0);
    EXPECT_EQ(c.next_balance, now + 5);
}

TEST(SchedBalanceNewidle, GatedByOverloadAndAvgIdleAgainstMaxNewidleLbCost)
{
    Lb w("llc=2,core=2", "NO_NI_RANDOM");  // MC {0,1} {2,3}, PKG {0-3}
    w.run_on(0);
    w.queue_on(0);
    Rng rng(1);
    Rq& rq = w.s.rq(1);
    CpuLbState& c = w.lb.cpu(1);
    ASSERT_EQ(c.sd.size(), 2u);

    // Nothing anywhere is waiting: no attempt, but the time counts as idle.
    w.lb.overloaded = false;
    LbOutcome out;
    EXPECT_EQ(sched_balance_newidle(w.s, w.lb, 1, rng, out), 0);
    EXPECT_EQ(w.lb.counters.newidle_attempts, 0u);
    EXPECT_EQ(rq.idle_stamp, w.s.now);

    // Idle too briefly to pay for the lowest domain.
    w.lb.overloaded = true;
    c.sd[0].max_newidle_lb_cost = 2000;
    rq.avg_idle = 1500;
    EXPECT_EQ(sched_balance_newidle(w.s, w.lb, 1, rng, out), 0);
    EXPECT_EQ(w.lb.counters.newidle_attempts, 0u);

    // Long enough for MC, not for MC and PKG together. Make the task hot so
    // nothing is pulled and the walk goes on.
    w.s.task(1).se.exec_start = static_cast<std::uint64_t>((w.s.now - Time::us(10)).ns());
    c.sd[0].max_newidle_lb_cost = 200;
    c.sd[1].max_newidle_lb_cost = 5000;
    rq.avg_idle = 3000;
    EXPECT_EQ(sched_balance_newidle(w.s, w.lb, 1, rng, out), 0);
    EXPECT_EQ(w.lb.counters.newidle_attempts, 1u);
    EXPECT_EQ(c.sd[0].newidle_call, 513u);
    EXPECT_EQ(c.sd[1].newidle_call, 512u);
    // The attempt's modelled cost is the new maximum: base + 2 CPUs read.
    EXPECT_EQ(c.sd[0].max_newidle_lb_cost, 3 * w.lb.cost_per_cpu.ns());
    EXPECT_EQ(rq.max_idle_balance_cost, 500000);

    // A cold waiting task is pulled: one, and the CPU does not idle.
    w.s.task(1).se.exec_start = 0;
    EXPECT_EQ(sched_balance_newidle(w.s, w.lb, 1, rng, out), 1);
    EXPECT_EQ(w.s.task(1).cpu, 1);
    EXPECT_EQ(w.lb.counters.newidle_pulls, 1u);
    EXPECT_EQ(rq.idle_stamp, Time());
}

TEST(SchedBalanceNewidle, NiRandomTriesInProportionToRecentSuccess)
{
    auto attempts = [](unsigned ratio) {
        Lb w("core=2");
        w.run_on(0);
        Rng rng(7);
        for (int i = 0; i < 200; ++i) {
            // Each attempt's root-level statistics clear the flag again.
            w.lb.overloaded = true;
            w.lb.cpu(1).sd[0].newidle_ratio = ratio;
            w.lb.cpu(1).sd[0].newidle_call = 0;  // keep the ratio from being re-estimated
            LbOutcome out;
            sched_balance_newidle(w.s, w.lb, 1, rng, out);
        }
        return w.lb.counters.balance_attempts;
    };
    EXPECT_EQ(attempts(1024), 200u);  // always successful: no dice
    EXPECT_LE(attempts(0), 3u);       // 2 faces of 1024
    const auto half = attempts(512);
    EXPECT_GT(half, 70u);
    EXPECT_LT(half, 130u);
}

TEST(UpdateNewidleCost, TracksTheMaximumAndDecaysItOnceASecond)
{
    Lb w("core=2");
    SdRuntime rt;
    w.s.now = Time::ms(500);
    EXPECT_FALSE(update_newidle_cost(w.s, rt, 1000, 1));
    EXPECT_EQ(rt.max_newidle_lb_cost, 1000);
    EXPECT_EQ(rt.newidle_call, 513u);
    EXPECT_EQ(rt.newidle_success, 257u);
    // Within a second of the last change: kept.
    w.s.now = Time::ms(1400);
    EXPECT_FALSE(update_newidle_cost(w.s, rt, 0, 0));
    EXPECT_EQ(rt.max_newidle_lb_cost, 1000);
    w.s.now = Time::ms(1600);
    EXPECT_TRUE(update_newidle_cost(w.s, rt, 0, 0));
    EXPECT_EQ(rt.max_newidle_lb_cost, 1000 * 253 / 256);
    EXPECT_EQ(rt.newidle_call, 513u);  // a decay visit is no attempt
}

TEST(GetSdBalanceInterval, BusyFactorJiffiesAndTheMaximum)
{
    Lb w("core=4");  // MC: balance_interval 4 ms; HZ 250; max 250 x 4 / 10 = 100 jiffies
    const SchedDomain& sd = w.d.domain(w.d.domains_of(0)[0]);
    SdRuntime rt;
    rt.balance_interval = 4;
    EXPECT_EQ(get_sd_balance_interval(w.s, w.lb, sd, rt, false), 1u);
    // x16 when busy, in jiffies, one less so that levels do not coincide.
    EXPECT_EQ(get_sd_balance_interval(w.s, w.lb, sd, rt, true), 15u);
    rt.balance_interval = 512;
    EXPECT_EQ(get_sd_balance_interval(w.s, w.lb, sd, rt, true), 100u);
}

}  // namespace
}  // namespace wb::test

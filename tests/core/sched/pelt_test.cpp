// SPDX-License-Identifier: Apache-2.0
#include "sched/pelt.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "sched/eevdf.h"

namespace wb {
namespace {

constexpr std::uint64_t kMs = 1000000;

// Advances `sa` from its last update to `until` in 1 ms steps, in one state.
void run(SchedAvg& sa, std::uint64_t& now, std::uint64_t until, unsigned long load, int running, double scale = 1.0)
{
    while (now < until) {
        now = std::min(now + kMs, until);
        update_sched_avg(sa, now, load, load ? 1 : 0, running, scale);
    }
}

TEST(PeltDecayLoad, UsesTheKernelsFixedPointTable)
{
    // y^32 = 1/2, but the table's y^0 is 2^32 - 1, so a whole number of
    // half-lives still loses one unit, exactly as kernel/sched/pelt.c does.
    EXPECT_EQ(decay_load(1024, 32), 511u);
    EXPECT_EQ(decay_load(1 << 20, 32), (1u << 19) - 1);
    EXPECT_EQ(decay_load(1024, 0), 1023u);
    EXPECT_EQ(decay_load(1024, 1), 1002u);  // 1024 * 0.978572 = 1002.06
    EXPECT_EQ(decay_load(1024, 64), 255u);
    EXPECT_EQ(decay_load(kLoadAvgMax, 32 * 63 + 1), 0u);  // past 63 half-lives everything is gone
}

TEST(PeltUpdateSchedAvg, AlwaysRunningTaskReachesFullUtilAndItsWeight)
{
    SchedAvg sa;
    std::uint64_t now = 0;
    run(sa, now, 300 * kMs, 1024, 1);
    EXPECT_GT(sa.util_avg, 1000u);
    EXPECT_LE(sa.util_avg, 1024u);
    EXPECT_GT(sa.runnable_avg, 1000u);
    EXPECT_NEAR(static_cast<double>(sa.load_avg), 1024.0, 25.0);

    // A heavier task's load follows its weight; util does not.
    SchedAvg heavy;
    std::uint64_t t = 0;
    run(heavy, t, 300 * kMs, 3121, 1);
    EXPECT_NEAR(static_cast<double>(heavy.load_avg), 3121.0, 75.0);
    EXPECT_EQ(heavy.util_avg, sa.util_avg);
}

TEST(PeltUpdateSchedAvg, SignalsHalveAfter32msOfSleep)
{
    SchedAvg sa;
    std::uint64_t now = 0;
    run(sa, now, 300 * kMs, 1024, 1);
    const auto util = static_cast<double>(sa.util_avg);
    const auto load = static_cast<double>(sa.load_avg);
    run(sa, now, now + 32 * kMs, 0, 0);
    EXPECT_NEAR(static_cast<double>(sa.util_avg), util / 2, util * 0.02);
    EXPECT_NEAR(static_cast<double>(sa.load_avg), load / 2, load * 0.02);
}

TEST(PeltUpdateSchedAvg, QuarterDutyCycleSettlesNearAQuarter)
{
    SchedAvg sa;
    std::uint64_t now = 0;
    double sum = 0;
    int samples = 0;
    for (int cycle = 0; cycle < 250; ++cycle) {  // 1 ms running, 3 ms asleep
        run(sa, now, now + kMs, 1024, 1);
        if (cycle >= 100) {
            EXPECT_GT(sa.util_avg, 220u) << "cycle " << cycle;
            EXPECT_LT(sa.util_avg, 300u) << "cycle " << cycle;
        }
        run(sa, now, now + 3 * kMs, 0, 0);
        if (cycle >= 100) {
            sum += static_cast<double>(sa.util_avg);
            ++samples;
        }
    }
    // Sampled at the end of each sleep, the low point of the ripple.
    EXPECT_NEAR(sum / samples, 256.0, 16.0);
}

TEST(PeltUpdateSchedAvg, CapacityScaleHalvesUtilButNotLoad)
{
    SchedAvg full, half;
    std::uint64_t t1 = 0, t2 = 0;
    run(full, t1, 300 * kMs, 1024, 1, 1.0);
    run(half, t2, 300 * kMs, 1024, 1, 0.5);
    EXPECT_NEAR(static_cast<double>(half.util_avg), full.util_avg / 2.0, 2.0);
    EXPECT_EQ(half.load_avg, full.load_avg);
    EXPECT_EQ(half.runnable_avg, full.runnable_avg);
}

TEST(PeltUpdateSchedAvg, OnlyReportsAChangeWhenAPeriodEnds)
{
    SchedAvg sa;
    EXPECT_FALSE(update_sched_avg(sa, 500, 1024, 1, 1));  // under one 1024-ns unit: nothing at all
    EXPECT_EQ(sa.last_update_time, 0u);
    EXPECT_FALSE(update_sched_avg(sa, 512 * 1024, 1024, 1, 1));  // half a period: sums grow, averages wait
    EXPECT_EQ(sa.util_avg, 0u);
    EXPECT_GT(sa.util_sum, 0u);
    EXPECT_TRUE(update_sched_avg(sa, 2048 * 1024, 1024, 1, 1));
    EXPECT_GT(sa.util_avg, 0u);
}

TEST(PeltUpdateSchedAvg, NoLoadMeansNotRunnableNorRunning)
{
    // An entity already dequeued but still rq->curr passes running = 1 with
    // load 0; it must not accrue utilisation.
    SchedAvg sa;
    std::uint64_t now = 0;
    run(sa, now, 50 * kMs, 0, 1);
    EXPECT_EQ(sa.util_sum, 0u);
    EXPECT_EQ(sa.runnable_sum, 0u);
}

TEST(PeltUtilEstUpdate, JumpsUpAtOnce)
{
    SchedAvg sa;
    sa.util_est = 100;
    sa.util_avg = 300;
    sa.runnable_avg = 300;
    util_est_update(sa);
    EXPECT_EQ(sa.util_est, 300u);
}

TEST(PeltUtilEstUpdate, MovesAQuarterOfTheWayDown)
{
    SchedAvg sa;
    sa.util_est = 400;
    sa.util_avg = 200;
    sa.runnable_avg = 200;
    util_est_update(sa);
    EXPECT_EQ(sa.util_est, 350u);  // 400 - (400 - 200) / 4
}

TEST(PeltUtilEstUpdate, IgnoresChangesWithinOnePercent)
{
    SchedAvg sa;
    sa.util_est = 400;
    sa.util_avg = 391;  // 9 below: under the 10-unit margin
    sa.runnable_avg = 391;
    util_est_update(sa);
    EXPECT_EQ(sa.util_est, 400u);
    sa.util_avg = 390;  // 10 below: a real sample
    sa.runnable_avg = 390;
    util_est_update(sa);
    EXPECT_EQ(sa.util_est, 397u);
}

TEST(PeltUtilEstUpdate, KeepsTheEstimateWhenTheTaskWaitedForTheCpu)
{
    SchedAvg sa;
    sa.util_est = 400;
    sa.util_avg = 200;
    sa.runnable_avg = 300;  // runnable well above util: it wanted more CPU than it got
    util_est_update(sa);
    EXPECT_EQ(sa.util_est, 400u);
    sa.runnable_avg = 210;  // within the margin: an honest sample
    util_est_update(sa);
    EXPECT_EQ(sa.util_est, 350u);
}

}  // namespace
}  // namespace wb

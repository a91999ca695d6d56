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
void run(SchedAvg& sa, std::uint64_t& now, std::uint64_t until, unsigned long load, int running)
{
    while (now < until) {
        now = std::min(now + kMs, until);
        update_sched_avg(sa, now, load, load ? 1 : 0, running);
    }
}

// One nice-0 task alone on a CPU of the given capacity, and the CPU's
// runqueue, both updated every 1 ms on the runqueue's PELT clock, as the
// tick and the switches update them: the clock first, under what ran since
// its last read, then the task, then the runqueue.
struct OneTaskCpu {
    explicit OneTaskCpu(unsigned int capacity)
    {
        clock.capacity = capacity;
        task.last_update_time = rq.last_update_time = kPeltClockOffset;
    }

    // `ns` of wall time with the task running (else asleep, the CPU idle).
    void phase(std::uint64_t ns, bool running)
    {
        const std::uint64_t end = wall + ns;
        while (wall < end) {
            wall = std::min(wall + kMs, end);
            const std::uint64_t now = rq_clock_pelt(clock, wall, !running, rq.util_sum);
            const unsigned long load = running ? 1024 : 0;
            update_sched_avg(task, now, load, running ? 1 : 0, running ? 1 : 0);
            update_sched_avg(rq, now, load, running ? 1 : 0, running ? 1 : 0);
        }
    }
    // Cycles of `run_ns` running and `sleep_ns` asleep for `ns` in all.
    void periodic(std::uint64_t ns, std::uint64_t run_ns, std::uint64_t sleep_ns)
    {
        for (std::uint64_t t = 0; t < ns; t += run_ns + sleep_ns) {
            phase(run_ns, true);
            phase(sleep_ns, false);
        }
    }

    PeltClock clock;
    SchedAvg task, rq;
    std::uint64_t wall = kPeltClockOffset;  // clock_task
};

double ratio(unsigned long a, unsigned long b)
{
    return static_cast<double>(a) / static_cast<double>(b);
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

TEST(PeltClock, RunsAtCapacityWhileBusyAndCatchesUpWhenIdle)
{
    PeltClock c;
    c.capacity = 512;
    const std::uint64_t t0 = kPeltClockOffset;
    EXPECT_EQ(rq_clock_pelt(c, t0 + 10 * kMs, false, 0), t0 + 5 * kMs);  // 10 ms busy at half capacity: 5 ms of work
    // Read again in the same instant with the idle task current (a newidle
    // balance that pulls): no jump.
    EXPECT_EQ(rq_clock_pelt(c, t0 + 10 * kMs, true, 0), t0 + 5 * kMs);
    // The idle task ran: the clock is clock_task again, the 5 ms the CPU
    // did not need at full capacity become idle time.
    EXPECT_EQ(rq_clock_pelt(c, t0 + 11 * kMs, true, 0), t0 + 11 * kMs);
    EXPECT_EQ(c.lost_idle_time, 0u);
    EXPECT_EQ(rq_clock_pelt(c, t0 + 15 * kMs, true, 0), t0 + 15 * kMs);  // idle: wall speed
    EXPECT_EQ(rq_clock_pelt(c, t0 + 17 * kMs, false, 0), t0 + 16 * kMs);
}

TEST(PeltClock, AFullyUsedRunqueueLosesItsIdleTime)
{
    PeltClock c;
    c.capacity = 256;
    const std::uint64_t t0 = kPeltClockOffset;
    EXPECT_EQ(rq_clock_pelt(c, t0 + 8 * kMs, false, kPeltFullUtilSum), t0 + 2 * kMs);
    // util_sum at its ceiling when the idle task takes over: the 6 ms jump
    // is lost idle time, and the clock goes on from 2 ms at wall speed.
    EXPECT_EQ(rq_clock_pelt(c, t0 + 9 * kMs, true, kPeltFullUtilSum), t0 + 3 * kMs);
    EXPECT_EQ(c.lost_idle_time, 6 * kMs);
    EXPECT_EQ(rq_clock_pelt(c, t0 + 12 * kMs, true, kPeltFullUtilSum), t0 + 6 * kMs);  // counted once
    EXPECT_EQ(c.lost_idle_time, 6 * kMs);
    EXPECT_EQ(rq_clock_pelt(c, t0 + 16 * kMs, false, 0), t0 + 7 * kMs);
}

TEST(PeltClock, AFullCapacityCpuRunsOnClockTask)
{
    PeltClock c;
    EXPECT_EQ(rq_clock_pelt(c, 123456789, false, kPeltFullUtilSum), 123456789u);
    EXPECT_EQ(rq_clock_pelt(c, 223456789, true, kPeltFullUtilSum), 223456789u);
    EXPECT_EQ(c.lost_idle_time, 0u);
}

// A task with idle time (4 ms running, 4 ms asleep): on a CPU of half the
// capacity it does its 4 ms in 2 ms of PELT time, so load, runnable and
// util all come to about half of what they reach on a full CPU (the
// kernel: each is capacity x duty cycle, 256 here against 512). Scaling
// util alone, the old model kept load and runnable at 512 on both.
TEST(PeltClock, HalfCapacityHalvesLoadRunnableAndUtilOfATaskThatSleeps)
{
    OneTaskCpu full(1024), half(512);
    full.periodic(400 * kMs, 4 * kMs, 4 * kMs);
    half.periodic(400 * kMs, 4 * kMs, 4 * kMs);
    EXPECT_NEAR(static_cast<double>(full.task.util_avg), 512.0, 40.0);
    EXPECT_NEAR(ratio(half.task.load_avg, full.task.load_avg), 0.5, 0.05);
    EXPECT_NEAR(ratio(half.task.runnable_avg, full.task.runnable_avg), 0.5, 0.05);
    EXPECT_NEAR(ratio(half.task.util_avg, full.task.util_avg), 0.5, 0.05);
    EXPECT_NEAR(ratio(half.rq.load_avg, full.rq.load_avg), 0.5, 0.05);  // cpu_load()
    EXPECT_NEAR(ratio(half.rq.runnable_avg, full.rq.runnable_avg), 0.5, 0.05);
}

// An always-running task never lets its CPU idle, so the clock never
// catches up: in PELT time it ran all the time, and every signal reaches
// its ceiling on any CPU (the kernel's figure: load_avg = runnable_avg =
// util_avg ~ 1024, whatever the capacity; misfit detection relies on it).
TEST(PeltClock, AnAlwaysRunningTaskSaturatesOnAnyCapacity)
{
    OneTaskCpu full(1024), half(512);
    full.phase(1000 * kMs, true);
    half.phase(1000 * kMs, true);
    for (const SchedAvg* a : {&full.task, &half.task, &full.rq, &half.rq}) {
        EXPECT_GE(a->load_avg, 1015u);
        EXPECT_GE(a->runnable_avg, 1015u);
        EXPECT_GE(a->util_avg, 1015u);
    }
    EXPECT_LE(half.rq.load_avg, full.rq.load_avg);
}

// Asleep, the signals decay at wall speed on any CPU: 32 periods (32 x
// 1024 x 1024 ns) halve them, as on a full CPU.
TEST(PeltClock, SignalsDecayAtWallSpeedWhileIdle)
{
    constexpr std::uint64_t kHalfLife = 32ull * 1024 * 1024;
    // After a task with idle time, the clock simply resyncs.
    OneTaskCpu periodic(512);
    periodic.periodic(400 * kMs, 4 * kMs, 4 * kMs);
    const unsigned long before = periodic.task.util_avg;
    periodic.phase(kHalfLife, false);
    EXPECT_EQ(periodic.clock.lost_idle_time, 0u);
    EXPECT_NEAR(static_cast<double>(periodic.task.util_avg), before / 2.0, 3.0);

    // After an always-running one, the jump is lost idle time and the
    // clock goes on from where it was, at wall speed: the same decay as on
    // a full CPU.
    OneTaskCpu busy(512), full(1024);
    busy.phase(1000 * kMs, true);
    full.phase(1000 * kMs, true);
    const unsigned long busy_before = busy.task.util_avg;
    busy.phase(kHalfLife, false);
    full.phase(kHalfLife, false);
    EXPECT_GT(busy.clock.lost_idle_time, 0u);
    EXPECT_NEAR(static_cast<double>(busy.task.util_avg), busy_before / 2.0, 8.0);  // to the last period crossed
    EXPECT_NEAR(static_cast<double>(busy.task.load_avg), busy_before / 2.0, 8.0);
    EXPECT_NEAR(static_cast<double>(busy.rq.load_avg), static_cast<double>(full.rq.load_avg), 3.0);
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

// SPDX-License-Identifier: Apache-2.0
//
// Capacity invariance of PELT through the fair class's own updates (the
// runqueue's clock_pelt read at every enqueue, tick, dequeue and pick): a
// task pinned to a small CPU of an asymmetric machine, against the same
// task on a full one.
#include <gtest/gtest.h>

#include <string_view>

#include "sched/eevdf.h"
#include "sched/fair_util.h"
#include "sched/sched_state.h"
#include "topology/sched_domains.h"
#include "topology/synthetic.h"

namespace wb {
namespace {

constexpr Time kMs = Time::ms(1);
constexpr Time kHalfLife = Time::ns(32 * 1024 * 1024);  // 32 periods of 1024 x 1024 ns

// One little CPU of the Dynamiq's capacity (arm-dynamiq-3cap's Cortex-A510,
// 354) and one big one; NO_DELAY_DEQUEUE so that a sleep dequeues at once.
struct AsymRig {
    AsymRig() : machine(parse_synthetic("core=2,capacity=354/1024")), domains(SchedDomains::build(machine))
    {
        FeatureSet feats;
        EXPECT_EQ(feats.apply("NO_DELAY_DEQUEUE"), "");
        s = make_sched_state(machine, domains, feats);
    }
    AsymRig(const AsymRig&) = delete;
    AsymRig& operator=(const AsymRig&) = delete;

    TaskId add_task(CpuId cpu)
    {
        Task t;
        t.id = static_cast<TaskId>(s.tasks.size());
        t.name = "t" + std::to_string(t.id);
        t.cpus_allowed = machine.all_cpus();
        t.nr_cpus_allowed = machine.nr_cpus();
        t.cpu = t.wake_cpu = cpu;
        set_load_weight(t);
        s.tasks.push_back(t);
        return t.id;
    }

    // Runs p on cpu for `run`, ticking every 1 ms, then (if `sleep` is
    // not zero) puts it to sleep and leaves the CPU idle for `sleep`.
    void cycle(CpuId cpu, TaskId p, Time run, Time sleep)
    {
        enqueue_task_fair(s, cpu, p, ENQUEUE_WAKEUP);
        ASSERT_EQ(pick_next_task_fair(s, cpu), p);
        for (const Time end = s.now + run; s.now < end;) {
            s.now += kMs;
            if (task_tick_fair(s, cpu)) {
                ASSERT_EQ(pick_next_task_fair(s, cpu), p);
            }
        }
        if (sleep == Time())
            return;
        s.task(p).state = TaskState::Sleeping;
        dequeue_task_fair(s, cpu, p, DEQUEUE_SLEEP);
        ASSERT_EQ(pick_next_task_fair(s, cpu), kNoTask);
        s.now += sleep;
    }

    Machine machine;
    SchedDomains domains;
    SchedState s;
};

// A task running 4 ms in every 8 (it leaves idle time). The kernel's
// cpu_load() of the little CPU is its capacity x the duty cycle x the
// task's weight, 354 / 1024 x 0.5 x 1024 = 177, against 512 on the big
// CPU; with util alone scaled, the model had 512 on both, which made the
// little CPU's cpu_load and avg_load three times too large.
TEST(PeltInvariance, ALittleCpusLoadIsItsCapacityTimesTheDutyCycle)
{
    AsymRig little, big;
    const TaskId p = little.add_task(0);
    const TaskId q = big.add_task(1);
    for (int i = 0; i < 60; ++i) {
        little.cycle(0, p, Time::ms(4), Time::ms(4));
        big.cycle(1, q, Time::ms(4), Time::ms(4));
    }
    // Sampled at the wakeup, the low point of the ripple, as a waker's
    // wake_affine_weight() would read it.
    update_cfs_rq_load_avg(little.s, 0);
    update_cfs_rq_load_avg(big.s, 1);
    const auto little_load = static_cast<double>(cpu_load(little.s, 0));
    const auto big_load = static_cast<double>(cpu_load(big.s, 1));
    EXPECT_NEAR(big_load, 512.0, 45.0);
    EXPECT_NEAR(little_load / big_load, 354.0 / 1024.0, 0.03);
    EXPECT_NEAR(static_cast<double>(little.s.task(p).se.avg.runnable_avg) / big.s.task(q).se.avg.runnable_avg,
                354.0 / 1024.0, 0.03);
    EXPECT_NEAR(static_cast<double>(little.s.task(p).se.avg.util_avg) / big.s.task(q).se.avg.util_avg,
                354.0 / 1024.0, 0.03);
}

// An always-running task: the little CPU never idles, so its PELT clock
// never catches up and in PELT time the task ran throughout. The kernel's
// cpu_load() is then the task's full weight, 1024, as on the big CPU (no
// larger than before: the old model gave 1024 too), and util_avg also
// reaches 1024 (the old model stopped it at 354), which is what marks the
// task a misfit for the little CPU.
TEST(PeltInvariance, AnAlwaysRunningTaskWeighsItsFullWeightOnALittleCpu)
{
    AsymRig little, big;
    const TaskId p = little.add_task(0);
    const TaskId q = big.add_task(1);
    little.cycle(0, p, Time::ms(1500), Time());
    big.cycle(1, q, Time::ms(1500), Time());
    EXPECT_GE(cpu_load(little.s, 0), 1010u);
    EXPECT_LE(cpu_load(little.s, 0), cpu_load(big.s, 1));
    EXPECT_GE(little.s.task(p).se.avg.util_avg, 1010u);
    EXPECT_GE(little.s.task(p).se.avg.runnable_avg, 1010u);
}

// Idle, the little CPU's signals decay at wall speed: 32 PELT periods
// (32 x 1024 x 1024 ns, 33.6 ms) halve them,
// whether the CPU's clock resyncs (a task with idle time) or goes on with
// lost idle time (a CPU that was fully used).
TEST(PeltInvariance, ALittleCpuDecaysAtWallSpeedWhileIdle)
{
    AsymRig r;
    const TaskId p = r.add_task(0);
    r.cycle(0, p, Time::ms(1500), Time::ms(1));
    update_cfs_rq_load_avg(r.s, 0);
    const auto before = static_cast<double>(cpu_load(r.s, 0));
    EXPECT_GT(r.s.rq(0).pelt_clock.lost_idle_time, 0u);
    r.s.now += kHalfLife;
    update_cfs_rq_load_avg(r.s, 0);
    EXPECT_NEAR(static_cast<double>(cpu_load(r.s, 0)), before / 2.0, 6.0);

    AsymRig q;
    const TaskId t = q.add_task(0);
    for (int i = 0; i < 60; ++i)
        q.cycle(0, t, Time::ms(4), Time::ms(4));
    update_cfs_rq_load_avg(q.s, 0);
    const auto periodic = static_cast<double>(cpu_load(q.s, 0));
    EXPECT_EQ(q.s.rq(0).pelt_clock.lost_idle_time, 0u);
    q.s.now += kHalfLife;
    update_cfs_rq_load_avg(q.s, 0);
    EXPECT_NEAR(static_cast<double>(cpu_load(q.s, 0)), periodic / 2.0, 4.0);
}

}  // namespace
}  // namespace wb

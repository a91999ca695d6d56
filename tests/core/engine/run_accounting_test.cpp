// SPDX-License-Identifier: Apache-2.0
//
// What the engine counts for the figures real tools report: iowait (idle
// time while a task sleeps in io_schedule()), sched_yield() calls, cpuidle
// entries, the workload's own context switches apart from kernel threads',
// and the payload bytes workloads declare by distance.
#include <gtest/gtest.h>

#include "engine/kernel.h"
#include "engine/simulator.h"
#include "metrics/run_figures.h"
#include "quiet_machine.h"

namespace wb {
namespace {

using test::quiet_machine;

// One task that computes, submits an I/O and sleeps until the device's
// completion interrupt on its CPU wakes it, `rounds` times: with
// `iowait`, the sleep is io_schedule()'s.
class DeviceWaiter : public Workload {
public:
    DeviceWaiter(int rounds, bool iowait, bool reads) : rounds_(rounds), iowait_(iowait), reads_(reads) {}
    void setup(Kernel& k) override
    {
        task_ = k.create_task({"waiter", 0, CpuMask::of(k.machine().nr_cpus(), {3}), 0, SchedPolicy::Normal, false});
        k.wake_up_new_task(task_, 3);
    }
    Step next_step(Kernel& k, TaskId) override
    {
        if (phase_ == 2) {  // back from the wait: the completion's data, DMA'd in on this CPU's node
            if (reads_)
                k.note_data_read(4096, 3);
            phase_ = 0;
            if (++done_rounds_ == rounds_)
                return Step::exit();
        }
        if (phase_ == 0) {
            phase_ = 1;
            return Step::compute(Time::us(10));
        }
        phase_ = 2;
        k.start_timer(k.now() + Time::us(100), 0);
        return iowait_ ? Step::block_io() : Step::block();
    }
    void on_timer(Kernel& k, std::int64_t) override { k.wake_up_from_irq(task_, 3, 0); }
    bool done() const override { return done_rounds_ == rounds_; }
    double ops() const override { return done_rounds_; }
    Headline headline(Time elapsed) const override { return {"elapsed", elapsed.to_us(), "us", true}; }
    std::string report(Time) const override { return {}; }

private:
    int rounds_;
    bool iowait_, reads_;
    TaskId task_ = kNoTask;
    int phase_ = 0;
    int done_rounds_ = 0;
};

TEST(RunAccounting, IdleTimeWhileATaskSleepsInIoScheduleIsIowaitOnItsCpuOnly)
{
    Simulator sim(quiet_machine(), std::make_unique<DeviceWaiter>(20, true, false), SimOptions{});
    ASSERT_TRUE(sim.run());
    const std::vector<CpuTimes>& times = sim.metrics().cpu_times;
    // CPU 3 idles 100 us per round, less the completion's idle exit, and
    // the interrupt ends each idle period while the task still sleeps.
    EXPECT_GT(times[3].iowait, Time::us(20 * 95));
    // Plain idle: the 2 us idle exit after each completion (the engine
    // handles the interrupt as it arrives, the CPU wakes after), and the
    // start, before the task first ran.
    EXPECT_LE(times[3].idle - times[3].iowait, Time::us(20 * 2 + 5));
    for (std::size_t cpu = 0; cpu < times.size(); ++cpu) {
        if (cpu != 3) {
            EXPECT_EQ(times[cpu].iowait, Time()) << "cpu " << cpu;
        }
    }
    const RunFigures f = run_figures(sim.metrics(), sim.elapsed(), 20, Headline{});
    EXPECT_GT(f.iowait_pct, 0.0);
    EXPECT_NEAR(f.busy_pct + f.idle_pct + f.iowait_pct, 100.0, 1e-9);
    // CPU 3's idle task hands it to the task 21 times: at the start and
    // after each completion; perf counts those as context switches too.
    EXPECT_EQ(sim.metrics().switches_from_idle, 21u);
    EXPECT_EQ(sim.metrics().voluntary_switches, 20u);
    EXPECT_DOUBLE_EQ(f.context_switches_per_sec, (20 + 21) / sim.elapsed().to_seconds());
    // Each wakeup is an interrupt on CPU 3: its kernel work is irq time.
    EXPECT_GT(sim.metrics().irq_time, Time());
    EXPECT_GT(f.irq_pct, 0.0);
}

TEST(RunAccounting, APlainSleepLeavesIdleTimeIdle)
{
    Simulator sim(quiet_machine(), std::make_unique<DeviceWaiter>(20, false, false), SimOptions{});
    ASSERT_TRUE(sim.run());
    const CpuTimes& cpu3 = sim.metrics().cpu_times[3];
    EXPECT_GT(cpu3.idle, Time::us(20 * 95));
    EXPECT_EQ(cpu3.iowait, Time());
}

TEST(RunAccounting, EveryIdlePeriodIsOneCpuidleEntry)
{
    Simulator sim(quiet_machine(), std::make_unique<DeviceWaiter>(20, false, false), SimOptions{});
    ASSERT_TRUE(sim.run());
    // All eight CPUs idle from the start; CPU 3 then idles once per round
    // and once after the task exits.
    EXPECT_EQ(sim.metrics().idle_entries, 8u + 20u + 1u);
}

TEST(RunAccounting, DeclaredReadsAreCountedByWhereTheDataWasWritten)
{
    Simulator sim(quiet_machine(), std::make_unique<DeviceWaiter>(5, false, true), SimOptions{});
    ASSERT_TRUE(sim.run());
    const auto& bytes = sim.metrics().bytes_read;
    EXPECT_EQ(bytes[static_cast<std::size_t>(DistanceClass::SameCpu)], 5u * 4096);
    for (std::size_t d = 1; d < bytes.size(); ++d)
        EXPECT_EQ(bytes[d], 0u);
}

// Two tasks on one CPU that alternate by sched_yield(), and a kernel thread.
class YieldPair : public Workload {
public:
    void setup(Kernel& k) override
    {
        for (int i = 0; i < 3; ++i) {
            TaskSpec spec{i < 2 ? "yielder" : "kthread", 0, CpuMask::of(k.machine().nr_cpus(), {2}), 0,
                          SchedPolicy::Normal, i == 2};
            ids_[i] = k.create_task(spec);
            k.wake_up_new_task(ids_[i], 2);
        }
    }
    Step next_step(Kernel&, TaskId t) override
    {
        int& n = steps_[t == ids_[0] ? 0 : t == ids_[1] ? 1 : 2];
        if (t == ids_[2])  // the kthread: sleeps, once woken never again
            return n++ ? Step::exit() : Step::compute(Time::us(5));
        if (n == 20) {
            ++exited_;
            return Step::exit();
        }
        return n++ % 2 ? Step::yield() : Step::compute(Time::us(50));
    }
    bool done() const override { return exited_ == 2; }
    double ops() const override { return 0; }
    Headline headline(Time elapsed) const override { return {"elapsed", elapsed.to_us(), "us", true}; }
    std::string report(Time) const override { return {}; }

private:
    TaskId ids_[3] = {kNoTask, kNoTask, kNoTask};
    int steps_[3] = {0, 0, 0};
    int exited_ = 0;
};

TEST(RunAccounting, YieldsAreCountedAndKernelThreadsAreNotTheWorkloads)
{
    Simulator sim(quiet_machine(), std::make_unique<YieldPair>(), SimOptions{});
    ASSERT_TRUE(sim.run());
    const RunMetrics& m = sim.metrics();
    EXPECT_EQ(m.yields, 2u * 10);
    // A yield to the other task is an involuntary switch of the yielder.
    EXPECT_GT(m.workload_involuntary_switches, 0u);
    EXPECT_LE(m.workload_involuntary_switches, m.involuntary_switches);
    EXPECT_LE(m.workload_voluntary_switches + m.workload_involuntary_switches,
              m.voluntary_switches + m.involuntary_switches);
    // The run's tasks ran 2 x 10 x 50 us and the kthread 5 us, plus the
    // switches' kernel time that each next task is charged.
    EXPECT_GE(m.runtime, Time::us(2 * 10 * 50 + 5));
    EXPECT_LT(m.runtime, Time::us(2 * 10 * 50 + 5 + 60));
    const RunFigures f = run_figures(m, sim.elapsed(), 0, Headline{});
    EXPECT_DOUBLE_EQ(f.sched_yield_calls, 20.0);
    EXPECT_GT(f.run_delay_per_runtime, 0.0);  // two tasks share one CPU
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// The services the engine offers workloads beyond compute / block / exit:
// timed sleeps (an hrtimer interrupt wakes the task), sched_yield(),
// interrupt-context wakeups and workload timers.
#include <gtest/gtest.h>

#include "engine/kernel.h"
#include "engine/simulator.h"
#include "quiet_machine.h"

namespace wb {
namespace {

using test::quiet_machine;

// Each task computes, then sleeps, `rounds` times.
class Sleeper : public Workload {
public:
    Sleeper(int tasks, int rounds, Time work, Time nap) : tasks_(tasks), rounds_(rounds), work_(work), nap_(nap) {}
    void setup(Kernel& k) override
    {
        for (int i = 0; i < tasks_; ++i) {
            ids_.push_back(k.create_task({"sleeper", 0, {}, 0, SchedPolicy::Normal, false}));
            left_.push_back(2 * rounds_);
            k.wake_up_new_task(ids_.back(), 0);
        }
    }
    Step next_step(Kernel&, TaskId t) override
    {
        int& left = left_[static_cast<std::size_t>(t)];
        if (left == 0) {
            ++exited_;
            return Step::exit();
        }
        --left;
        return left % 2 ? Step::compute(work_) : Step::sleep(nap_);
    }
    bool done() const override { return exited_ == tasks_; }
    double ops() const override { return rounds_; }
    Headline headline(Time elapsed) const override { return {"elapsed", elapsed.to_us(), "us", true}; }
    std::string report(Time) const override { return {}; }

private:
    int tasks_, rounds_;
    Time work_, nap_;
    std::vector<TaskId> ids_;
    std::vector<int> left_;
    int exited_ = 0;
};

TEST(KernelServices, TimedSleepWakesFromTheTimerInterruptOnItsCpu)
{
    SimOptions opt;
    std::vector<DecisionRecord> records;
    Simulator sim(quiet_machine(), std::make_unique<Sleeper>(1, 10, Time::us(100), Time::ms(1)), opt);
    sim.set_record_sink([&](const DecisionRecord& r) { records.push_back(r); });
    ASSERT_TRUE(sim.run());
    // 10 x (100 us of work + 1 ms asleep), plus switches and idle exits.
    EXPECT_GT(sim.elapsed(), Time::us(10 * 1100));
    EXPECT_LT(sim.elapsed(), Time::us(10 * 1100 + 200));
    EXPECT_EQ(sim.metrics().wakeups, 10u);
    EXPECT_EQ(sim.metrics().involuntary_switches, 0u);
    ASSERT_EQ(records.size(), 11u);  // the fork and ten timer wakeups
    const DecisionRecord& timer = records[1];
    EXPECT_EQ(timer.waker, kNoTask);  // the interrupt came while the CPU idled
    EXPECT_EQ(timer.waker_cpu, timer.prev_cpu);
    EXPECT_EQ(timer.chosen, timer.prev_cpu);  // back on its idle CPU: select_idle_sibling's first return
    EXPECT_EQ(timer.path, WakePath::TargetIdle);
    EXPECT_EQ(timer.wake_flags & WF_SYNC, 0u);
    // The local interrupt needs no IPI; the CPU only leaves C1.
    EXPECT_EQ(sim.metrics().ipis, 0u);
    EXPECT_GE(sim.metrics().wakeup_latency.percentile(0.5), 2000);
}

// Tasks pinned to one CPU that compute and yield.
class Yielder : public Workload {
public:
    explicit Yielder(int rounds) : rounds_(rounds) {}
    void setup(Kernel& k) override
    {
        for (int i = 0; i < 2; ++i) {
            TaskSpec spec{"yielder", i, CpuMask::of(k.machine().nr_cpus(), {2}), 0, SchedPolicy::Normal, false};
            ids_[i] = k.create_task(spec);
            k.wake_up_new_task(ids_[i], 2);
        }
    }
    Step next_step(Kernel& k, TaskId t) override
    {
        const int i = t == ids_[0] ? 0 : 1;
        order_.push_back(i);
        (void)k;
        if (steps_[i] == 2 * rounds_) {
            ++exited_;
            return Step::exit();
        }
        return steps_[i]++ % 2 ? Step::yield() : Step::compute(Time::us(50));
    }
    bool done() const override { return exited_ == 2; }
    double ops() const override { return rounds_; }
    Headline headline(Time elapsed) const override { return {"elapsed", elapsed.to_us(), "us", true}; }
    std::string report(Time) const override { return {}; }
    std::vector<int> order_;

private:
    int rounds_;
    TaskId ids_[2] = {kNoTask, kNoTask};
    int steps_[2] = {0, 0};
    int exited_ = 0;
};

TEST(KernelServices, YieldHandsTheCpuToTheOtherRunnableTask)
{
    auto owned = std::make_unique<Yielder>(20);
    Yielder* y = owned.get();
    Simulator sim(quiet_machine(), std::move(owned), {});
    ASSERT_TRUE(sim.run());
    // After each yield the other task runs: the tasks alternate.
    int switches = 0;
    for (std::size_t i = 1; i < y->order_.size(); ++i)
        switches += y->order_[i] != y->order_[i - 1];
    EXPECT_GE(switches, 38);
    EXPECT_GE(sim.metrics().involuntary_switches, 38u);
}

// A device completes an I/O after 200 us and its interrupt on CPU 5 wakes
// the task that waits for it.
class Completion : public Workload {
public:
    void setup(Kernel& k) override
    {
        task_ = k.create_task({"waiter", 0, {}, 0, SchedPolicy::Normal, false});
        k.wake_up_new_task(task_, 1);
    }
    Step next_step(Kernel& k, TaskId) override
    {
        if (woken_) {
            finished_ = true;
            return Step::exit();
        }
        k.start_timer(k.now() + Time::us(200), 42);
        return Step::block();
    }
    void on_timer(Kernel& k, std::int64_t token) override
    {
        EXPECT_EQ(token, 42);
        woken_ = true;
        k.wake_up_from_irq(task_, 5, 0);
    }
    bool done() const override { return finished_; }
    double ops() const override { return 1; }
    Headline headline(Time elapsed) const override { return {"elapsed", elapsed.to_us(), "us", true}; }
    std::string report(Time) const override { return {}; }

private:
    TaskId task_ = kNoTask;
    bool woken_ = false;
    bool finished_ = false;
};

TEST(KernelServices, InterruptWakeupsComeFromTheInterruptedCpu)
{
    std::vector<DecisionRecord> records;
    Simulator sim(quiet_machine(), std::make_unique<Completion>(), {});
    sim.set_record_sink([&](const DecisionRecord& r) { records.push_back(r); });
    ASSERT_TRUE(sim.run());
    ASSERT_EQ(records.size(), 2u);
    EXPECT_EQ(records[1].waker_cpu, 5);
    EXPECT_EQ(records[1].waker, kNoTask);
    EXPECT_GT(sim.elapsed(), Time::us(200));
}

}  // namespace
}  // namespace wb

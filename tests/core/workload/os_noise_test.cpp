// SPDX-License-Identifier: Apache-2.0
//
// OS noise: per-CPU kworkers that a timer interrupt wakes at random, each
// burst keeping its CPU busy for the machine's os_noise_burst.
#include "workload/os_noise.h"

#include <gtest/gtest.h>

#include "engine/simulator.h"
#include "topology/synthetic.h"

namespace wb {
namespace {

// One task that sleeps for `length` and exits: the machine is idle but for
// the noise.
class IdleFor : public Workload {
public:
    explicit IdleFor(Time length) : length_(length) {}
    void setup(Kernel& k) override
    {
        task_ = k.create_task({"idler", 0, {}, 0, SchedPolicy::Normal, false});
        k.wake_up_new_task(task_, 0);
    }
    Step next_step(Kernel&, TaskId) override
    {
        if (slept_) {
            done_ = true;
            return Step::exit();
        }
        slept_ = true;
        return Step::sleep(length_);
    }
    bool done() const override { return done_; }
    double ops() const override { return 1; }
    Headline headline(Time elapsed) const override { return {"elapsed", elapsed.to_us(), "us", true}; }
    std::string report(Time) const override { return {}; }

private:
    Time length_;
    TaskId task_ = kNoTask;
    bool slept_ = false;
    bool done_ = false;
};

Machine noisy_machine(double interval_ns, double burst_ns)
{
    Machine m = parse_synthetic("llc=1,core=4,smt=1");
    m.idle_states = {{"C1", 1000, 2000}};
    m.costs.at(Cost::os_noise_interval).value = interval_ns;
    m.costs.at(Cost::os_noise_burst).value = burst_ns;
    return m;
}

TEST(OsNoise, AMachineWithoutNoiseRunsTheWorkloadUnwrapped)
{
    auto inner = std::make_unique<IdleFor>(Time::ms(1));
    const Workload* given = inner.get();
    EXPECT_EQ(OsNoise::wrap(std::move(inner), noisy_machine(0, 40'000)).get(), given);
    auto inner2 = std::make_unique<IdleFor>(Time::ms(1));
    const Workload* given2 = inner2.get();
    EXPECT_NE(OsNoise::wrap(std::move(inner2), noisy_machine(1e6, 40'000)).get(), given2);
}

TEST(OsNoise, KeepsEachCpuBusyForBurstOverInterval)
{
    // 100 us every 10 ms on average: 1% of every CPU, over two simulated
    // seconds about 200 bursts per CPU.
    Simulator sim(noisy_machine(10e6, 100e3), std::make_unique<IdleFor>(Time::s(2)), SimOptions{});
    std::vector<DecisionRecord> wakeups;
    sim.set_record_sink([&](const DecisionRecord& r) { wakeups.push_back(r); });
    ASSERT_TRUE(sim.run());
    const RunMetrics& m = sim.metrics();
    for (CpuId cpu = 0; cpu < 4; ++cpu) {
        const auto& t = m.cpu_times[static_cast<std::size_t>(cpu)];
        const double busy = t.busy.to_us() / (t.busy + t.idle).to_us();
        EXPECT_GT(busy, 0.007) << "cpu " << cpu;
        EXPECT_LT(busy, 0.014) << "cpu " << cpu;
    }
    // Every burst is a kworker bound to its CPU, woken there from the timer
    // interrupt: no placement decision, never in task context.
    int kworker_wakeups = 0;
    for (const DecisionRecord& r : wakeups) {
        if (r.wakee == 0)
            continue;  // the idler
        ++kworker_wakeups;
        EXPECT_EQ(r.path, WakePath::NotSelected);
        EXPECT_EQ(r.chosen, r.waker_cpu);
        EXPECT_EQ(r.chosen, r.wakee - 1) << "kworker/N runs on CPU N";
    }
    EXPECT_GT(kworker_wakeups, 4 * 150);
    EXPECT_LT(kworker_wakeups, 4 * 250);
}

TEST(OsNoise, TheSimulatorShowsTheWorkloadAsGiven)
{
    Simulator sim(noisy_machine(10e6, 100e3), std::make_unique<IdleFor>(Time::ms(1)), SimOptions{});
    EXPECT_NE(dynamic_cast<const IdleFor*>(&sim.workload()), nullptr);
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "workload/io_uring.h"

#include <gtest/gtest.h>

#include "engine/simulator.h"
#include "io/input_error.h"
#include "topology/sd_flags.h"
#include "topology/synthetic.h"
#include "workload/workload_spec.h"

#include "workload_test_util.h"

namespace wb {
namespace {

using test::error_of;
using test::teaching;

TEST(IoUring, CompletionInterruptWakesTheSubmittersKworkerWhichWakesTheInstance)
{
    std::vector<DecisionRecord> records;
    Simulator sim(teaching(), make_workload("io-uring:instances=2,ops=5"), {});
    sim.set_record_sink([&](const DecisionRecord& r) { records.push_back(r); });
    ASSERT_TRUE(sim.run());
    int irq_wakeups = 0, kworker_wakeups = 0, kthread_path = 0;
    for (const DecisionRecord& r : records) {
        if (r.wake_flags & WF_FORK)
            continue;
        const Task& wakee = sim.state().task(r.wakee);
        if (wakee.kthread) {
            // The device interrupt on the submitting CPU wakes that CPU's kworker.
            ++irq_wakeups;
            EXPECT_EQ(r.wake_flags & WF_SYNC, 0u);
            EXPECT_EQ(r.waker_cpu, wakee.cpus_allowed.first());
            EXPECT_TRUE(r.waker == kNoTask || !sim.state().task(r.waker).kthread);
        } else {
            // The kworker wakes the instance from task context, not sync.
            ++kworker_wakeups;
            ASSERT_NE(r.waker, kNoTask);
            EXPECT_TRUE(sim.state().task(r.waker).per_cpu_kthread());
            EXPECT_EQ(r.wake_flags & WF_SYNC, 0u);
            EXPECT_EQ(r.waker_cpu, r.prev_cpu);
            kthread_path += r.path == WakePath::PerCpuKthread;
        }
    }
    EXPECT_EQ(kworker_wakeups, 10);  // one per I/O
    EXPECT_GE(irq_wakeups, 1);
    EXPECT_LE(irq_wakeups, 10);
    // Two instances may share a CPU for a while (then step 3 does not apply).
    EXPECT_GE(kthread_path, 5);
}

TEST(IoUring, ALoneInstanceIsKeptOnItsCpuByThePerCpuKthreadStep)
{
    std::vector<DecisionRecord> records;
    Simulator sim(teaching(), make_workload("io-uring:instances=1,ops=10"), {});
    sim.set_record_sink([&](const DecisionRecord& r) { records.push_back(r); });
    ASSERT_TRUE(sim.run());
    int kthread_path = 0;
    for (const DecisionRecord& r : records)
        kthread_path += r.path == WakePath::PerCpuKthread;
    // The instance submitted from the kworker's CPU, which runs only the
    // kworker: select_idle_sibling step 3 returns prev every time.
    EXPECT_EQ(kthread_path, 10);
}

TEST(IoUring, EachInstanceDoesItsOpsAndWaitsOutTheLatencyEachTime)
{
    Simulator sim(teaching(), make_workload("io-uring:instances=3,ops=20,latency=50us"), {});
    ASSERT_TRUE(sim.run());
    EXPECT_EQ(sim.workload().ops(), 60.0);
    EXPECT_GT(sim.elapsed(), Time::us(20 * 50));
    EXPECT_LT(sim.elapsed(), Time::us(20 * 80));
}

TEST(IoUring, TimeoutStopsTheRunInSimulatedTime)
{
    Simulator sim(teaching(), make_workload("io-uring:instances=1,timeout=2ms,latency=100us,work=0us"), {});
    ASSERT_TRUE(sim.run());
    // Each I/O: the latency plus a few us of syscall, wakeups and switches.
    EXPECT_GE(sim.workload().ops(), 15.0);
    EXPECT_LE(sim.workload().ops(), 20.0);
    EXPECT_GE(sim.elapsed(), Time::ms(2));
    const Headline h = sim.workload().headline(sim.elapsed());
    EXPECT_EQ(h.name, "bogo ops/s");
    EXPECT_FALSE(h.lower_is_better);
    EXPECT_NEAR(h.value, sim.workload().ops() / sim.elapsed().to_seconds(), 1e-6);
}

TEST(IoUring, ReportsInStressNgMetricsLayout)
{
    Simulator sim(teaching(), make_workload("io-uring:instances=2,ops=5"), {});
    ASSERT_TRUE(sim.run());
    const std::string out = sim.workload().report(sim.elapsed());
    EXPECT_NE(out.find("stress-ng: info:  [1] dispatching hogs: 2 io-uring\n"), std::string::npos) << out;
    EXPECT_NE(out.find("stress-ng: metrc: [1] stressor       bogo ops real time"), std::string::npos) << out;
    EXPECT_NE(out.find("stress-ng: metrc: [1] io-uring             10 "), std::string::npos) << out;
    EXPECT_NE(out.find("successful run completed in 0.00 secs"), std::string::npos) << out;
}

TEST(IoUring, BadParametersNameTheParameterAndWhatWasExpected)
{
    EXPECT_NE(error_of("io-uring:depth=4").find("unknown parameter 'depth' of io-uring; expected instances, latency"),
              std::string::npos);
    EXPECT_NE(error_of("io-uring:latency=fast").find("latency=fast: expected a duration"), std::string::npos);
    EXPECT_NE(error_of("io-uring:instances=-1").find("instances=-1: expected a whole number"), std::string::npos);
    EXPECT_NE(error_of("io-uring:timeout=0s").find("timeout=0s: expected a duration above 0"), std::string::npos);
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "session/run_snapshot.h"

#include <gtest/gtest.h>

#include "engine/simulator.h"
#include "io/topology_library.h"
#include "sched/select_idle.h"
#include "session/lockstep_run.h"

namespace wb {
namespace {

RunRequest request(const std::string& workload)
{
    RunRequest r;
    r.workload = workload;
    return r;
}

// Both pipe tasks pinned to CPU 3 of teaching-8: that CPU holds them, every
// other CPU stays idle.
TEST(RunSnapshot, PinnedPipePairShowsOnItsCpu)
{
    const Machine m = resolve_machine("teaching-8");
    LockstepRun run(m, request("pipe:loops=20,cpus=3"), {"baseline"});
    for (int k = 0; k < 6; ++k) {
        const LockstepStep step = run.step_wakeup();
        ASSERT_TRUE(step.records[0].has_value());
        EXPECT_EQ(step.records[0]->chosen, 3);
        const RunSnapshot snap = run.snapshot(0);
        ASSERT_EQ(snap.cpus.size(), 8u);
        const CpuSnapshot& c = snap.cpus[3];
        // Both tasks are queued there from the forks on; after each pipe
        // write the writer still runs and the reader waits behind it.
        EXPECT_EQ(c.nr_running, 2u) << k;
        EXPECT_FALSE(c.idle);
        EXPECT_EQ(c.h_nr_delayed, 0u);
        if (k >= 2) {
            EXPECT_EQ(c.curr, step.records[0]->waker) << k;
            EXPECT_EQ(c.curr, k % 2 == 0 ? 1 : 0) << k;
            EXPECT_EQ(c.curr_group, c.curr);  // pipe puts each task in a group of its own
            EXPECT_EQ(c.idle_state, -1);
        } else {
            EXPECT_EQ(c.curr, kNoTask);  // forked onto an idle CPU that has not switched yet
        }
        for (const CpuSnapshot& other : snap.cpus) {
            if (other.cpu == 3)
                continue;
            EXPECT_EQ(other.nr_running, 0u) << other.cpu;
            EXPECT_EQ(other.curr, kNoTask) << other.cpu;
            EXPECT_TRUE(other.idle) << other.cpu;
        }
    }
}

TEST(RunSnapshot, CountersEqualTheSchedState)
{
    const Machine m = resolve_machine("ampere-altra-80");
    LockstepRun run(m, request("hackbench:groups=2,loops=20"), {"baseline"});
    // A moment with a task on a CPU, in the first hackbench round (the
    // senders' 150 us core-off exits leave gaps in which every CPU idles).
    auto anyone_running = [&] {
        for (const Rq& rq : run.sim(0).state().rqs)
            if (rq.curr != kNoTask)
                return true;
        return false;
    };
    for (Time t = Time::us(300); !anyone_running() && t < Time::us(600); t += Time::us(5))
        run.run_until(t);
    const RunSnapshot snap = run.snapshot(0);
    const Simulator& sim = run.sim(0);
    const SchedState& s = sim.state();
    EXPECT_EQ(snap.now, s.now);
    EXPECT_EQ(snap.events, sim.metrics().events);
    EXPECT_EQ(snap.decisions, sim.wakeup_count());
    EXPECT_EQ(snap.metrics.wakeups, sim.metrics().wakeups);
    ASSERT_EQ(snap.cpus.size(), s.rqs.size());
    int busy = 0;
    for (const CpuSnapshot& c : snap.cpus) {
        const Rq& rq = s.rq(c.cpu);
        EXPECT_EQ(c.nr_running, rq.nr_running);
        EXPECT_EQ(c.h_nr_delayed, rq.cfs.h_nr_queued - rq.cfs.h_nr_runnable);
        EXPECT_EQ(c.curr, rq.curr);
        EXPECT_EQ(c.idle, idle_cpu(rq));
        EXPECT_EQ(c.idle_state, rq.idle_state);
        EXPECT_EQ(c.util_avg, rq.cfs.avg.util_avg);
        EXPECT_EQ(c.capacity, rq.cpu_capacity);
        EXPECT_EQ(c.avg_idle, rq.avg_idle);
        EXPECT_EQ(c.llc_has_idle_cores, test_idle_cores(s, c.cpu));
        if (c.curr != kNoTask) {
            EXPECT_EQ(c.curr_group, s.task(c.curr).group);
            ++busy;
        }
    }
    EXPECT_GT(busy, 0);
}

// Progress comes from the workload: loops done for pipe, messages
// delivered for hackbench, simulated time for time-bounded ones; 1 at the end.
TEST(RunSnapshot, ProgressIsTheWorkloadsOwnMeasure)
{
    const Machine m = resolve_machine("teaching-8");
    LockstepRun pipe(m, request("pipe:loops=1000"), {"baseline"});
    pipe.run_until(Time::us(500));
    const RunSnapshot mid = pipe.snapshot(0);
    EXPECT_GT(mid.ops, 0);
    EXPECT_DOUBLE_EQ(mid.progress, mid.ops / 1000);
    pipe.run_until(Time::s(10));
    EXPECT_DOUBLE_EQ(pipe.snapshot(0).progress, 1.0);

    LockstepRun hackbench(m, request("hackbench:groups=1,fds=2,loops=50,mode=pipe"), {"baseline"});
    hackbench.run_until(Time::us(200));
    const RunSnapshot h = hackbench.snapshot(0);
    EXPECT_DOUBLE_EQ(h.progress, h.ops / (1 * 2 * 2 * 50));

    LockstepRun schbench(m, request("schbench:runtime=4ms"), {"baseline"});
    schbench.run_until(Time::ms(1));
    EXPECT_NEAR(schbench.snapshot(0).progress, 0.25, 0.01);
}

}  // namespace
}  // namespace wb

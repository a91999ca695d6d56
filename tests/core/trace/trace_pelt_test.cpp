// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_pelt.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "trace/trace_parser.h"

namespace wb {
namespace {

std::string line(int cpu, const char* current, double t, const std::string& what)
{
    char stamp[32];
    std::snprintf(stamp, sizeof stamp, "%.6f", t);
    return std::string("  ") + current + " [00" + std::to_string(cpu) + "] d..2.  " + stamp + ": " + what + "\n";
}

struct Estimated {
    TraceState state{2, true};
    TracePelt pelt{2};
};

void run(Estimated& e, const std::string& text)
{
    for (const TraceEvent& ev : parse_trace(text, "t.txt").events) {
        const int before = e.state.cpus()[static_cast<std::size_t>(ev.cpu)].curr;
        e.state.apply(ev, nullptr);
        e.pelt.after_event(e.state, ev, before);
    }
}

// a (5) runs on CPU 0 for 300 ms, sleeps 32 ms (one half-life), then runs
// on CPU 1.
const std::string kRunSleepMove =
    "# tracer: nop\n" +
    line(0, "k-9", 1.0, "sched_switch: prev_comm=k prev_pid=9 prev_prio=120 prev_state=S ==> next_comm=a next_pid=5 next_prio=120") +
    line(1, "k-8", 1.0, "sched_switch: prev_comm=k prev_pid=8 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120") +
    line(0, "a-5", 1.3, "sched_switch: prev_comm=a prev_pid=5 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120");

TEST(TracePelt, ATaskThatRunsWithoutPauseApproachesFullUtilisation)
{
    Estimated e;
    run(e, kRunSleepMove);
    const int a = e.state.find_task(5);
    // 300 ms is ~9 half-lives: within 0.2% of the ceiling, for the task and
    // for the CPU it ran on; util_est learnt it when a blocked.
    EXPECT_GT(e.pelt.task(a).util_avg, 1000u);
    EXPECT_GT(e.pelt.task(a).util_est, 1000u);
    EXPECT_GT(e.pelt.cpu(0).util_avg, 1000u);
    EXPECT_EQ(e.pelt.cpu(1).util_avg, 0u) << "CPU 1 only idled";
    EXPECT_EQ(e.pelt.cpu(0).util_est, 0u) << "nothing is queued on CPU 0 now";
}

TEST(TracePelt, AWokenTaskBringsItsContributionToItsNewCpu)
{
    Estimated e;
    run(e, kRunSleepMove +
               line(1, "<idle>-0", 1.332, "sched_waking: comm=a pid=5 prio=120 target_cpu=000") +
               line(1, "<idle>-0", 1.332001, "sched_migrate_task: comm=a pid=5 prio=120 orig_cpu=0 dest_cpu=1") +
               line(1, "<idle>-0", 1.332002, "sched_wakeup: comm=a pid=5 prio=120 target_cpu=001"));
    const int a = e.state.find_task(5);
    // Asleep for one half-life: about half of what it had.
    EXPECT_NEAR(static_cast<double>(e.pelt.task(a).util_avg), 512.0, 40.0);
    EXPECT_GT(e.pelt.cpu(1).util_avg, 450u) << "attached to CPU 1";
    EXPECT_LT(e.pelt.cpu(0).util_avg, 40u) << "detached from CPU 0";
    EXPECT_EQ(e.pelt.cpu(1).util_est, e.pelt.task(a).util_est) << "queued on CPU 1";
    EXPECT_EQ(e.pelt.cpu_util(1, 1024), std::max<unsigned long>(e.pelt.cpu(1).util_avg, e.pelt.cpu(1).util_est));
}

}  // namespace
}  // namespace wb

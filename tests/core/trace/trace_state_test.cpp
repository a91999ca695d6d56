// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_state.h"

#include <gtest/gtest.h>

#include "trace/trace_parser.h"

namespace wb {
namespace {

struct Recorder final : TraceObserver {
    std::vector<TraceWakeup> wakeups;
    std::vector<TraceSwitch> switches;
    // What the selector would read at each sched_waking.
    std::vector<int> nr_running_of_prev;
    std::vector<bool> waker_cpu_idle;
    void waking(const TraceState& s, int p) override
    {
        const TraceTask& t = s.task(p);
        nr_running_of_prev.push_back(s.cpus()[static_cast<std::size_t>(t.wake_prev_cpu)].nr_running);
        waker_cpu_idle.push_back(s.cpu_idle(t.waker_cpu));
    }
    void wakeup(const TraceState&, const TraceWakeup& w) override { wakeups.push_back(w); }
    void switched(const TraceState&, const TraceSwitch& s) override { switches.push_back(s); }
};

Recorder replay(const std::string& text, TraceState& state)
{
    Recorder r;
    for (const TraceEvent& ev : parse_trace(text, "t.txt").events)
        state.apply(ev, &r);
    return r;
}

std::string ev(int cpu, const char* current, double t, const std::string& what)
{
    char stamp[32];
    std::snprintf(stamp, sizeof stamp, "%.6f", t);
    return std::string("  ") + current + " [00" + std::to_string(cpu) + "] d..2.  " + stamp + ": " + what + "\n";
}

std::string sw(const char* prev, int prev_pid, const char* state, const char* next, int next_pid)
{
    return std::string("sched_switch: prev_comm=") + prev + " prev_pid=" + std::to_string(prev_pid) +
           " prev_prio=120 prev_state=" + state + " ==> next_comm=" + next + " next_pid=" + std::to_string(next_pid) +
           " next_prio=120";
}

std::string wk(const char* event, const char* comm, int pid, int cpu)
{
    return std::string(event) + ": comm=" + comm + " pid=" + std::to_string(pid) + " prio=120 target_cpu=00" +
           std::to_string(cpu);
}

TEST(TraceState, TasksRunningBeforeTheTraceAreTakenInFromTheirFirstLine)
{
    TraceState s(2, true);
    // a (5) was running on CPU 0 and b (6) asleep when the trace began.
    const Recorder r = replay("# tracer: nop\n" + ev(0, "a-5", 1.0, wk("sched_waking", "b", 6, 1)) +
                                  ev(0, "a-5", 1.000001, wk("sched_wakeup", "b", 6, 0)) +
                                  ev(0, "a-5", 1.000002, sw("a", 5, "S", "b", 6)),
                              s);
    ASSERT_EQ(r.wakeups.size(), 1u);
    const TraceWakeup& w = r.wakeups[0];
    EXPECT_EQ(w.waker_cpu, 0);
    EXPECT_EQ(s.task(w.waker).pid, 5);
    EXPECT_EQ(w.prev_cpu, 1);
    EXPECT_EQ(w.chosen, 0);
    EXPECT_TRUE(w.selected);
    // At the waking, the waker's CPU ran a and prev (CPU 1) had nothing known on it.
    EXPECT_EQ(r.nr_running_of_prev[0], 0);
    EXPECT_FALSE(r.waker_cpu_idle[0]);
    ASSERT_EQ(r.switches.size(), 1u);
    EXPECT_EQ(r.switches[0].latency_ns, 2000);
    EXPECT_EQ(r.switches[0].migrated_from, -1);  // b never ran in the trace
    EXPECT_TRUE(s.task(w.waker).before_trace);
    EXPECT_EQ(s.task(w.waker).last_wakee, w.wakee);
    EXPECT_EQ(s.task(w.waker).wakee_flips, 1u);
    EXPECT_EQ(s.cpus()[0].nr_running, 1);  // b runs, a sleeps
    EXPECT_EQ(s.task(w.wakee).state, TraceTaskState::Running);
}

TEST(TraceState, WakingATaskStillOnItsRunqueueSelectsNoCpu)
{
    TraceState s(2, true);
    // b (6) runs on CPU 1 when a wakes it (it set TASK_INTERRUPTIBLE but has
    // not switched out): ttwu_runnable(), no select_task_rq().
    const Recorder r = replay(ev(1, "b-6", 1.0, wk("sched_waking", "c", 9, 1)) +
                                  ev(0, "a-5", 1.000001, wk("sched_waking", "b", 6, 1)) +
                                  ev(0, "a-5", 1.000002, wk("sched_wakeup", "b", 6, 1)),
                              s);
    ASSERT_EQ(r.wakeups.size(), 1u);
    EXPECT_FALSE(r.wakeups[0].selected);
    EXPECT_EQ(r.nr_running_of_prev[1], 1);
}

TEST(TraceState, PidReuseAndCommChangesKeepTasksApart)
{
    TraceState s(1, true);
    replay(ev(0, "sh-7", 1.0, wk("sched_wakeup_new", "sh", 8, 0)) + ev(0, "sh-7", 1.1, sw("sh", 7, "S", "sh", 8)) +
               // exec: the comm changes, the task stays
               ev(0, "perf-8", 1.2, sw("perf", 8, "X", "swapper/0", 0)) +
               // pid 8 again: a new task
               ev(0, "<idle>-0", 1.3, wk("sched_wakeup_new", "other", 8, 0)),
           s);
    ASSERT_EQ(s.tasks().size(), 3u);  // 7, 8 (sh, then perf), 8 (other)
    EXPECT_EQ(s.tasks()[1].comm, "perf");
    EXPECT_EQ(s.tasks()[1].comm_changes, 1);
    EXPECT_EQ(s.tasks()[1].state, TraceTaskState::Dead);
    EXPECT_EQ(s.tasks()[2].comm, "other");
    EXPECT_EQ(s.anomalies().pid_reuses, 1u);
}

TEST(TraceState, ALineOfAnotherTaskImpliesTheSwitchTheTraceLacks)
{
    TraceState s(2, true);
    // CPU 1 goes idle, b is woken onto it, and its switch out of idle is not
    // traced: b's own next line shows it running there.
    const Recorder r = replay(ev(1, "b-6", 1.0, sw("b", 6, "S", "swapper/1", 0)) +
                                  ev(0, "a-5", 1.00001, wk("sched_waking", "b", 6, 1)) +
                                  ev(1, "b-6", 1.00003, wk("sched_waking", "a", 5, 0)),
                              s);
    ASSERT_EQ(r.wakeups.size(), 1u);
    EXPECT_TRUE(r.wakeups[0].inferred);
    EXPECT_EQ(r.wakeups[0].chosen, 1);
    ASSERT_EQ(r.switches.size(), 2u);
    EXPECT_TRUE(r.switches[1].implied);
    EXPECT_EQ(r.switches[1].prev, kTraceIdle);
    EXPECT_EQ(r.switches[1].latency_ns, 20000);
    EXPECT_EQ(s.anomalies().wakeups_inferred, 1u);
}

TEST(TraceState, LostEventsForgetTheCpuUntilItsNextLine)
{
    TraceState s(2, true);
    const Recorder r = replay("# tracer: nop\n" + ev(1, "b-6", 1.0, wk("sched_waking", "c", 9, 1)) +
                                  "CPU:1 [LOST 40 EVENTS]\n" + ev(1, "c-9", 1.5, wk("sched_waking", "b", 6, 1)),
                              s);
    EXPECT_EQ(s.anomalies().lost_events, 40u);
    EXPECT_EQ(s.anomalies().lost_markers, 1u);
    // c ran after the gap: no latency is made up across it, and no switch is implied.
    EXPECT_TRUE(r.switches.empty());
    EXPECT_EQ(s.task(1).state, TraceTaskState::Running);
    EXPECT_FALSE(s.task(1).latency_pending);
}

TEST(TraceState, WakeeFlipsDecayOncePerSecond)
{
    TraceState s(1, true);
    std::string text;
    double t = 1.0;
    // a wakes b, c, b, c (each runs, then sleeps again): four flips; two
    // seconds later one more wakeup halves them first.
    const auto round = [&](int pid, double at) {
        const std::string current = "x-" + std::to_string(pid);
        text += ev(0, "a-5", at, wk("sched_waking", "x", pid, 0)) +
                ev(0, "a-5", at + 1e-6, wk("sched_wakeup", "x", pid, 0)) +
                ev(0, "a-5", at + 2e-6, sw("a", 5, "R+", "x", pid)) +
                ev(0, current.c_str(), at + 3e-6, sw("x", pid, "S", "a", 5));
    };
    for (int pid : {6, 7, 6, 7}) {
        round(pid, t);
        t += 1e-5;
    }
    round(6, 3.0);
    replay(text, s);
    const TraceTask& a = s.task(0);
    EXPECT_EQ(a.pid, 5);
    EXPECT_EQ(a.wakee_flips, 4u / 2 + 1);
}

}  // namespace
}  // namespace wb

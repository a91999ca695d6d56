// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "io/input_error.h"
#include "io/lscpu_import.h"
#include "io/trace_input.h"

namespace wb {
namespace {

using ::testing::HasSubstr;

const std::string kTraces = std::string(WB_TEST_DATA) + "/traces/";

// The build machine the committed traces were recorded on: 2 CPUs, one LLC.
const Machine& recording_machine()
{
    static const Machine m = import_lscpu(kTraces + "lscpu.txt").machine;
    return m;
}

std::size_t at(DistanceClass c)
{
    return static_cast<std::size_t>(c);
}

TaskFilter benchmark_tasks()
{
    TaskFilter f;
    f.comm.emplace("^sched-");
    f.comm_text = "^sched-";
    return f;
}

TEST(TraceReport, ACpuTheMachineLacksNamesTheLine)
{
    const ParsedTrace t = parse_trace(
        "# tracer: nop\n"
        "               a-5       [001] d..2.  10.000009: sched_waking: comm=b pid=6 prio=120 target_cpu=001\n"
        "               a-5       [001] d..2.  10.000010: sched_wakeup: comm=b pid=6 prio=120 target_cpu=005\n"
        "               a-5       [007] d..2.  10.000011: sched_waking: comm=b pid=6 prio=120 target_cpu=001\n",
        "big.txt");
    try {
        build_trace_report(t, recording_machine(), TaskFilter{}, "big.txt");
        FAIL() << "expected an InputError";
    } catch (const InputError& e) {
        ASSERT_EQ(e.diagnostics().size(), 2u);
        EXPECT_THAT(e.diagnostics()[0].to_string(),
                    HasSubstr("big.txt:3:97: target CPU 5 is not a CPU of the machine 'imported-lscpu': expected a CPU from 0 "
                              "to 1"));
        EXPECT_THAT(e.diagnostics()[1].to_string(), HasSubstr("big.txt:4:27: CPU 7 is not a CPU"));
    }
}

// tracefs and trace-cmd report of one run read the same: the same events,
// the same figures.
TEST(TraceReport, TracefsAndTraceCmdOfOneRunAgree)
{
    const ParsedTrace a = parse_trace(read_trace_file(kTraces + "pipe.tracefs.txt.gz"), "a");
    const ParsedTrace b = parse_trace(read_trace_file(kTraces + "pipe.trace-cmd.txt.gz"), "b");
    EXPECT_EQ(a.format, TraceFormat::Tracefs);
    EXPECT_EQ(b.format, TraceFormat::TraceCmd);
    const TraceReport ra = build_trace_report(a, recording_machine(), benchmark_tasks(), "a");
    const TraceReport rb = build_trace_report(b, recording_machine(), benchmark_tasks(), "b");
    EXPECT_EQ(ra.events, rb.events);
    EXPECT_EQ(ra.metrics.placement_from_waker, rb.metrics.placement_from_waker);
    EXPECT_EQ(ra.metrics.placement_from_prev, rb.metrics.placement_from_prev);
    EXPECT_EQ(ra.metrics.migrations, rb.metrics.migrations);
    EXPECT_EQ(ra.metrics.voluntary_switches, rb.metrics.voluntary_switches);
    EXPECT_EQ(ra.metrics.wakeup_latency.percentile(0.5), rb.metrics.wakeup_latency.percentile(0.5));
}

// The figures of the committed pipe ping-pong (docs/traces.md shows them):
// 2000 round trips of two tasks on two CPUs; the wakee stays on its prev
// CPU and is mostly woken from the other CPU.
TEST(TraceReport, PipePingPongOnTheBuildMachine)
{
    const ParsedTrace t = parse_trace(read_trace_file(kTraces + "pipe.tracefs.txt.gz"), "pipe");
    const TraceReport r = build_trace_report(t, recording_machine(), benchmark_tasks(), "pipe");
    const RunMetrics& m = r.metrics;
    EXPECT_EQ(r.events[static_cast<std::size_t>(TraceEventKind::SchedWaking)], 3711u);
    EXPECT_EQ(r.tasks_selected, 2u);
    EXPECT_EQ(m.wakeups, 3698u);
    EXPECT_EQ(m.placement_from_waker[at(DistanceClass::SameCpu)] + m.placement_from_waker[at(DistanceClass::Llc)],
              3699u);
    EXPECT_EQ(m.placement_from_waker[at(DistanceClass::Llc)], 3292u);
    EXPECT_EQ(m.placement_from_prev[at(DistanceClass::Llc)], 4u);
    EXPECT_EQ(m.migrations[at(DistanceClass::Llc)], 3u);
    EXPECT_EQ(m.voluntary_switches, 3698u);
    EXPECT_EQ(m.involuntary_switches, 296u);
    EXPECT_EQ(r.anomalies.wakeups_inferred, 19u);
    EXPECT_EQ(m.wakeup_latency.count(), 3697u);
    EXPECT_GT(m.wakeup_latency.percentile(0.5), 20'000);
    EXPECT_LT(m.wakeup_latency.percentile(0.5), 45'000);
}

TEST(TraceReport, HackbenchInPerfScript)
{
    const ParsedTrace t = parse_trace(read_trace_file(kTraces + "messaging.perf.txt"), "msg");
    EXPECT_EQ(t.format, TraceFormat::Perf);
    const TraceReport r = build_trace_report(t, recording_machine(), benchmark_tasks(), "msg");
    EXPECT_EQ(r.tasks_selected, 41u);  // 20 senders, 20 receivers and their parent
    EXPECT_EQ(r.forks, 40u);
    EXPECT_EQ(r.metrics.wakeups_by_path[static_cast<std::size_t>(WakePath::NotSelected)], 45u);
    // Every task counts for the CPUs: the compilers beside it kept them busy.
    const std::string text = format_trace_report(r, t, "", benchmark_tasks());
    EXPECT_THAT(text, HasSubstr("placement (vs waker)  same_cpu 88.9%  llc 11.1%"));
    EXPECT_THAT(text, HasSubstr("perf script, 6718 lines, stamps in ns"));
}

TEST(TraceReport, WithoutTimesSaysWhichFiguresNeedThem)
{
    const ParsedTrace t = parse_trace(
        "# tracer: nop\n"
        "               a-5       [001] d..2.  1000: sched_waking: comm=b pid=6 prio=120 target_cpu=000\n"
        "               a-5       [001] d..2.  1001: sched_wakeup: comm=b pid=6 prio=120 target_cpu=001\n"
        "               a-5       [001] d..2.  1002: sched_switch: prev_comm=a prev_pid=5 prev_prio=120 prev_state=S ==> next_comm=b next_pid=6 next_prio=120\n",
        "counter.txt");
    const TraceReport r = build_trace_report(t, recording_machine(), TaskFilter{}, "counter.txt");
    EXPECT_EQ(r.metrics.wakeup_latency.count(), 0u);
    EXPECT_EQ(r.metrics.placement_from_prev[at(DistanceClass::Llc)], 1u);
    const std::string text = format_trace_report(r, t, "counter", TaskFilter{});
    EXPECT_THAT(text, HasSubstr("wakeup latency      needs times"));
    EXPECT_THAT(text, HasSubstr("stamps are raw counts, not times (trace_clock counter)"));
}

}  // namespace
}  // namespace wb

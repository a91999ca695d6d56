// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_parser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "io/input_error.h"

namespace wb {
namespace {

using ::testing::HasSubstr;

// Lines as `cat /sys/kernel/tracing/trace` printed them on the build machine
// (tests/data/traces/pipe.tracefs.txt.gz), one with a comm holding a space.
const char* const kTracefs =
    "# tracer: nop\n"
    "#\n"
    "# entries-in-buffer/entries-written: 4/6   #P:2\n"
    "#\n"
    "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
    "      sched-pipe-19850   [000] d..3.  1609.218949: sched_waking: comm=sched-pipe pid=19849 prio=120 target_cpu=001\n"
    "      sched-pipe-19850   [000] d..2.  1609.218963: sched_switch: prev_comm=sched-pipe prev_pid=19850 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
    "          <idle>-0       [001] dNh2.  1609.218968: sched_wakeup: comm=Web Content pid=19849 prio=120 target_cpu=001\n"
    "      sched-pipe-19849   [001] d..3.  1609.221138: sched_migrate_task: comm=sched-pipe pid=19850 prio=120 orig_cpu=0 dest_cpu=1\n";

TEST(TraceParser, ReadsTracefsText)
{
    const ParsedTrace t = parse_trace(kTracefs, "trace.txt");
    EXPECT_EQ(t.format, TraceFormat::Tracefs);
    EXPECT_TRUE(t.stamps_in_ns);
    EXPECT_EQ(t.header_cpus, 2);
    EXPECT_EQ(t.overwritten, 2u);
    ASSERT_EQ(t.events.size(), 4u);
    const TraceEvent& waking = t.events[0];
    EXPECT_EQ(waking.kind, TraceEventKind::SchedWaking);
    EXPECT_EQ(waking.line, 6);
    EXPECT_EQ(waking.cpu, 0);
    EXPECT_EQ(waking.ts, 1609218949000);
    EXPECT_EQ(waking.common_pid, 19850);
    EXPECT_EQ(waking.pid, 19849);
    EXPECT_EQ(waking.target_cpu, 1);
    const TraceEvent& sw = t.events[1];
    EXPECT_EQ(sw.kind, TraceEventKind::SchedSwitch);
    EXPECT_EQ(sw.prev_pid, 19850);
    EXPECT_EQ(sw.prev_comm, "sched-pipe");
    EXPECT_EQ(sw.prev_state, PrevState::Sleeping);
    EXPECT_EQ(sw.pid, 0);
    EXPECT_EQ(sw.comm, "swapper/0");
    EXPECT_EQ(t.events[2].comm, "Web Content");
    EXPECT_EQ(t.events[2].common_pid, 0);
    EXPECT_EQ(t.events[3].orig_cpu, 0);
    EXPECT_EQ(t.events[3].dest_cpu, 1);
}

TEST(TraceParser, ReadsTraceCmdReportWithItsPluginLayout)
{
    const ParsedTrace t = parse_trace(
        "cpus=2\n"
        "              rm-19325 [001]  1574.524858: sched_wakeup:         bash:19324 [120] CPU:001\n"
        "              rm-19325 [001]  1574.524865: sched_switch:         rm:19325 [120] X ==> bash:19324 [120]\n"
        "            bash-8029  [001]  1574.525573: sched_waking:         comm=kworker/u8:3 pid=399 prio=120 target_cpu=000\n"
        "  rec_tracefs.sh-19319 [000]  1574.524885: sched_switch:         rec_tracefs.sh:19319 [120] R+ ==> my:odd:comm:19327 [120]\n",
        "report.txt");
    EXPECT_EQ(t.format, TraceFormat::TraceCmd);
    EXPECT_EQ(t.header_cpus, 2);
    ASSERT_EQ(t.events.size(), 4u);
    // Merged by stamp: the CPU 0 line stamped 1574.524885 comes before the
    // CPU 1 line of 1574.525573 above it.
    EXPECT_EQ(t.events[0].pid, 19324);
    EXPECT_EQ(t.events[0].target_cpu, 1);
    EXPECT_EQ(t.events[1].prev_state, PrevState::Dead);
    EXPECT_EQ(t.events[1].prev_pid, 19325);
    EXPECT_EQ(t.events[2].line, 5);
    EXPECT_EQ(t.events[2].prev_state, PrevState::Runnable);
    EXPECT_EQ(t.events[2].comm, "my:odd:comm");
    EXPECT_EQ(t.events[2].pid, 19327);
    EXPECT_EQ(t.events[3].comm, "kworker/u8:3");
}

TEST(TraceParser, ReadsPerfScript)
{
    const ParsedTrace t = parse_trace(
        "            perf 19740 [000]  1594.813498:       sched:sched_waking: comm=migration/0 pid=18 prio=0 target_cpu=000\n"
        " kworker/1:1-vir 10190 [001]  1594.814403:       sched:sched_switch: prev_comm=kworker/1:1 prev_pid=10190 prev_prio=120 prev_state=I ==> next_comm=ld next_pid=19728 next_prio=120\n"
        "     Web Content  4242 [001]  1594.814500:  sched:sched_stat_runtime: comm=x pid=1 runtime=5 [ns]\n",
        "perf.txt");
    EXPECT_EQ(t.format, TraceFormat::Perf);
    ASSERT_EQ(t.events.size(), 2u);
    EXPECT_EQ(t.events[0].common_pid, 19740);
    EXPECT_EQ(t.events[1].common_pid, 10190);
    EXPECT_EQ(t.events[1].prev_state, PrevState::Sleeping);
    EXPECT_EQ(t.events[1].pid, 19728);
    EXPECT_EQ(t.other_events, 1u);
}

TEST(TraceParser, LostEventMarkersOfEachTool)
{
    const ParsedTrace t = parse_trace(
        "# tracer: nop\n"
        "          <idle>-0       [001] d..2.  10.000001: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=5 next_prio=120\n"
        "CPU:1 [LOST 123 EVENTS]\n"
        "               a-5       [001] d..2.  10.000009: sched_switch: prev_comm=a prev_pid=5 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
        "CPU:0 [34 EVENTS DROPPED]\n"
        "##### CPU 1 buffer started ####\n",
        "lost.txt");
    ASSERT_EQ(t.events.size(), 5u);
    EXPECT_EQ(t.events[1].kind, TraceEventKind::LostEvents);
    EXPECT_EQ(t.events[1].cpu, 1);
    EXPECT_EQ(t.events[1].lost, 123u);
    EXPECT_EQ(t.events[3].cpu, 0);
    EXPECT_EQ(t.events[3].lost, 34u);
    EXPECT_EQ(t.events[4].kind, TraceEventKind::LostEvents);
    EXPECT_EQ(t.events[4].lost, 0u);  // overwritten, count unknown
}

TEST(TraceParser, LeavesOutATruncatedLastLineWithANote)
{
    const ParsedTrace t = parse_trace(
        "# tracer: nop\n"
        "               a-5       [001] d..2.  10.000009: sched_waking: comm=b pid=6 prio=120 target_cpu=001\n"
        "               a-5       [001] d..2.  10.000010: sched_switch: prev_comm=a prev_pi",
        "cut.txt");
    EXPECT_EQ(t.events.size(), 1u);
    EXPECT_EQ(t.cut_line, 3);
    ASSERT_EQ(t.notes.size(), 1u);
    EXPECT_THAT(t.notes[0], HasSubstr("line 3 is cut short"));
}

TEST(TraceParser, BadFieldsNameLineColumnAndWhatWasExpected)
{
    try {
        parse_trace("# tracer: nop\n"
                    "               a-5       [001] d..2.  10.000009: sched_waking: comm=b pid=x6 prio=120 target_cpu=001\n"
                    "               a-5       [001] d..2.  10.000010: sched_wakeup: comm=b pid=6 prio=120\n",
                    "bad.txt");
        FAIL() << "expected an InputError";
    } catch (const InputError& e) {
        ASSERT_EQ(e.diagnostics().size(), 2u);
        EXPECT_EQ(e.diagnostics()[0].to_string(), "bad.txt:2:75: expected a pid after pid=, found 'x6'");
        EXPECT_THAT(e.diagnostics()[1].to_string(),
                    HasSubstr("bad.txt:3:64: expected target_cpu= in the fields of sched_wakeup"));
    }
}

TEST(TraceParser, StampsOfAClockNotInNanoseconds)
{
    const ParsedTrace t = parse_trace(
        "# tracer: nop\n"
        "               a-5       [001] d..2.  1234567: sched_waking: comm=b pid=6 prio=120 target_cpu=001\n",
        "counter.txt");
    EXPECT_FALSE(t.stamps_in_ns);
    EXPECT_EQ(t.events[0].ts, 1234567);
    try {
        parse_trace("# tracer: nop\n"
                    "               a-5       [001] d..2.  1234567: sched_waking: comm=b pid=6 prio=120 target_cpu=001\n"
                    "               a-5       [001] d..2.  12.34567: sched_waking: comm=b pid=6 prio=120 target_cpu=001\n",
                    "mixed.txt");
        FAIL() << "expected an InputError";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("mixed.txt:3:39: expected a stamp like the earlier ones (a whole count)"));
    }
}

TEST(TraceParser, MergesPerCpuBuffersGivenOneAfterAnother)
{
    const ParsedTrace t = parse_trace(
        "               a-5       [000] d..2.  10.000005: sched_waking: comm=b pid=6 prio=120 target_cpu=001\n"
        "               a-5       [000] d..2.  10.000020: sched_waking: comm=b pid=6 prio=120 target_cpu=001\n"
        "               c-7       [001] d..2.  10.000010: sched_waking: comm=b pid=6 prio=120 target_cpu=001\n",
        "percpu.txt");
    EXPECT_EQ(t.format, TraceFormat::Tracefs);  // told by its flags column, without a header
    ASSERT_EQ(t.events.size(), 3u);
    EXPECT_EQ(t.events[1].line, 3);
    EXPECT_EQ(t.max_cpu, 1);
}

TEST(TraceParser, SomethingElseIsAnInputError)
{
    try {
        parse_trace("hello world\n", "notes.txt");
        FAIL() << "expected an InputError";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("notes.txt:1:1: expected an event line"));
    }
}

TEST(TraceParser, TextWithoutEventsIsPlacedAtItsEnd)
{
    // Found by the trace fuzz target: the error named no line at all.
    for (const auto& [text, where] : {std::pair{"", "empty.txt:1: "}, {"# a note\n#\n", "empty.txt:2: "}}) {
        try {
            parse_trace(text, "empty.txt");
            FAIL() << "expected an InputError";
        } catch (const InputError& e) {
            EXPECT_THAT(e.what(), HasSubstr(std::string(where) + "expected a trace")) << e.what();
        }
    }
}

TEST(TraceParser, APerfLostRecordWithoutItsCountIsNoCrash)
{
    // Found by the trace fuzz target: "PERF_RECORD_LOST" without "lost" after
    // it looked for the count at npos, and substr() threw out_of_range.
    const ParsedTrace t = parse_trace("# PERF_RECORD_LOST\n" + std::string(kTracefs), "perf.txt");
    ASSERT_FALSE(t.events.empty());
    EXPECT_EQ(t.events[0].kind, TraceEventKind::LostEvents);
    EXPECT_EQ(t.events[0].lost, 0u);
}

TEST(TraceParser, AStampBeyond64BitsIsAnInputErrorAtItsColumn)
{
    // Found by the trace fuzz target: 444444444441611 s overflowed the ns
    // conversion (UBSan), and a count past 64 bits was read as 0.
    for (const char* stamp : {"444444444441611.218949", "99999999999999999999"}) {
        const std::string line = std::string("      sched-pipe-19850   [000] d..3.  ") + stamp +
                                 ": sched_waking: comm=sched-pipe pid=19849 prio=120 target_cpu=001\n";
        try {
            parse_trace(line, "big.txt");
            FAIL() << "expected an InputError";
        } catch (const InputError& e) {
            EXPECT_THAT(e.what(), HasSubstr(std::string("big.txt:1:39: expected a stamp within the range of a 64-bit "
                                                        "count (at most 9223372035 s), found '") +
                                            stamp + "'"));
        }
    }
}

TEST(TraceParser, TheIdleTaskIsNeverWokenOrMoved)
{
    // Found by the trace fuzz target: a sched_waking of pid 0 reached the
    // trace state as the idle task's index, -1, and indexed its tasks with it.
    for (const char* fields : {"sched_waking: comm=x pid=0 prio=120 target_cpu=001",
                               "sched_migrate_task: comm=x pid=0 prio=120 orig_cpu=0 dest_cpu=1"}) {
        try {
            parse_trace(std::string("      sched-pipe-19850   [000] d..3.  1609.218949: ") + fields + "\n", "t.txt");
            FAIL() << "expected an InputError for " << fields;
        } catch (const InputError& e) {
            EXPECT_THAT(e.what(), HasSubstr("pid=0: expected the pid of a task, not of the idle task (0)")) << fields;
        }
    }
    try {
        parse_trace("cpus=2\n  <idle>-0 [001]  1609.207408: sched_wakeup:  swapper/1:0 [120] CPU:001\n", "t.txt");
        FAIL() << "expected an InputError";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("t.txt:2:47: the woken task: expected the pid of a task, not of the idle task"));
    }
}

}  // namespace
}  // namespace wb

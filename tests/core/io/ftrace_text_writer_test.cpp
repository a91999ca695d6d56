// SPDX-License-Identifier: Apache-2.0
//
// A simulated run exported as ftrace text and read back through the
// importer (trace/trace_parser.h, trace/trace_report.h) gives back the
// run's own figures: the importer counts what RunMetrics counts, so any
// difference is a writer (or importer) that got the kernel's meaning of an
// event wrong.
#include "io/ftrace_text_writer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "engine/simulator.h"
#include "io/topology_library.h"
#include "metrics/run_summary.h"
#include "trace/trace_parser.h"
#include "trace/trace_report.h"
#include "workload/workload_spec.h"

namespace wb {
namespace {

using ::testing::HasSubstr;

struct Exported {
    RunMetrics run;
    std::string text;
    bool truncated = false;
};

Exported export_run(const std::string& machine, const std::string& workload, TraceLimit limit = {})
{
    SimOptions opt;
    Simulator sim(resolve_machine(machine), make_workload(workload), opt);
    std::ostringstream out;
    FtraceTextWriter writer(out, sim.machine().nr_cpus(), limit, machine + " " + workload);
    sim.set_event_sink(&writer);
    EXPECT_TRUE(sim.run());
    writer.finish();
    return {sim.metrics(), out.str(), writer.truncated()};
}

std::uint64_t not_selected(const RunMetrics& m)
{
    return m.wakeups_by_path[static_cast<std::size_t>(WakePath::NotSelected)];
}

// Every figure that a trace carries, compared whole.
void expect_round_trip(const std::string& machine_name, const std::string& workload)
{
    const Exported e = export_run(machine_name, workload);
    const Machine machine = resolve_machine(machine_name);
    const ParsedTrace parsed = parse_trace(e.text, "export.txt");
    EXPECT_EQ(parsed.format, TraceFormat::Tracefs);
    EXPECT_EQ(parsed.header_cpus, machine.nr_cpus());
    EXPECT_EQ(parsed.overwritten, 0u);
    EXPECT_TRUE(parsed.stamps_in_ns);
    const TraceReport r = build_trace_report(parsed, machine, TaskFilter{}, "export.txt");
    const RunMetrics& got = r.metrics;
    const RunMetrics& run = e.run;
    EXPECT_EQ(got.wakeups, run.wakeups);
    EXPECT_EQ(got.placement_from_waker, run.placement_from_waker);
    EXPECT_EQ(got.placement_from_prev, run.placement_from_prev);
    EXPECT_EQ(got.migrations, run.migrations);
    EXPECT_EQ(got.voluntary_switches, run.voluntary_switches);
    EXPECT_EQ(got.involuntary_switches, run.involuntary_switches);
    EXPECT_EQ(got.switches_from_idle, run.switches_from_idle);
    // The simulator's not-selected wakeups are a delayed-dequeue task woken
    // in place (ttwu_runnable) and a wakee still switching out queued on its
    // CPU's wake list (p->on_cpu). In both the task had blocked: its
    // sched_switch says S, and no tracepoint marks sched_delayed or on_cpu,
    // so a real trace does not tell them from selected wakeups either (the
    // kernel writes the same sched_waking, sched_wakeup pair). The
    // importer's not_selected is a wakeup of a task the trace shows still
    // running (woken before it could block), which the simulator does not
    // model: its wake_up() of a task not asleep does nothing. So the
    // importer finds none, and counts every wakeup and fork as selected.
    EXPECT_EQ(not_selected(got), 0u);
    EXPECT_EQ(r.wakeups_selected, run.wakeups + r.forks);
    EXPECT_EQ(r.forks, static_cast<std::uint64_t>(run.wakeups_by_path[static_cast<std::size_t>(WakePath::SlowPath)]));
    // Stamps in ns: the importer measures latency from sched_waking to the
    // switch in, to the nanosecond. The run also times a fork's first run
    // from wake_up_new_task() in its wakeup latency; a fork has no
    // sched_waking, so the import has those samples fewer.
    EXPECT_EQ(got.wakeup_latency.count() + r.forks, run.wakeup_latency.count());
    EXPECT_EQ(got.run_delay.count(), run.run_delay.count());
    EXPECT_EQ(got.run_delay.percentile(0.5), run.run_delay.percentile(0.5));
    EXPECT_EQ(got.run_delay.percentile(0.99), run.run_delay.percentile(0.99));
    // Nothing the importer had to guess: every event read as the kernel writes it.
    EXPECT_EQ(r.anomalies.wakeups_inferred, 0u);
    EXPECT_EQ(r.anomalies.wakings_without_wakeup, 0u);
    EXPECT_EQ(r.anomalies.wakeups_without_waking, 0u);
}

std::size_t at(DistanceClass c)
{
    return static_cast<std::size_t>(c);
}

// teaching-8: SMT-2 cores, two LLCs of four CPUs.
TEST(FtraceTextWriter, PipeRoundTripsItsFigures)
{
    expect_round_trip("teaching-8", "pipe:loops=2000");
}

// Without forks in the way (two of 4001 samples), the latency percentiles
// come back exactly: nothing is rounded.
TEST(FtraceTextWriter, PipeLatencyPercentilesComeBackExactly)
{
    const Exported e = export_run("teaching-8", "pipe:loops=2000");
    const Machine machine = resolve_machine("teaching-8");
    const TraceReport r = build_trace_report(parse_trace(e.text, "pipe.txt"), machine, TaskFilter{}, "pipe.txt");
    for (double q : {0.5, 0.9, 0.99})
        EXPECT_EQ(r.metrics.wakeup_latency.percentile(q), e.run.wakeup_latency.percentile(q)) << q;
}

// Hackbench's not-selected wakeups (see expect_round_trip()) are what the
// import cannot tell apart: make sure the run has some, or the comparison
// above tests nothing about them.
TEST(FtraceTextWriter, HackbenchHasWakeupsATraceCannotCallNotSelected)
{
    const Exported e = export_run("teaching-8", "hackbench:groups=2,fds=4,loops=20");
    EXPECT_GT(not_selected(e.run), 0u);
}

TEST(FtraceTextWriter, HackbenchRoundTripsItsFigures)
{
    expect_round_trip("teaching-8", "hackbench:groups=2,fds=4,loops=20");
}

// The round trip is only worth something if the run spreads: a pipe that
// never left its CPU would match any writer.
TEST(FtraceTextWriter, HackbenchCrossesLlcsAndMigrates)
{
    const Exported e = export_run("teaching-8", "hackbench:groups=2,fds=4,loops=20");
    std::uint64_t migrations = 0;
    for (std::uint64_t n : e.run.migrations)
        migrations += n;
    EXPECT_GT(migrations, 0u);
    EXPECT_GT(e.run.placement_from_waker[at(DistanceClass::SameCpu)] +
                  e.run.placement_from_waker[at(DistanceClass::SmtSibling)],
              0u);
    EXPECT_THAT(e.text, HasSubstr("sched_migrate_task: "));
    EXPECT_THAT(e.text, HasSubstr("sched_wakeup_new: "));
}

TEST(FtraceTextWriter, LinesAreInTracefsLayout)
{
    const Exported e = export_run("teaching-8", "pipe:loops=20");
    EXPECT_EQ(e.text.rfind("# tracer: nop\n#\n# entries-in-buffer/entries-written: ", 0), 0u);
    EXPECT_THAT(e.text, HasSubstr("   #P:8\n"));
    EXPECT_THAT(e.text, HasSubstr("trace_clock: mono"));
    // The idle task: <idle>-0 as the current task, swapper/N in switch fields.
    EXPECT_THAT(e.text, HasSubstr("          <idle>-0       ["));
    EXPECT_THAT(e.text, HasSubstr("prev_comm=swapper/"));
    // Task pids are 1000 + id; prio 120 at nice 0; nine decimals.
    EXPECT_THAT(e.text, HasSubstr(" pid=1001 prio=120 target_cpu="));
    EXPECT_THAT(e.text, ::testing::ContainsRegex(R"(\[00[0-7]\] d\.\.2\. +[0-9]+\.[0-9]{9}: sched_switch: )"));
    EXPECT_THAT(e.text, HasSubstr("prev_state=S ==> "));
}

TEST(FtraceTextWriter, HeaderCountsAreTheEventsWritten)
{
    const Exported e = export_run("teaching-8", "pipe:loops=20");
    std::size_t lines = 0;
    std::istringstream in(e.text);
    for (std::string line; std::getline(in, line);)
        lines += !line.empty() && line[0] != '#';
    const std::string n = std::to_string(lines);
    const std::string padded = std::string(10 - n.size(), '0') + n;
    EXPECT_THAT(e.text, HasSubstr("entries-written: " + padded + "/" + padded + "   #P:8"));
}

TEST(FtraceTextWriter, LimitByCountStopsTheTraceAndSaysSo)
{
    TraceLimit limit;
    limit.events = 100;
    const Exported e = export_run("teaching-8", "pipe:loops=200", limit);
    EXPECT_TRUE(e.truncated);
    const ParsedTrace parsed = parse_trace(e.text, "cut.txt");
    EXPECT_EQ(parsed.events.size(), 100u);
    EXPECT_THAT(e.text, HasSubstr("# wakesim: trace limit reached (100 events)"));
}

TEST(FtraceTextWriter, LimitByTimeKeepsOnlyEarlierEvents)
{
    TraceLimit limit;
    ASSERT_TRUE(parse_trace_limit("200us", limit));
    const Exported e = export_run("teaching-8", "pipe:loops=2000", limit);
    EXPECT_TRUE(e.truncated);
    const ParsedTrace parsed = parse_trace(e.text, "cut.txt");
    ASSERT_FALSE(parsed.events.empty());
    EXPECT_LE(parsed.events.back().ts, 200'000);
    EXPECT_THAT(e.text, HasSubstr("trace limit reached (200us of simulated time)"));
}

TEST(FtraceTextWriter, WithinTheLimitNothingSaysCut)
{
    const Exported e = export_run("teaching-8", "pipe:loops=20");
    EXPECT_FALSE(e.truncated);
    EXPECT_THAT(e.text, ::testing::Not(HasSubstr("trace limit reached")));
}

// Writing a trace changes nothing about the run it writes.
TEST(FtraceTextWriter, TracingLeavesTheRunAsItWas)
{
    const std::string spec = "hackbench:groups=2,fds=4,loops=20";
    Simulator plain(resolve_machine("teaching-8"), make_workload(spec), SimOptions{});
    ASSERT_TRUE(plain.run());
    const Exported traced = export_run("teaching-8", spec);
    EXPECT_EQ(format_run_summary(traced.run, plain.elapsed()), format_run_summary(plain.metrics(), plain.elapsed()));
    EXPECT_EQ(traced.run.events, plain.metrics().events);
}

TEST(TraceLimit, ParsesCountsAndDurations)
{
    TraceLimit l;
    ASSERT_TRUE(parse_trace_limit("5000", l));
    EXPECT_EQ(l.events, 5000u);
    EXPECT_FALSE(l.until);
    ASSERT_TRUE(parse_trace_limit("2s", l));
    ASSERT_TRUE(l.until);
    EXPECT_EQ(*l.until, Time::s(2));
    EXPECT_FALSE(parse_trace_limit("0", l));
    EXPECT_FALSE(parse_trace_limit("lots", l));
}

}  // namespace
}  // namespace wb

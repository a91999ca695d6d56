// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_workload.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "engine/simulator.h"
#include "io/ftrace_text_writer.h"
#include "io/input_error.h"
#include "io/lscpu_import.h"
#include "io/topology_library.h"
#include "io/trace_input.h"
#include "workload/json_workload.h"
#include "workload/workload_spec.h"

namespace wb {
namespace {

using ::testing::HasSubstr;

const std::string kTraces = std::string(WB_TEST_DATA) + "/traces/";

TaskFilter comm_filter(const std::string& re)
{
    TaskFilter f;
    f.comm.emplace(re);
    f.comm_text = re;
    return f;
}

// A simulated run of `workload` on `machine`, exported as ftrace text.
ParsedTrace simulated_trace(const Machine& machine, std::unique_ptr<Workload> workload, RunMetrics* metrics = nullptr)
{
    Simulator sim(machine, std::move(workload), SimOptions{});
    std::ostringstream text;
    FtraceTextWriter writer(text, machine.nr_cpus(), TraceLimit{}, "test");
    sim.set_event_sink(&writer);
    EXPECT_TRUE(sim.run());
    writer.finish();
    if (metrics)
        *metrics = sim.metrics();
    return parse_trace(text.str(), "export.txt");
}

RunMetrics simulate(const Machine& machine, const WorkloadFile& file)
{
    Simulator sim(machine, std::make_unique<JsonWorkload>(file), SimOptions{});
    EXPECT_TRUE(sim.run());
    return sim.metrics();
}

const JsonTask& task_named(const TraceWorkload& w, const std::string& prefix)
{
    for (const JsonTask& t : w.file.tasks)
        if (t.name.rfind(prefix, 0) == 0)
            return t;
    ADD_FAILURE() << "no task named " << prefix << "...";
    return w.file.tasks.front();
}

std::int64_t run_ns(const JsonTask& t)
{
    std::int64_t sum = 0;
    for (const JsonPhase& ph : t.phases)
        if (ph.kind == JsonPhase::Kind::Run)
            sum += ph.duration.ns();
    return sum;
}

JsonPhase phase(JsonPhase::Kind kind, Time duration = Time(), std::string name = {}, bool sync = false)
{
    JsonPhase ph;
    ph.kind = kind;
    ph.duration = duration;
    ph.name = std::move(name);
    ph.sync = sync;
    return ph;
}

// The pipe pair's shape goes through the trace and back unchanged: every
// traced block becomes a wait its partner's signal ends, every one sync,
// and the workload simulated on the same machine blocks as often.
TEST(TraceWorkload, APipeRunBecomesAWorkloadThatBlocksAsOften)
{
    const Machine machine = resolve_machine("teaching-8");
    RunMetrics original;
    const ParsedTrace trace = simulated_trace(machine, make_workload("pipe:loops=2000"), &original);
    const TraceWorkload w = trace_to_workload(trace, machine, TaskFilter{}, "export.txt");

    ASSERT_EQ(w.file.tasks.size(), 2u);
    EXPECT_EQ(w.wakeups_by_selected, original.voluntary_switches - 1);  // the last block is never ended
    std::uint64_t sync = 0;
    for (const TraceWorkloadTask& t : w.tasks)
        sync += t.sync_signals;
    EXPECT_EQ(sync, w.wakeups_by_selected) << "a pipe writer blocks in read() right after its write";

    // The run's last block was never ended: the workload ends there instead.
    const RunMetrics again = simulate(machine, w.file);
    EXPECT_EQ(again.wakeups, original.wakeups);
    EXPECT_EQ(again.voluntary_switches, original.voluntary_switches - 1);
}

// Time on a CPU is turned into work at nominal speed as the engine turns
// work into time: two CPU-bound tasks on the two threads of one core run at
// smt_contention's speed, and the workload written from their trace holds
// the work they did, not the slower time it took.
TEST(TraceWorkload, RunsOnABusyCoreAreWorkAtNominalSpeed)
{
    const Machine machine = resolve_machine("teaching-8");
    WorkloadFile file;
    for (const char* cpus : {"0", "1"}) {  // one core's two threads
        JsonTask t;
        t.name = std::string("spin") + cpus;
        t.cpus = cpus;
        t.loop = 4;
        t.phases = {phase(JsonPhase::Kind::Run, Time::us(500)), phase(JsonPhase::Kind::Sleep, Time::us(200))};
        file.tasks.push_back(t);
    }
    const ParsedTrace trace = simulated_trace(machine, std::make_unique<JsonWorkload>(file));
    const TraceWorkload w = trace_to_workload(trace, machine, TaskFilter{}, "export.txt");

    ASSERT_EQ(w.file.tasks.size(), 2u);
    for (const JsonTask& t : w.file.tasks) {
        // 4 x 500 us of work, plus the kernel's costs the trace counts on
        // the task (a few us a switch); 2000 / 0.6 if the speed were ignored.
        EXPECT_GE(run_ns(t), 2'000'000) << t.name;
        EXPECT_LT(run_ns(t), 2'100'000) << t.name;
    }
}

// A waker that blocks right after the wakeup made it with WF_SYNC; one that
// runs on (here for 500 us) did not. Wakeups by a task left out are sleeps.
TEST(TraceWorkload, SyncIsInferredFromTheWakersBlockAndOthersWakeupsAreSleeps)
{
    const Machine machine = resolve_machine("teaching-8");
    WorkloadFile file;
    JsonTask waker;
    waker.name = "waker";
    waker.loop = 3;
    waker.phases = {phase(JsonPhase::Kind::Run, Time::us(50)),   phase(JsonPhase::Kind::Signal, Time(), "a"),
                    phase(JsonPhase::Kind::Run, Time::us(2)),    phase(JsonPhase::Kind::Sleep, Time::us(300)),
                    phase(JsonPhase::Kind::Signal, Time(), "b"), phase(JsonPhase::Kind::Run, Time::us(500)),
                    phase(JsonPhase::Kind::Sleep, Time::us(300))};
    JsonTask a;
    a.name = "sleeper-a";
    a.loop = 3;
    a.phases = {phase(JsonPhase::Kind::Wait, Time(), "a"), phase(JsonPhase::Kind::Run, Time::us(20))};
    JsonTask b = a;
    b.name = "sleeper-b";
    b.phases.front().name = "b";
    file.tasks = {waker, a, b};
    const ParsedTrace trace = simulated_trace(machine, std::make_unique<JsonWorkload>(file));

    const TaskFilter sleepers_and_waker = comm_filter("^(waker|sleeper)");
    const TraceWorkload w = trace_to_workload(trace, machine, sleepers_and_waker, "export.txt");
    const JsonTask& wt = task_named(w, "waker");
    int sync = 0, plain = 0;
    for (const JsonPhase& ph : wt.phases)
        if (ph.kind == JsonPhase::Kind::Signal)
            (ph.sync ? sync : plain) += 1;
    EXPECT_EQ(sync, 3) << "each signal to sleeper-a is followed by a block within 2 us";
    EXPECT_EQ(plain, 3) << "each signal to sleeper-b is followed by 500 us of running";

    // Without the waker, the sleepers' wakeups come from outside: sleeps.
    const TaskFilter sleepers = comm_filter("^sleeper");
    const TraceWorkload alone = trace_to_workload(trace, machine, sleepers, "export.txt");
    EXPECT_EQ(alone.wakeups_by_selected, 0u);
    EXPECT_EQ(alone.wakeups_by_others, 6u);
    for (const JsonTask& t : alone.file.tasks)
        for (const JsonPhase& ph : t.phases)
            EXPECT_NE(ph.kind, JsonPhase::Kind::Wait) << t.name << " waits on a signal nobody sends";
}

// A fork by a selected task is a fork phase, and the child's template
// starts only through it.
TEST(TraceWorkload, AForkedChildStartsFromItsParentsForkPhase)
{
    const Machine machine = resolve_machine("teaching-8");
    WorkloadFile file;
    JsonTask parent;
    parent.name = "parent";
    parent.phases = {phase(JsonPhase::Kind::Run, Time::us(30)), phase(JsonPhase::Kind::Fork, Time(), "child"),
                     phase(JsonPhase::Kind::Run, Time::us(30))};
    JsonTask child;
    child.name = "child";
    child.start = false;
    child.phases = {phase(JsonPhase::Kind::Run, Time::us(40))};
    file.tasks = {parent, child};
    const ParsedTrace trace = simulated_trace(machine, std::make_unique<JsonWorkload>(file));
    const TraceWorkload w = trace_to_workload(trace, machine, TaskFilter{}, "export.txt");

    const JsonTask& p = task_named(w, "parent");
    const JsonTask& c = task_named(w, "child");
    EXPECT_TRUE(p.start);
    EXPECT_FALSE(c.start);
    bool forks_child = false;
    for (const JsonPhase& ph : p.phases)
        forks_child |= ph.kind == JsonPhase::Kind::Fork && ph.name == c.name;
    EXPECT_TRUE(forks_child);
}

// Past the phase limit the workload is cut at one instant for every task,
// so that each wait written has its signal.
TEST(TraceWorkload, ThePhaseLimitCutsEveryTaskAtOneInstant)
{
    const Machine machine = resolve_machine("teaching-8");
    const ParsedTrace trace = simulated_trace(machine, make_workload("pipe:loops=2000"));
    TraceWorkloadOptions options;
    options.max_phases_per_task = 100;
    const TraceWorkload w = trace_to_workload(trace, machine, TaskFilter{}, "export.txt", options);
    EXPECT_TRUE(w.cut);
    EXPECT_GT(w.wakeups_cut, 3000u);
    std::map<std::string, int> signals, waits;
    for (const JsonTask& t : w.file.tasks) {
        EXPECT_LE(t.phases.size(), 100u);
        for (const JsonPhase& ph : t.phases) {
            if (ph.kind == JsonPhase::Kind::Signal)
                ++signals[ph.name];
            if (ph.kind == JsonPhase::Kind::Wait)
                ++waits[ph.name];
        }
    }
    for (const auto& [name, n] : waits)
        EXPECT_LE(n, signals[name]) << name;
    EXPECT_LT(simulate(machine, w.file).voluntary_switches, 120u);
}

TEST(TraceWorkload, AFilterThatSelectsNothingSaysSo)
{
    const Machine machine = import_lscpu(kTraces + "lscpu.txt").machine;
    const ParsedTrace trace = parse_trace(read_trace_file(kTraces + "pipe.tracefs.txt.gz"), "pipe.tracefs.txt.gz");
    const TaskFilter f = comm_filter("^no-such-task$");
    try {
        trace_to_workload(trace, machine, f, "pipe.tracefs.txt.gz");
        FAIL() << "expected an InputError";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("--comm '^no-such-task$' selects none of the 8 tasks"));
    }
}

TEST(TraceWorkload, StampsThatAreNotTimesAreRefused)
{
    const Machine machine = resolve_machine("teaching-8");
    const ParsedTrace trace = parse_trace(
        "# tracer: nop\n"
        "# trace_clock: counter\n"
        "  a-10 [000] d..2. 100: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 "
        "prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n",
        "counter.txt");
    try {
        trace_to_workload(trace, machine, TaskFilter{}, "counter.txt");
        FAIL() << "expected an InputError";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("counter.txt"));
        EXPECT_THAT(e.what(), HasSubstr("a workload needs run and sleep lengths in time"));
    }
}

// The committed pipe trace of the build machine: the pair's every block is a
// signal/wait, almost all sync, and the file runs.
TEST(TraceWorkload, TheRealPipeTraceBecomesARunnableWorkload)
{
    const Machine machine = import_lscpu(kTraces + "lscpu.txt").machine;
    const ParsedTrace trace = parse_trace(read_trace_file(kTraces + "pipe.tracefs.txt.gz"), "pipe.tracefs.txt.gz");
    const TaskFilter f = comm_filter("^sched-pipe");
    const TraceWorkload w = trace_to_workload(trace, machine, f, "pipe.tracefs.txt.gz");
    ASSERT_EQ(w.file.tasks.size(), 2u);
    EXPECT_EQ(w.wakeups_by_selected, 3697u);
    std::uint64_t sync = 0;
    for (const TraceWorkloadTask& t : w.tasks)
        sync += t.sync_signals;
    EXPECT_GT(sync * 100, w.wakeups_by_selected * 98);
    const RunMetrics m = simulate(machine, w.file);
    EXPECT_GT(m.voluntary_switches, 1000u);
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_replay.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "io/input_error.h"
#include "io/lscpu_import.h"
#include "io/topology_library.h"
#include "io/trace_input.h"
#include "io/trace_replay_json.h"

namespace wb {
namespace {

using ::testing::HasSubstr;

const std::string kTraces = std::string(WB_TEST_DATA) + "/traces/";

// teaching-8: two LLCs {0-3} {4-7}, each two SMT-2 cores ({0,1} {2,3} ...).
const Machine& teaching()
{
    static const Machine m = resolve_machine("teaching-8");
    return m;
}

std::string ev(int cpu, const std::string& current, double t, const std::string& what)
{
    char stamp[32];
    std::snprintf(stamp, sizeof stamp, "%.6f", t);
    return "  " + current + " [00" + std::to_string(cpu) + "] d..2.  " + stamp + ": " + what + "\n";
}

std::string sw(const std::string& prev, int prev_pid, const char* state, const std::string& next, int next_pid)
{
    return "sched_switch: prev_comm=" + prev + " prev_pid=" + std::to_string(prev_pid) +
           " prev_prio=120 prev_state=" + state + " ==> next_comm=" + next + " next_pid=" + std::to_string(next_pid) +
           " next_prio=120";
}

std::string wk(const char* event, const std::string& comm, int pid, int cpu)
{
    return std::string(event) + ": comm=" + comm + " pid=" + std::to_string(pid) +
           " prio=120 target_cpu=00" + std::to_string(cpu);
}

// The trace's start: task a (5) switches in on CPU 0 and c (7) on CPU 1
// (unless CPU 1 is in `idle`); every CPU in `idle` switches from a task
// that goes to sleep to its idle task. Each CPU's state is then known.
std::string start(std::initializer_list<int> idle)
{
    std::string out = "# tracer: nop\n" + ev(0, "k-100", 1.0, sw("k", 100, "S", "a", 5));
    if (std::find(idle.begin(), idle.end(), 1) == idle.end())
        out += ev(1, "k-101", 1.0, sw("k", 101, "S", "c", 7));
    for (int cpu : idle)
        out += ev(cpu, "k-" + std::to_string(100 + cpu), 1.0 + cpu * 1e-6,
                  sw("k", 100 + cpu, "S", "swapper/" + std::to_string(cpu), 0));
    return out;
}

// The line number the next line appended to `text` will have.
int next_line(const std::string& text)
{
    return static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
}

struct Replayed {
    ReplayResult result;
    std::map<int, DecisionRecord> baseline;  // by the sched_waking's line
};

Replayed replay(const std::string& text, ReplayOptions options = {})
{
    Replayed out;
    const ParsedTrace t = parse_trace(text, "t.txt");
    out.result = replay_trace(t, teaching(), options, "t.txt",
                              [&](const std::string& policy, const DecisionRecord& rec, int, int line) {
                                  if (policy == "baseline")
                                      out.baseline[line] = rec;
                              });
    return out;
}

const ReplayFigures& baseline(const Replayed& r)
{
    return r.result.policies.at(0).sync_inferred;
}

TEST(TraceReplay, AnIdlePrevIsChosenAsTheKernelDid)
{
    // a on CPU 0 wakes b, whose prev CPU 2 idles: wake_affine() keeps prev,
    // select_idle_sibling() takes it as an idle target.
    const Replayed r = replay(start({1, 2, 3, 4, 5, 6, 7}) + ev(0, "a-5", 1.1, wk("sched_waking", "b", 6, 2)) +
                              ev(2, "<idle>-0", 1.100002, wk("sched_wakeup", "b", 6, 2)));
    EXPECT_EQ(r.result.replayed, 1u);
    EXPECT_EQ(baseline(r).same_cpu, 1u);
    EXPECT_EQ(baseline(r).by_path[static_cast<std::size_t>(WakePath::TargetIdle)], 1u);
    EXPECT_EQ(r.result.kernel_placed[static_cast<std::size_t>(PlacedAt::Prev)], 1u);
}

TEST(TraceReplay, AScanFindsTheIdleCoreTheTracedSwitchesToIdleFlagged)
{
    // CPU 1 (prev, a's sibling) is busy with c; CPUs 2 and 3 went idle, the
    // second completing an idle core, which sets the LLC's idle-cores hint:
    // the scan then looks for a whole idle core and finds {2,3}.
    const std::string head = start({2, 3, 4, 5, 6, 7});
    const int line = next_line(head);  // b's sched_waking
    const std::string text = head + ev(0, "a-5", 1.1, wk("sched_waking", "b", 6, 1)) +
                             ev(2, "<idle>-0", 1.100002, wk("sched_wakeup", "b", 6, 2));
    const Replayed r = replay(text);
    ASSERT_TRUE(r.baseline.count(line));
    const DecisionRecord& rec = r.baseline.at(line);
    EXPECT_EQ(rec.path, WakePath::LlcScan);
    EXPECT_EQ(rec.chosen, 2);
    bool core_search = false;
    for (const DecisionStep& s : rec.steps)
        core_search = core_search || s.detail.find("has_idle_cores: search for a whole idle core") != std::string::npos;
    EXPECT_TRUE(core_search) << "the hint set by the traced switches to idle";
    EXPECT_EQ(baseline(r).same_cpu, 1u);
}

TEST(TraceReplay, AWakeupInFlightMakesItsCpuBusyToTheNext)
{
    // a wakes b and then d, both last on CPU 2; b's sched_wakeup on CPU 2
    // comes after d's sched_waking, so d's selection sees CPU 2 with a
    // wakeup pending (ttwu_pending): not idle.
    const std::string head = start({1, 2, 3, 4, 5, 6, 7});
    const int line = next_line(head);
    const std::string text = head + ev(0, "a-5", 1.1, wk("sched_waking", "b", 6, 2)) +
                             ev(0, "a-5", 1.100001, wk("sched_waking", "d", 8, 2)) +
                             ev(2, "<idle>-0", 1.100002, wk("sched_wakeup", "b", 6, 2)) +
                             ev(3, "<idle>-0", 1.100003, wk("sched_wakeup", "d", 8, 3));
    const Replayed r = replay(text);
    ASSERT_EQ(r.baseline.size(), 2u);
    EXPECT_EQ(r.baseline.at(line).chosen, 2);
    EXPECT_NE(r.baseline.at(line + 1).chosen, 2);
    EXPECT_NE(r.baseline.at(line + 1).path, WakePath::TargetIdle);
}

TEST(TraceReplay, AWakerThatBlocksWithinTheWindowMadeASyncWakeup)
{
    // a wakes b and blocks 5 us later (sync); then, woken again, wakes d and
    // runs on for 100 us before blocking (not sync).
    const std::string head = start({1, 2, 3, 4, 5, 6, 7});
    const int line = next_line(head);
    const std::string text =
        head + ev(0, "a-5", 1.1, wk("sched_waking", "b", 6, 2)) +
        ev(2, "<idle>-0", 1.100001, wk("sched_wakeup", "b", 6, 2)) +
        ev(0, "a-5", 1.100005, sw("a", 5, "S", "swapper/0", 0)) +
        ev(2, "b-6", 1.2, wk("sched_waking", "a", 5, 0)) + ev(0, "<idle>-0", 1.200001, wk("sched_wakeup", "a", 5, 0)) +
        ev(0, "<idle>-0", 1.200002, sw("swapper/0", 0, "R", "a", 5)) +
        ev(0, "a-5", 1.3, wk("sched_waking", "d", 8, 4)) + ev(4, "<idle>-0", 1.300001, wk("sched_wakeup", "d", 8, 4)) +
        ev(0, "a-5", 1.3001, sw("a", 5, "S", "swapper/0", 0));
    const Replayed r = replay(text);
    EXPECT_EQ(r.result.replayed, 3u);
    EXPECT_EQ(r.result.sync_inferred, 1u);
    EXPECT_EQ(r.baseline.at(line).wake_flags & 0x10u, 0x10u) << "WF_SYNC";
    EXPECT_EQ(r.baseline.at(line + 6).wake_flags & 0x10u, 0u);
}

TEST(TraceReplay, PerCpuKthreadsAndTasksStillQueuedAreNotReplayed)
{
    const std::string text = start({1, 2, 3, 4, 5, 6, 7}) +
                             ev(0, "a-5", 1.1, wk("sched_waking", "ksoftirqd/3", 30, 3)) +
                             ev(3, "<idle>-0", 1.100001, wk("sched_wakeup", "ksoftirqd/3", 30, 3)) +
                             ev(0, "a-5", 1.2, wk("sched_waking", "a", 5, 0)) +
                             ev(0, "a-5", 1.200001, wk("sched_wakeup", "a", 5, 0));
    const Replayed r = replay(text);
    EXPECT_EQ(r.result.skipped_pinned, 1u);
    EXPECT_EQ(r.result.not_selected, 1u) << "a woke itself while running: ttwu_runnable()";
    EXPECT_EQ(r.result.replayed, 0u);
}

TEST(TraceReplay, EachPolicyIsAskedInBothSyncModesInTheSameState)
{
    // a on CPU 0 wakes b, last on CPU 4 in the other LLC, and blocks 2 us
    // later: a sync wakeup. With WF_SYNC, wake_affine_idle() pulls b to the
    // waker's CPU, alone there, and the idle search stays in the waker's
    // LLC; without it, prev idles and is kept. The kernel chose prev.
    const std::string head = start({1, 2, 3, 4, 5, 6, 7});
    const int line = next_line(head);
    const std::string text = head + ev(0, "a-5", 1.1, wk("sched_waking", "b", 6, 4)) +
                             ev(4, "<idle>-0", 1.100001, wk("sched_wakeup", "b", 6, 4)) +
                             ev(0, "a-5", 1.100002, sw("a", 5, "S", "swapper/0", 0));
    ReplayOptions o;
    o.policies = {"baseline", "sync-waker-v3"};
    std::map<std::string, DecisionRecord> records;
    const ParsedTrace t = parse_trace(text, "t.txt");
    const ReplayResult r = replay_trace(t, teaching(), o, "t.txt",
                                        [&](const std::string& policy, const DecisionRecord& rec, int kernel, int at) {
                                            EXPECT_EQ(kernel, 4);
                                            EXPECT_EQ(at, line);
                                            records[policy] = rec;
                                        });
    ASSERT_EQ(r.policies.size(), 2u);
    EXPECT_EQ(r.sync_inferred, 1u);
    EXPECT_EQ(r.policies[0].no_sync.same_cpu, 1u) << "no sync: prev idles, kept";
    EXPECT_EQ(r.policies[0].sync_inferred.same_cpu, 0u);
    EXPECT_EQ(r.policies[0].sync_inferred.same_class, 0u) << "sync: the waker's LLC, not prev's";
    EXPECT_LT(records.at("baseline").chosen, 4);
    ASSERT_TRUE(records.count("sync-waker-v3"));
    EXPECT_EQ(records.at("sync-waker-v3").wake_flags, records.at("baseline").wake_flags);
    EXPECT_EQ(r.policies[1].sync_inferred.wakeups, 1u);
}

TEST(TraceReplay, AFrameHoldsTheGridAndEveryPolicysChoice)
{
    const std::string head = start({2, 3, 4, 5, 6, 7});
    const std::string text = head + ev(0, "a-5", 1.1, wk("sched_waking", "b", 6, 1)) +
                             ev(2, "<idle>-0", 1.100002, wk("sched_wakeup", "b", 6, 2));
    ReplayOptions o;
    o.policies = {"baseline", "sis-sync-stack"};
    std::vector<ReplayFrame> frames;
    replay_trace(parse_trace(text, "t.txt"), teaching(), o, "t.txt", {},
                 [&](ReplayFrame&& f) { frames.push_back(std::move(f)); });
    ASSERT_EQ(frames.size(), 1u);
    const ReplayFrame& f = frames[0];
    EXPECT_EQ(f.line, next_line(head));
    EXPECT_EQ(f.pid, 6);
    EXPECT_EQ(f.waker_pid, 5);
    EXPECT_EQ(f.kernel_cpu, 2);
    ASSERT_EQ(f.cpus.size(), 8u);
    EXPECT_EQ(f.cpus[0].curr_pid, 5);
    EXPECT_EQ(f.cpus[1].curr_comm, "c");
    EXPECT_FALSE(f.cpus[1].idle);
    EXPECT_TRUE(f.cpus[2].idle);
    EXPECT_TRUE(f.cpus[2].llc_has_idle_cores);
    ASSERT_EQ(f.choices.size(), 2u);
    EXPECT_EQ(f.choices[0].first, "baseline");
    EXPECT_EQ(f.choices[1].first, "sis-sync-stack");
    EXPECT_EQ(f.choices[0].second.chosen, 2);
}

TEST(TraceReplay, ProgressCanStopTheReplay)
{
    const ParsedTrace t = parse_trace(read_trace_file(kTraces + "pipe.tracefs.txt.gz"), "pipe");
    const Machine m = import_lscpu(kTraces + "lscpu.txt").machine;
    ReplayOptions o;
    std::vector<double> seen;
    o.progress = [&](double done) {
        seen.push_back(done);
        return seen.size() < 2;
    };
    const ReplayResult r = replay_trace(t, m, o, "pipe");
    EXPECT_TRUE(r.cancelled);
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[0], 0.0);
    EXPECT_GT(seen[1], 0.0);
    EXPECT_LT(seen[1], 1.0);
    EXPECT_GT(r.replayed, 0u);
    EXPECT_LT(r.replayed, 2000u);
}

TEST(TraceReplay, ARecordCarriesTheKernelsCpuAndTheLine)
{
    DecisionRecord rec;
    rec.chosen = 3;
    const std::string json = replay_record_to_json("baseline", rec, 2, 41);
    EXPECT_THAT(json, HasSubstr("\"policy\":\"baseline\",\"kernel_cpu\":2,\"line\":41}"));
    EXPECT_EQ(json.find('\n'), std::string::npos);
}

TEST(TraceReplay, ACpuTheMachineLacksIsAnInputError)
{
    const ParsedTrace t = parse_trace("# tracer: nop\n" + ev(9, "a-5", 1.0, wk("sched_waking", "b", 6, 1)), "t.txt");
    EXPECT_THROW(replay_trace(t, teaching(), {}, "t.txt"), InputError);
}

// The committed pipe trace of the build machine (2 CPUs, one LLC): the
// kernel kept nearly every wakeup on prev. Where baseline differs it is
// almost always a wakeup the kernel kept on prev while the model, seeing
// the other CPU idle, scanned to it: the mark of a task that blocked while
// ineligible and stayed queued (DELAY_DEQUEUE), which ttwu_runnable() wakes
// in place with no selection. The trace cannot tell those apart.
TEST(TraceReplay, ThePipeTraceOfTheBuildMachine)
{
    const Machine m = import_lscpu(kTraces + "lscpu.txt").machine;
    ReplayOptions o;
    o.filter.comm.emplace("^sched-pipe");
    o.filter.comm_text = "^sched-pipe";
    const ParsedTrace t = parse_trace(read_trace_file(kTraces + "pipe.tracefs.txt.gz"), "pipe");
    const ReplayResult r = replay_trace(t, m, o, "pipe");
    const ReplayFigures& f = r.policies.at(0).sync_inferred;
    EXPECT_GT(r.replayed, 3000u);
    EXPECT_GT(r.sync_inferred, r.replayed / 2) << "pipe handoffs: the writer blocks in read() right after";
    EXPECT_GT(f.same_cpu, f.wakeups * 85 / 100);
    const std::uint64_t differ = f.wakeups - f.same_cpu;
    EXPECT_GE(f.differ_kernel_kept_prev, differ * 99 / 100);
}

}  // namespace
}  // namespace wb

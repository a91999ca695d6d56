// SPDX-License-Identifier: Apache-2.0
//
// The replay checked against a kernel whose every decision is known: a
// simulated run, exported as ftrace text (io/ftrace_text_writer.h) and
// replayed. Where the simulator's baseline selected a CPU, the replay's
// baseline, rebuilding the state from the trace alone, must choose the same
// CPU in at least 99% of wakeups, and every other one must have a cause the
// trace explains: each is listed with it.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <sstream>
#include <tuple>

#include "engine/simulator.h"
#include "io/ftrace_text_writer.h"
#include "io/topology_library.h"
#include "trace/trace_parser.h"
#include "trace/trace_replay.h"
#include "workload/workload_spec.h"

namespace wb {
namespace {

using Key = std::tuple<std::int64_t, CpuId, CpuId>;  // time, prev, waker's CPU: one wakeup

Key key_of(const DecisionRecord& r)
{
    return {r.time.ns(), r.prev_cpu, r.waker_cpu};
}

// Why the replay's choice differs from the simulator's: the first step at
// which their two records part, in branch or in the runqueue counts it read.
std::string cause(const DecisionRecord& sim, const DecisionRecord& replay)
{
    if ((sim.wake_flags ^ replay.wake_flags) & WF_SYNC)
        return "WF_SYNC inferred otherwise than the workload woke";
    for (std::size_t i = 0; i < std::min(sim.steps.size(), replay.steps.size()); ++i) {
        const DecisionStep& a = sim.steps[i];
        const DecisionStep& b = replay.steps[i];
        const bool counts_differ = a.detail != b.detail && a.detail.find("nr_running") != std::string::npos;
        if (a.function == b.function && a.branch == b.branch && !counts_differ)
            continue;
        // A task that blocked while ineligible stays queued (DELAY_DEQUEUE):
        // the simulator counts it in nr_running, the trace shows it asleep.
        if (counts_differ)
            return "nr_running of delayed-dequeue tasks, which the trace shows asleep";
        if (a.function == "wake_affine_weight")
            return "the PELT loads estimated from the schedule";
        if (a.function == "select_idle_cpu" && a.branch.find("budget") != std::string_view::npos)
            return "nr_idle_scan, refreshed per min_interval, not at the balances";
        // Each is written by the selector itself, so an earlier decision
        // that differed leaves it different.
        if (a.branch.find("idle-cores hint") != std::string_view::npos)
            return "the idle-cores hint, after an earlier decision that differed";
        if (a.branch.find("recent_used_cpu") != std::string_view::npos)
            return "recent_used_cpu, after an earlier decision that differed";
        return "";
    }
    return "";
}

struct Checked {
    std::uint64_t decisions = 0;  // wakeups the simulator selected a CPU for, that the replay replayed
    std::uint64_t same = 0;
    std::uint64_t not_selected = 0;  // the simulator woke the task in place: no decision to compare
    std::map<std::string, std::uint64_t> causes;
    std::vector<std::string> unexplained;
};

Checked check(const std::string& machine_name, const std::string& workload, ReplayOptions options = {})
{
    const Machine machine = resolve_machine(machine_name);
    Simulator sim(resolve_machine(machine_name), make_workload(workload), SimOptions{});
    std::map<Key, DecisionRecord> decided;
    sim.set_record_sink([&](const DecisionRecord& r) { decided[key_of(r)] = r; });
    std::ostringstream text;
    FtraceTextWriter writer(text, machine.nr_cpus(), TraceLimit{}, workload);
    sim.set_event_sink(&writer);
    EXPECT_TRUE(sim.run());
    writer.finish();

    Checked c;
    const ParsedTrace trace = parse_trace(text.str(), "export.txt");
    replay_trace(trace, machine, options, "export.txt", [&](const std::string&, const DecisionRecord& r, int, int line) {
        const auto it = decided.find(key_of(r));
        if (it == decided.end()) {
            c.unexplained.push_back("line " + std::to_string(line) + ": no simulated decision at this wakeup");
            return;
        }
        const DecisionRecord& s = it->second;
        if (s.path == WakePath::NotSelected) {
            ++c.not_selected;
            return;
        }
        ++c.decisions;
        if (s.chosen == r.chosen) {
            ++c.same;
            return;
        }
        const std::string why = cause(s, r);
        std::printf("  line %d: simulator CPU %d (%s), replay CPU %d (%s): %s\n", line, s.chosen,
                    std::string(wake_path_name(s.path)).c_str(), r.chosen, std::string(wake_path_name(r.path)).c_str(),
                    why.empty() ? "UNEXPLAINED" : why.c_str());
        if (why.empty())
            c.unexplained.push_back("line " + std::to_string(line));
        else
            ++c.causes[why];
    });
    std::printf("%s on %s: %llu of %llu decisions the same (%llu woken in place, not compared)\n", workload.c_str(),
                machine_name.c_str(), static_cast<unsigned long long>(c.same),
                static_cast<unsigned long long>(c.decisions), static_cast<unsigned long long>(c.not_selected));
    return c;
}

// teaching-8: two LLCs of two SMT-2 cores. Pipe wakeups are sync, and the
// writer blocks in read() right after: the inference finds them.
TEST(ReplaySimulated, PipeAgreesWithTheSimulatorsOwnDecisions)
{
    const Checked c = check("teaching-8", "pipe:loops=10000");
    ASSERT_GT(c.decisions, 19000u);
    EXPECT_GE(c.same * 100, c.decisions * 99) << c.same << " of " << c.decisions;
    EXPECT_TRUE(c.unexplained.empty()) << c.unexplained.front();
}

// schbench's wakeups are futex wakeups, never sync; its message thread
// sleeps right after waking its workers, which the inference would take as
// sync, so the replay runs with the inference off (as --sync-window 0s).
TEST(ReplaySimulated, SchbenchAgreesWithTheSimulatorsOwnDecisions)
{
    ReplayOptions o;
    o.sync_window_ns = -1;
    const Checked c = check("teaching-8", "schbench:runtime=50ms", o);
    ASSERT_GT(c.decisions, 5000u);
    EXPECT_GT(c.not_selected, 0u) << "delayed tasks woken in place: no decision to compare";
    EXPECT_GE(c.same * 100, c.decisions * 99) << c.same << " of " << c.decisions;
    EXPECT_TRUE(c.unexplained.empty()) << c.unexplained.front();
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// The Chrome trace-event export, read back with nlohmann_json and checked
// against the fields the Trace Event Format requires of each phase:
//   every event      "name", "ph", "pid", "tid" ("ts" for all but "M")
//   "X" complete     "ts" and "dur", in microseconds
//   "i" instant      "ts" and "s" (scope: "t" thread, "p" process, "g" global)
//   "s"/"f" flow     "cat", "name" and "id", the pair sharing all three;
//                    "f" with "bp":"e" binds to the slice enclosing its ts
//   "M" metadata     "args":{"name":...} for process_name / thread_name
// and at the top: a "traceEvents" array; "displayTimeUnit" "ms" or "ns".
#include "io/trace_event_json_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "engine/simulator.h"
#include "io/topology_library.h"
#include "workload/workload_spec.h"

namespace wb {
namespace {

using Json = nlohmann::json;

struct ExportedJson {
    Json doc;
    std::uint64_t decisions = 0;
    std::uint64_t wakeups = 0;
    int nr_cpus = 0;
};

ExportedJson export_json(const std::string& workload, TraceLimit limit = {})
{
    Simulator sim(resolve_machine("teaching-8"), make_workload(workload), SimOptions{});
    std::ostringstream out;
    TraceEventJsonWriter writer(out, sim.machine().nr_cpus(), limit, "teaching-8 " + workload);
    sim.set_event_sink(&writer);
    ExportedJson e;
    sim.set_record_sink([&](const DecisionRecord&) { ++e.decisions; });
    EXPECT_TRUE(sim.run());
    writer.finish(sim.elapsed());
    e.doc = Json::parse(out.str());  // throws on malformed JSON
    e.wakeups = sim.metrics().wakeups;
    e.nr_cpus = sim.machine().nr_cpus();
    return e;
}

TEST(TraceEventJsonWriter, EveryEventHasItsPhasesRequiredFields)
{
    const ExportedJson e = export_json("hackbench:groups=2,fds=4,loops=10");
    ASSERT_TRUE(e.doc.contains("traceEvents"));
    ASSERT_TRUE(e.doc["traceEvents"].is_array());
    EXPECT_EQ(e.doc["displayTimeUnit"], "ns");
    std::map<std::string, int> phases;
    for (const Json& ev : e.doc["traceEvents"]) {
        ASSERT_TRUE(ev.contains("name") && ev["name"].is_string()) << ev;
        ASSERT_TRUE(ev.contains("ph") && ev["ph"].is_string()) << ev;
        ASSERT_TRUE(ev.contains("pid") && ev["pid"].is_number_integer()) << ev;
        ASSERT_TRUE(ev.contains("tid") && ev["tid"].is_number_integer()) << ev;
        const std::string ph = ev["ph"];
        ++phases[ph];
        if (ph != "M") {
            ASSERT_TRUE(ev.contains("ts") && ev["ts"].is_number()) << ev;
        }
        if (ph == "X") {
            ASSERT_TRUE(ev.contains("dur") && ev["dur"].is_number()) << ev;
            EXPECT_GE(ev["dur"].get<double>(), 0.0) << ev;
            EXPECT_TRUE(ev["args"].contains("pid")) << ev;
        } else if (ph == "i") {
            EXPECT_EQ(ev["s"], "t") << ev;
        } else if (ph == "s" || ph == "f") {
            ASSERT_TRUE(ev.contains("id") && ev.contains("cat")) << ev;
            if (ph == "f") {
                EXPECT_EQ(ev["bp"], "e") << ev;
            }
        } else if (ph == "M") {
            ASSERT_TRUE(ev["args"].contains("name") || ev["args"].contains("sort_index")) << ev;
        } else {
            ADD_FAILURE() << "unexpected phase " << ph;
        }
    }
    EXPECT_GT(phases["X"], 0);
    EXPECT_GT(phases["s"], 0);
    EXPECT_EQ(e.doc["otherData"]["truncated"], false);
}

TEST(TraceEventJsonWriter, OneThreadTrackPerCpu)
{
    const ExportedJson e = export_json("pipe:loops=50");
    std::map<int, std::string> names;
    int processes = 0;
    for (const Json& ev : e.doc["traceEvents"]) {
        if (ev["ph"] != "M")
            continue;
        if (ev["name"] == "thread_name") {
            EXPECT_EQ(ev["pid"], TraceEventJsonWriter::kMachinePid);
            EXPECT_TRUE(names.emplace(ev["tid"].get<int>(), ev["args"]["name"]).second) << "two names for one tid";
        }
        processes += ev["name"] == "process_name";
    }
    EXPECT_EQ(processes, 1);
    ASSERT_EQ(names.size(), static_cast<std::size_t>(e.nr_cpus));
    for (const auto& [tid, name] : names)
        EXPECT_EQ(name, "CPU " + std::to_string(tid));
    // Slices only on those tracks, and they never overlap on one.
    std::map<int, std::vector<std::pair<double, double>>> slices;
    for (const Json& ev : e.doc["traceEvents"])
        if (ev["ph"] == "X")
            slices[ev["tid"].get<int>()].push_back({ev["ts"].get<double>(), ev["dur"].get<double>()});
    for (auto& [tid, v] : slices) {
        EXPECT_TRUE(names.contains(tid));
        std::sort(v.begin(), v.end());
        for (std::size_t i = 1; i < v.size(); ++i)
            EXPECT_LE(v[i - 1].first + v[i - 1].second, v[i].first + 1e-6) << "CPU " << tid;
    }
}

TEST(TraceEventJsonWriter, OneInstantPerDecisionWithItsRecord)
{
    const ExportedJson e = export_json("pipe:loops=50");
    std::uint64_t instants = 0, wakeups = 0;
    for (const Json& ev : e.doc["traceEvents"]) {
        if (ev["ph"] != "i")
            continue;
        ++instants;
        const Json& a = ev["args"];
        EXPECT_TRUE(a.contains("path") && a["path"].is_string());
        EXPECT_EQ(a["waker_cpu"], ev["tid"]) << "the instant sits on the waker's CPU";
        EXPECT_TRUE(a["chosen"].is_number_integer());
        EXPECT_TRUE(a["record"]["steps"].is_array());
        wakeups += ev["name"].get<std::string>().starts_with("wakeup ");
    }
    EXPECT_EQ(instants, e.decisions);
    EXPECT_EQ(wakeups, e.wakeups);  // the rest are the two forks
}

TEST(TraceEventJsonWriter, FlowsPairStartToEnd)
{
    const ExportedJson e = export_json("hackbench:groups=2,fds=4,loops=10");
    std::map<std::uint64_t, int> starts, ends;
    for (const Json& ev : e.doc["traceEvents"]) {
        if (ev["ph"] == "s")
            ++starts[ev["id"].get<std::uint64_t>()];
        if (ev["ph"] == "f")
            ++ends[ev["id"].get<std::uint64_t>()];
    }
    ASSERT_FALSE(starts.empty());
    for (const auto& [id, n] : starts)
        EXPECT_EQ(n, 1) << "flow " << id;
    // Every end has its start; a start may lack its end only if the wakee
    // never ran again before the run ended.
    for (const auto& [id, n] : ends) {
        EXPECT_EQ(n, 1) << "flow " << id;
        EXPECT_TRUE(starts.contains(id)) << "flow " << id;
    }
    EXPECT_GE(ends.size() + 8, starts.size());
}

TEST(TraceEventJsonWriter, LimitSaysSoInOtherData)
{
    TraceLimit limit;
    limit.events = 50;
    const ExportedJson e = export_json("pipe:loops=200", limit);
    EXPECT_EQ(e.doc["otherData"]["truncated"], true);
    EXPECT_EQ(e.doc["otherData"]["trace_limit"], "50 events");
    EXPECT_EQ(e.doc["otherData"]["events"], 50);
    int non_meta = 0;
    for (const Json& ev : e.doc["traceEvents"])
        non_meta += ev["ph"] != "M";
    EXPECT_LT(non_meta, 120);  // 50 admitted; each adds at most its slice and a flow
}

}  // namespace
}  // namespace wb

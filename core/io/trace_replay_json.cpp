// SPDX-License-Identifier: Apache-2.0
#include "io/trace_replay_json.h"

#include <nlohmann/json.hpp>

#include "io/results_json.h"
#include "io/trace_report_json.h"
#include "trace/trace_replay.h"

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

Json paths(const PathCounts& counts)
{
    Json j = Json::object();
    for (std::size_t i = 0; i < counts.size(); ++i)
        if (counts[i])
            j[std::string(wake_path_name(static_cast<WakePath>(i)))] = counts[i];
    return j;
}

Json figures(const ReplayFigures& f)
{
    Json first = Json::array();
    for (const ReplayDifference& d : f.first)
        first.push_back({{"line", d.line},
                         {"pid", d.pid},
                         {"comm", d.comm},
                         {"sync", d.sync},
                         {"waker_cpu", d.waker_cpu},
                         {"prev_cpu", d.prev_cpu},
                         {"kernel_cpu", d.kernel_cpu},
                         {"model_cpu", d.model_cpu},
                         {"path", std::string(wake_path_name(d.path))}});
    return {{"wakeups", f.wakeups},
            {"same_cpu", f.same_cpu},
            {"same_distance_from_waker", f.same_class},
            {"same_placement_class", f.same_placed},
            {"by_path", paths(f.by_path)},
            {"other_cpu_than_kernel_by_path", paths(f.differ_by_path)},
            {"other_cpu_than_kernel_where_kernel_kept_prev", f.differ_kernel_kept_prev},
            {"other_cpu_than_reference", f.differ_from_baseline},
            {"other_cpu_than_reference_by_path", paths(f.differ_from_baseline_by_path)},
            {"first_differences", first}};
}

}  // namespace

std::string replay_result_to_json(const TraceSource& source, const ReplayResult& r)
{
    Json j;
    j["schema_version"] = 1;
    j["trace"] = {{"file", source.file}, {"machine", source.machine}};
    j["wakeups_selected"] = r.wakeups_selected;
    j["replayed"] = r.replayed;
    j["not_replayed"] = {{"per_cpu_kthread", r.skipped_pinned},
                         {"no_sched_wakeup", r.skipped_no_outcome},
                         {"prev_or_waker_unknown", r.skipped_unknown}};
    j["not_selected"] = r.not_selected;
    j["forks"] = r.forks;
    j["sync_inferred"] = r.times ? Json(r.sync_inferred) : Json();
    Json placed = Json::object();
    for (std::size_t i = 0; i < r.kernel_placed.size(); ++i)
        placed[std::string(kPlacedAtNames[i])] = r.kernel_placed[i];
    j["kernel_placed"] = placed;
    j["reference"] = r.policies.empty() ? Json() : Json(r.policies.front().spec);
    Json policies = Json::object();
    for (const PolicyReplay& p : r.policies)
        policies[p.spec] = {{"sync_inferred", figures(p.sync_inferred)}, {"no_sync", figures(p.no_sync)}};
    j["policies"] = policies;
    return j.dump(2) + "\n";
}

std::string replay_record_to_json(const std::string& policy, const DecisionRecord& rec, int kernel_cpu, int line)
{
    std::string out = decision_record_to_json(rec);
    out.pop_back();  // the record's closing brace: the three keys go inside it
    out += ",\"policy\":" + Json(policy).dump() + ",\"kernel_cpu\":" + std::to_string(kernel_cpu) +
           ",\"line\":" + std::to_string(line) + "}";
    return out;
}

}  // namespace wb

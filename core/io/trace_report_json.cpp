// SPDX-License-Identifier: Apache-2.0
#include "io/trace_report_json.h"

#include "io/metrics_json.h"
#include "trace/trace_report.h"

namespace wb {

std::string trace_report_to_json(const TraceSource& source, const ParsedTrace& trace, const TraceReport& r,
                                 const TaskFilter& filter)
{
    using Json = nlohmann::ordered_json;
    const RunMetrics& m = r.metrics;
    const bool times = trace.stamps_in_ns;
    Json j;
    j["schema_version"] = 1;
    j["trace"] = {{"file", source.file},
                  {"format", std::string(trace_format_name(trace.format))},
                  {"clock", source.clock.empty() ? Json() : Json(source.clock)},
                  {"stamps_in_ns", times},
                  {"lines", trace.lines}};
    j["machine"] = source.machine;
    Json pids = Json::array();
    for (const auto& [lo, hi] : filter.pids)
        pids.push_back(lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi));
    j["filter"] = {{"comm", filter.comm ? Json(filter.comm_text) : Json()}, {"pid", pids}};
    j["span_ns"] = times ? Json(r.last_ts - r.first_ts) : Json();
    Json events = Json::object();
    for (std::size_t i = 0; i < r.events.size(); ++i)
        if (static_cast<TraceEventKind>(i) != TraceEventKind::LostEvents)
            events[std::string(kTraceEventNames[i])] = r.events[i];
    events["other"] = trace.other_events;
    j["events"] = std::move(events);
    j["lost_events"] = {{"markers", r.anomalies.lost_markers}, {"events", r.anomalies.lost_events}};
    j["tasks"] = {{"seen", r.tasks_seen},
                  {"selected", r.tasks_selected},
                  {"before_trace", r.tasks_before_trace},
                  {"pid_reuses", r.anomalies.pid_reuses},
                  {"comm_changes", r.comm_changes}};
    j["wakeups"] = m.wakeups;
    j["forks"] = r.forks;
    j["wakeups_selected"] = r.wakeups_selected;
    // Only the one path a trace shows: the rest went through select_task_rq_fair().
    j["wakeups_by_path"] = {
        {"not_selected", m.wakeups_by_path[static_cast<std::size_t>(WakePath::NotSelected)]}};
    j["placement"] = placement_json(m.placement_from_waker);
    j["placement_from_prev"] = placement_json(m.placement_from_prev);
    j["placement_counts"] = counts_by_name(m.placement_from_waker, kDistanceClassNames);
    j["placement_from_prev_counts"] = counts_by_name(m.placement_from_prev, kDistanceClassNames);
    j["migrations"] = counts_by_name(m.migrations, kDistanceClassNames);
    j["wakeup_latency_ns"] = times ? histogram_json(m.wakeup_latency) : Json();
    j["run_delay_ns"] = times ? histogram_json(m.run_delay) : Json();
    j["context_switches"] = {{"voluntary", m.voluntary_switches}, {"involuntary", m.involuntary_switches}};
    Json cpus = Json::array();
    for (std::size_t i = 0; i < m.cpu_times.size(); ++i)
        cpus.push_back({{"cpu", i},
                        {"busy_ns", times ? Json(m.cpu_times[i].busy.ns()) : Json()},
                        {"idle_ns", times ? Json(m.cpu_times[i].idle.ns()) : Json()}});
    j["cpus"] = std::move(cpus);
    return j.dump(2) + "\n";
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "io/results_json.h"

#include <nlohmann/json.hpp>

#include "io/metrics_json.h"
#include "metrics/run_figures.h"
#include "metrics/run_metrics.h"
#include "sched/decision.h"
#include "topology/sd_flags.h"
#include "workload/workload.h"

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

Json wake_flag_names(unsigned int flags)
{
    static constexpr std::pair<unsigned int, const char*> kFlags[] = {{WF_EXEC, "WF_EXEC"},
                                                                      {WF_FORK, "WF_FORK"},
                                                                      {WF_TTWU, "WF_TTWU"},
                                                                      {WF_SYNC, "WF_SYNC"},
                                                                      {WF_MIGRATED, "WF_MIGRATED"},
                                                                      {WF_CURRENT_CPU, "WF_CURRENT_CPU"},
                                                                      {WF_RQ_SELECTED, "WF_RQ_SELECTED"}};
    Json j = Json::array();
    for (const auto& [bit, name] : kFlags)
        if (flags & bit)
            j.push_back(name);
    return j;
}

}  // namespace

std::string run_result_to_json(const RunInfo& info, bool finished, Time elapsed, double ops, const Headline& headline,
                               const RunMetrics& m)
{
    Json cpus = Json::array();
    for (std::size_t i = 0; i < m.cpu_times.size(); ++i)
        cpus.push_back({{"cpu", i}, {"busy_ns", m.cpu_times[i].busy.ns()}, {"idle_ns", m.cpu_times[i].idle.ns()}});
    Json j;
    j["schema_version"] = 1;
    j["machine"] = info.machine;
    j["workload"] = info.workload;
    j["policy"] = info.policy;
    j["features"] = info.features;
    j["seed"] = info.seed;
    j["finished"] = finished;
    j["elapsed_ns"] = elapsed.ns();
    j["headline"] = {{"name", headline.name},
                     {"value", headline.value},
                     {"unit", headline.unit},
                     {"lower_is_better", headline.lower_is_better}};
    const RunFigures f = run_figures(m, elapsed, ops, headline);
    j["ops"] = ops;
    j["ops_per_sec"] = f.ops_per_sec;
    j["wakeup_latency_ns"] = histogram_json(m.wakeup_latency);
    j["run_delay_ns"] = histogram_json(m.run_delay);
    j["context_switches"] = {{"voluntary", m.voluntary_switches}, {"involuntary", m.involuntary_switches}};
    j["ipis"] = m.ipis;
    j["wakeups"] = m.wakeups;
    j["wakeups_by_path"] = counts_by_name(m.wakeups_by_path, kWakePathNames);
    j["placement"] = placement_json(m.placement_from_waker);
    j["placement_from_prev"] = placement_json(m.placement_from_prev);
    j["migrations"] = counts_by_name(m.migrations, kDistanceClassNames);
    j["idle_while_waiting_ns"] = m.idle_while_waiting.ns();
    j["bytes_read"] = counts_by_name(m.bytes_read, kDistanceClassNames);
    // The figures under the real tools' names (metrics/run_figures.h).
    Json figures;
    for (const RunFigureInfo& figure : run_figure_table())
        figures[std::string(figure.name)] = f.*figure.field;
    j["figures"] = std::move(figures);
    j["events"] = m.events;
    j["cpus"] = std::move(cpus);
    return j.dump(2) + "\n";
}

std::string decision_record_to_json(const DecisionRecord& r)
{
    Json steps = Json::array();
    for (const DecisionStep& s : r.steps) {
        Json step = {{"function", s.function}, {"branch", s.branch}};
        if (!s.detail.empty())
            step["detail"] = s.detail;
        if (s.result != kNoCpu)
            step["result"] = s.result;
        steps.push_back(std::move(step));
    }
    Json j = {{"seq", r.seq},
              {"time_ns", r.time.ns()},
              {"waker", r.waker},
              {"wakee", r.wakee},
              {"waker_cpu", r.waker_cpu},
              {"prev_cpu", r.prev_cpu},
              {"wake_flags", wake_flag_names(r.wake_flags)},
              {"steps", std::move(steps)},
              {"scanned", r.scanned},
              {"target", r.target},
              {"chosen", r.chosen},
              {"path", wake_path_name(r.path)},
              {"from_waker", distance_class_name(r.from_waker)},
              {"from_prev", distance_class_name(r.from_prev)}};
    return j.dump();
}

}  // namespace wb

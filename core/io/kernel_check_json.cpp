// SPDX-License-Identifier: Apache-2.0
#include "io/kernel_check_json.h"

#include <functional>

#include <nlohmann/json.hpp>

#include "kernel/kernel_check.h"
#include "kernel/placement_figures.h"

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

Json placement(const PlacementFigures& p)
{
    Json classes = Json::object();
    for (std::size_t i = 0; i < kDistanceClassCount; ++i)
        classes[std::string(kDistanceClassNames[i])] = p.from_waker_pct[i];
    return {{"wakeups", p.wakeups},
            {"chosen_prev_pct", p.chosen_prev_pct},
            {"chosen_waker_cpu_pct", p.chosen_waker_pct},
            {"from_waker_pct", classes},
            {"cross_node_pct", p.cross_node_pct},
            {"migrations", p.migrations},
            {"migrations_cross_node", p.migrations_cross_node}};
}

Json spread(const std::vector<PlacementFigures>& runs, const std::function<double(const PlacementFigures&)>& f)
{
    std::vector<double> values;
    for (const PlacementFigures& p : runs)
        values.push_back(f(p));
    const Spread s = spread_of(values);
    return {{"mean", s.mean}, {"min", s.min}, {"max", s.max}, {"runs", s.n}};
}

Json summary(const std::vector<PlacementFigures>& runs)
{
    Json classes = Json::object();
    for (std::size_t i = 0; i < kDistanceClassCount; ++i)
        classes[std::string(kDistanceClassNames[i])] =
            spread(runs, [i](const PlacementFigures& p) { return p.from_waker_pct[i]; });
    return {{"wakeups", spread(runs, [](const PlacementFigures& p) { return p.wakeups; })},
            {"chosen_prev_pct", spread(runs, [](const PlacementFigures& p) { return p.chosen_prev_pct; })},
            {"chosen_waker_cpu_pct", spread(runs, [](const PlacementFigures& p) { return p.chosen_waker_pct; })},
            {"from_waker_pct", classes},
            {"cross_node_pct", spread(runs, [](const PlacementFigures& p) { return p.cross_node_pct; })},
            {"migrations", spread(runs, [](const PlacementFigures& p) { return p.migrations; })},
            {"migrations_cross_node", spread(runs, [](const PlacementFigures& p) { return p.migrations_cross_node; })}};
}

Json replay(const ReplayFigures& f)
{
    return {{"wakeups", f.wakeups},
            {"same_cpu", f.same_cpu},
            {"same_distance_from_waker", f.same_class},
            {"same_placement_class", f.same_placed},
            {"other_cpu_where_kernel_kept_prev", f.differ_kernel_kept_prev}};
}

}  // namespace

std::string kernel_check_to_json(const KernelCheckResult& r)
{
    Json j;
    j["schema_version"] = 1;
    j["machine"] = r.machine_spec;
    j["workload"] = r.workload_spec;
    j["trace_comm"] = r.trace_comm;
    const KernelBoot& first = r.boots.front();
    j["kernel"] = {{"description", r.kernel_description}, {"release", first.release}, {"version", first.version_line}};
    j["qemu"] = {{"smp", r.topology.smp()},
                 {"nodes", std::max(1, r.topology.nodes())},
                 {"accel", first.boot.accel == Accel::Kvm ? "kvm" : "tcg"},
                 {"accel_note", first.boot.accel_note},
                 {"command", first.boot.argv},
                 {"cpu_of_machine_cpu", r.topology.qemu_cpu}};
    j["model"] = {{"policy", "baseline"},
                  {"features", r.personality.features.changes()},
                  {"not_in_kernel", r.personality.absent},
                  {"as_kernel_runs", r.personality.as_kernel},
                  {"not_switchable", r.personality.notes}};

    std::vector<PlacementFigures> kernel, model;
    Json boots = Json::array();
    for (const KernelBoot& b : r.boots) {
        kernel.push_back(placement_figures(b.kernel));
        Json differences = Json::array();
        for (const DomainDifference& d : b.domain_differences)
            differences.push_back({{"cpu", d.cpu}, {"level", d.level}, {"what", d.what}});
        boots.push_back({{"seconds",
                          {{"total", b.boot.total_s},
                           {"to_init", b.boot.up_s},
                           {"workload_start", b.boot.workload_start_s},
                           {"workload_end", b.boot.workload_end_s}}},
                         {"accel", b.boot.accel == Accel::Kvm ? "kvm" : "tcg"},
                         {"features", b.features},
                         {"guest_topology", b.guest_machine},
                         {"trace_events", b.trace_events},
                         {"lost_events", b.lost_events},
                         {"domains_match", b.domain_differences.empty()},
                         {"domain_differences", differences},
                         {"placement", placement(kernel.back())},
                         {"replay",
                          {{"policy", b.replay.spec},
                           {"replayed", b.replayed},
                           {"sync_inferred", replay(b.replay.sync_inferred)},
                           {"no_sync", replay(b.replay.no_sync)}}}});
    }
    j["boots"] = boots;
    Json runs = Json::array();
    for (const ModelRun& m : r.model) {
        model.push_back(placement_figures(m.metrics));
        runs.push_back({{"seed", m.seed}, {"placement", placement(model.back())}});
    }
    j["model_runs"] = runs;
    j["summary"] = {{"kernel", summary(kernel)}, {"model", summary(model)}};
    return j.dump(2) + "\n";
}

}  // namespace wb

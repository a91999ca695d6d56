// SPDX-License-Identifier: Apache-2.0
#include "validation/validation_run.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <thread>

#include <nlohmann/json.hpp>

#include "engine/simulator.h"
#include "io/topology_library.h"
#include "metrics/run_figures.h"
#include "policies/registry.h"
#include "workload/workload_spec.h"

namespace wb {

namespace {

// One simulation of the case: a run's workload under a policy and a seed.
struct Job {
    std::size_t run = 0, policy = 0;
    std::uint64_t seed = 1;
    RunFigures figures;
    std::string headline_name;  // "usecs/op"
    bool finished = false;
};

void simulate(const Machine& machine, const std::string& workload, const std::string& policy, Job& job)
{
    const std::unique_ptr<PlacementPolicy> placement = make_policy(policy);
    SimOptions options;
    options.policy = placement.get();
    options.seed = job.seed;
    Simulator sim(machine, make_workload(workload), options);
    job.finished = sim.run();
    const Time elapsed = sim.elapsed();
    const Headline headline = sim.workload().headline(elapsed);
    job.figures = run_figures(sim.metrics(), elapsed, sim.workload().ops(), headline);
    job.headline_name = headline.name;
}

// Runs the jobs on `jobs` threads; each simulation is independent.
void run_all(const ValidationCase& c, const Machine& machine, bool quick, std::vector<Job>& jobs, int threads)
{
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (std::size_t i = next++; i < jobs.size(); i = next++) {
            const CaseRun& run = c.runs[jobs[i].run];
            simulate(machine, quick ? run.quick_workload : run.workload, c.policies[jobs[i].policy], jobs[i]);
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < std::max(1, threads); ++t)
        pool.emplace_back(worker);
    worker();
    for (std::thread& t : pool)
        t.join();
}

std::size_t index_of_run(const ValidationCase& c, const std::string& label)
{
    for (std::size_t i = 0; i < c.runs.size(); ++i)
        if (c.runs[i].label == label)
            return i;
    return 0;
}

std::size_t index_of_policy(const ValidationCase& c, const std::string& name)
{
    return static_cast<std::size_t>(std::find(c.policies.begin(), c.policies.end(), name) - c.policies.begin());
}

// What names a side in a label: its run and policy, where the case has
// more than one; for a ratio's denominator only what differs from `of`.
std::string side_text(const ValidationCase& c, const FigureSide& s, const FigureSide* of = nullptr)
{
    std::string out;
    if (c.runs.size() > 1 && (!of || of->run != s.run))
        out += s.run;
    if (c.policies.size() > 1 && (!of || of->policy != s.policy))
        out += (out.empty() ? "" : " ") + s.policy;
    return out;
}

// "usecs/op default sync-waker-v3 / same-cpu-79"; `headline` is named as
// the workload names it.
std::string figure_label(const ValidationCase& c, const CaseFigure& f, const std::string& headline_name)
{
    if (!f.label.empty())
        return f.label;
    std::string label = f.name == "headline" ? headline_name : std::string(find_run_figure(f.name)->label);
    const std::string of = side_text(c, f.of);
    if (!of.empty())
        label += " " + of;
    if (f.over)
        label += " / " + side_text(c, *f.over, &f.of);
    return label;
}

}  // namespace

Machine case_machine(const ValidationCase& c)
{
    Machine m = resolve_machine(c.machine);
    for (const RunCondition& cond : c.run_conditions)
        m.costs.at(cond.cost) = CostValue{cond.value, cond.source};
    return m;
}

bool CaseResult::all_within() const
{
    return std::all_of(figures.begin(), figures.end(), [](const FigureResult& f) { return f.within; });
}

CaseResult run_validation_case(const ValidationCase& c, const ValidationOptions& options)
{
    const auto started = std::chrono::steady_clock::now();
    const Machine machine = case_machine(c);
    CaseResult result;
    result.id = c.id;
    result.title = c.title;
    result.machine = machine.name;
    result.source = c.source.report + ", " + c.source.date;
    result.quick = options.quick;
    result.seeds = options.seeds > 0 ? options.seeds : options.quick ? c.quick_seeds : c.seeds;

    std::vector<Job> jobs;
    for (std::size_t r = 0; r < c.runs.size(); ++r)
        for (std::size_t p = 0; p < c.policies.size(); ++p)
            for (int s = 0; s < result.seeds; ++s)
                jobs.push_back({r, p, static_cast<std::uint64_t>(s + 1), {}, {}, false});
    run_all(c, machine, options.quick, jobs, options.jobs);

    // The mean of each (run, policy)'s figures over its seeds.
    std::map<std::pair<std::size_t, std::size_t>, std::vector<const RunFigures*>> by_side;
    for (const Job& j : jobs) {
        by_side[{j.run, j.policy}].push_back(&j.figures);
        result.unfinished += !j.finished;
    }
    auto mean = [&](const FigureSide& s, double RunFigures::*field) {
        const auto& list = by_side[{index_of_run(c, s.run), index_of_policy(c, s.policy)}];
        double sum = 0;
        for (const RunFigures* f : list)
            sum += f->*field;
        return list.empty() ? 0.0 : sum / static_cast<double>(list.size());
    };
    for (const CaseFigure& f : c.figures) {
        const RunFigureInfo* info = find_run_figure(f.name);
        FigureResult out;
        out.name = f.name;
        const Job& first = *std::find_if(jobs.begin(), jobs.end(), [&](const Job& j) {
            return j.run == index_of_run(c, f.of.run) && j.policy == index_of_policy(c, f.of.policy);
        });
        out.label = figure_label(c, f, first.headline_name);
        out.measured = f.measured;
        out.model = mean(f.of, info->field);
        if (f.over) {
            const double denominator = mean(*f.over, info->field);
            out.model = denominator != 0 ? out.model / denominator : 0.0;
        }
        out.ratio = out.model / out.measured;
        out.tolerance = options.quick ? f.quick : f.full;
        out.within = out.tolerance.contains(out.ratio);
        out.note = f.note;
        result.figures.push_back(std::move(out));
    }
    result.not_produced = c.not_produced;
    result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

namespace {

// Six significant digits at most, no exponent below a billion.
std::string number_text(double v)
{
    char buf[64];
    const double a = v < 0 ? -v : v;
    if (a >= 1e9)
        std::snprintf(buf, sizeof buf, "%.4g", v);
    else if (a >= 1000)
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else if (a >= 1)
        std::snprintf(buf, sizeof buf, "%.4g", v);
    else
        std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

}  // namespace

std::string format_case_result(const CaseResult& r)
{
    std::string out;
    char buf[512];
    std::snprintf(buf, sizeof buf, "%s: %s\n  machine %s; %s; %s form, %d seed%s, %.1f s\n", r.id.c_str(),
                  r.title.c_str(), r.machine.c_str(), r.source.c_str(), r.quick ? "quick" : "full", r.seeds,
                  r.seeds == 1 ? "" : "s", r.wall_seconds);
    out += buf;
    std::size_t width = 6;
    for (const FigureResult& f : r.figures)
        width = std::max(width, f.label.size());
    std::snprintf(buf, sizeof buf, "  %-*s %14s %14s %8s  %-13s %s\n", static_cast<int>(width), "figure", "measured",
                  "model", "ratio", "tolerance", "");
    out += buf;
    for (const FigureResult& f : r.figures) {
        const std::string band = number_text(f.tolerance.low) + "-" + number_text(f.tolerance.high);
        std::snprintf(buf, sizeof buf, "  %-*s %14s %14s %8.3f  %-13s %s\n", static_cast<int>(width),
                      f.label.c_str(), number_text(f.measured).c_str(), number_text(f.model).c_str(), f.ratio,
                      band.c_str(), f.within ? "ok" : "OUTSIDE");
        out += buf;
    }
    for (const NotProduced& n : r.not_produced)
        out += "  not produced: " + n.name + (n.measured.empty() ? "" : " (" + n.measured + ")") + ": " + n.reason +
               "\n";
    if (r.unfinished)
        out += "  note: " + std::to_string(r.unfinished) + " simulation(s) hit the time limit\n";
    return out;
}

std::string validation_results_to_json(const std::vector<CaseResult>& results)
{
    using Json = nlohmann::ordered_json;
    Json cases = Json::array();
    for (const CaseResult& r : results) {
        Json figures = Json::array();
        for (const FigureResult& f : r.figures)
            figures.push_back({{"name", f.name},
                               {"label", f.label},
                               {"measured", f.measured},
                               {"model", f.model},
                               {"ratio", f.ratio},
                               {"tolerance", {f.tolerance.low, f.tolerance.high}},
                               {"within", f.within}});
        Json missing = Json::array();
        for (const NotProduced& n : r.not_produced)
            missing.push_back({{"name", n.name}, {"reason", n.reason}});
        cases.push_back({{"id", r.id},
                         {"machine", r.machine},
                         {"quick", r.quick},
                         {"seeds", r.seeds},
                         {"wall_seconds", r.wall_seconds},
                         {"figures", std::move(figures)},
                         {"not_produced", std::move(missing)}});
    }
    return Json{{"cases", std::move(cases)}}.dump(2) + "\n";
}

std::string validation_results_to_markdown(const std::vector<CaseResult>& results)
{
    std::string out;
    for (const CaseResult& r : results) {
        char buf[256];
        std::snprintf(buf, sizeof buf, "%s form, %d seed%s, %.1f s of wall time", r.quick ? "Quick" : "Full", r.seeds,
                      r.seeds == 1 ? "" : "s", r.wall_seconds);
        out += "## " + r.id + "\n\n" + r.title + ". Machine `" + r.machine + "`; measured by " + r.source + ". " +
               buf + ".\n\n";
        out += "| figure | measured | model | model / measured | tolerance | |\n| --- | --- | --- | --- | --- | --- |\n";
        std::string notes;
        for (const FigureResult& f : r.figures) {
            std::snprintf(buf, sizeof buf, "%.3f", f.ratio);
            out += "| " + f.label + " | " + number_text(f.measured) + " | " + number_text(f.model) + " | " + buf +
                   " | " + number_text(f.tolerance.low) + "-" + number_text(f.tolerance.high) + " | " +
                   (f.within ? "within" : "**outside**") + " |\n";
            if (!f.note.empty())
                notes += "- " + f.label + ": " + f.note + "\n";
        }
        if (!notes.empty())
            out += "\n" + notes;
        if (!r.not_produced.empty()) {
            out += "\nNot produced by the model:\n\n";
            for (const NotProduced& n : r.not_produced)
                out += "- " + n.name + (n.measured.empty() ? "" : " (" + n.measured + ")") + ": " + n.reason + "\n";
        }
        if (r.unfinished)
            out += "\n" + std::to_string(r.unfinished) + " simulation(s) hit the time limit.\n";
        out += "\n";
    }
    return out;
}

}  // namespace wb

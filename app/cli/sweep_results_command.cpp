// SPDX-License-Identifier: Apache-2.0
#include "cli/sweep_results_command.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "cli/args.h"
#include "sweep/points_csv.h"
#include "sweep/sweep_curves.h"
#include "sweep/sweep_result.h"

namespace wb::cli {

namespace {

const std::vector<OptionSpec> kCurveSpecs{
    {"figure", Value::Required, "NAME", "the figure to plot (default headline); a wrong name lists them"},
    {"x", Value::Required, "PARAM", "the swept parameter along the curves (default the workload's first)"},
    {"machine", Value::Required, "M", "the machine, as the sweep names it (default the first)"},
    {"workload", Value::Required, "LABEL", "the workload, by its label (default the first)"},
    {"features", Value::Required, "LIST", "the feature set, as the sweep writes it (default the first)"},
    {"held", Value::Required, "PARAM=VALUE", "hold another swept parameter at a value (default its first)", true},
};

const std::vector<OptionSpec> kCsvSpecs{
    {"output", Value::Required, "FILE", "write the CSV here instead of to standard output"},
};

// The index of `value` in `names`, or a UsageError listing them.
std::size_t pick(const std::vector<std::string>& names, const std::string& value, const std::string& option)
{
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == value)
            return i;
    std::string valid;
    for (const std::string& n : names)
        valid += (valid.empty() ? "" : ", ") + (n.empty() ? std::string("\"\"") : n);
    throw UsageError("sweep curves: --" + option + " '" + value + "': expected one of " + valid);
}

std::vector<std::string> value_texts(const SweepParameter& p)
{
    std::vector<std::string> out;
    for (const ParameterValue& v : p.values)
        out.push_back(v.text);
    return out;
}

std::string cell(const Summary& s)
{
    char buf[64];
    if (s.n == 0)
        return "-";
    if (s.ci95)
        std::snprintf(buf, sizeof buf, "%.4g +/- %.2g (%d)", s.mean, *s.ci95, s.n);
    else
        std::snprintf(buf, sizeof buf, "%.4g (%d)", s.mean, s.n);
    return buf;
}

}  // namespace

int sweep_curves_command(const std::vector<std::string>& argv)
{
    const Args args = parse_args(argv, kCurveSpecs, "sweep curves");
    if (args.positionals.size() != 1)
        throw UsageError("sweep curves: expected one sweep result\nusage: wakesim sweep curves RESULT [options]\n" +
                         describe_options(kCurveSpecs));
    const SweepResult result(args.positionals[0]);
    const SweepSpec& spec = result.spec();
    const SweepFigure* figure = find_sweep_figure(args.get("figure").value_or("headline"));
    if (!figure) {
        std::string valid;
        for (const SweepFigure& f : sweep_figures())
            valid += (valid.empty() ? "" : ", ") + std::string(f.name);
        throw UsageError("sweep curves: --figure '" + *args.get("figure") + "': expected one of " + valid);
    }
    CurveSelection sel;
    if (auto m = args.get("machine"))
        sel.machine = pick(spec.machines, *m, "machine");
    std::vector<std::string> labels;
    for (const SweepWorkload& w : spec.workloads)
        labels.push_back(w.label);
    if (auto w = args.get("workload"))
        sel.workload = pick(labels, *w, "workload");
    if (auto f = args.get("features"))
        sel.features = pick(spec.features, *f, "features");
    const SweepWorkload& w = spec.workloads[sel.workload];
    std::vector<std::string> params;
    for (const SweepParameter& p : w.parameters)
        params.push_back(p.name);
    if (auto x = args.get("x"))
        sel.x = pick(params, *x, "x");
    sel.held.assign(params.size(), 0);
    if (args.has("held"))
        for (const std::string& held : args.repeated.at("held")) {
            const std::size_t eq = held.find('=');
            const std::size_t p = pick(params, held.substr(0, eq), "held");
            sel.held[p] = pick(value_texts(w.parameters[p]), eq == std::string::npos ? "" : held.substr(eq + 1), "held");
        }

    const std::vector<Curve> curves = sweep_curves(result.grid(), result.by_index(), sel, *figure);
    std::string held_text;
    for (std::size_t p = 0; p < params.size(); ++p)
        if (p != sel.x)
            held_text += ", " + params[p] + "=" + w.parameters[p].values[sel.held[p]].text;
    std::printf("%s on %s, features %s%s: %s%s%s, mean +/- 95%% interval (seeds)\n", w.label.c_str(),
                spec.machines[sel.machine].c_str(),
                spec.features[sel.features].empty() ? "default" : spec.features[sel.features].c_str(),
                held_text.c_str(), std::string(figure->label).c_str(), figure->unit.empty() ? "" : " in ",
                std::string(figure->unit).c_str());
    std::printf("%-12s", params.empty() ? "workload" : params[sel.x].c_str());
    for (const Curve& c : curves)
        std::printf("  %-26s", c.policy.c_str());
    std::printf("\n");
    for (std::size_t v = 0; v < curves.front().points.size(); ++v) {
        std::printf("%-12s", curves.front().points[v].x_text.c_str());
        for (const Curve& c : curves)
            std::printf("  %-26s", cell(c.points[v].summary).c_str());
        std::printf("\n");
    }
    return 0;
}

int sweep_csv_command(const std::vector<std::string>& argv)
{
    const Args args = parse_args(argv, kCsvSpecs, "sweep csv");
    if (args.positionals.size() != 1)
        throw UsageError("sweep csv: expected one sweep result\nusage: wakesim sweep csv RESULT [--output FILE]");
    const SweepResult result(args.positionals[0]);
    std::ofstream file;
    if (auto path = args.get("output"); path && !(file = std::ofstream(*path)))
        throw UsageError("sweep csv: --output '" + *path + "': cannot write this file");
    std::ostream& out = file.is_open() ? file : std::cout;
    out << points_csv_header(result.grid());
    for (const PointResult& r : result.points())
        out << points_csv_row(result.grid(), r);
    return 0;
}

}  // namespace wb::cli

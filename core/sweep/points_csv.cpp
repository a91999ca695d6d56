// SPDX-License-Identifier: Apache-2.0
#include "sweep/points_csv.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace wb {

namespace {

std::string quoted(const std::string& text)
{
    std::string out = "\"";
    for (char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string number(double value)
{
    if (!std::isfinite(value))
        return "";
    char buf[32];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
    return ec == std::errc() ? std::string(buf, end) : "";
}

// Every swept parameter's name, each once, in the order first met.
std::vector<std::string> parameter_columns(const SweepSpec& spec)
{
    std::vector<std::string> names;
    for (const SweepWorkload& w : spec.workloads)
        for (const SweepParameter& p : w.parameters)
            if (std::find(names.begin(), names.end(), p.name) == names.end())
                names.push_back(p.name);
    return names;
}

}  // namespace

std::string points_csv_header(const SweepGrid& grid)
{
    std::string out = "index,machine,label,workload";
    for (const std::string& name : parameter_columns(grid.spec()))
        out += "," + quoted(name);
    out += ",features,policy,seed,finished,elapsed_ns,events,headline_name,headline_unit";
    for (const SweepFigure& f : sweep_figures())
        out += "," + std::string(f.name);
    return out + "\n";
}

std::string points_csv_row(const SweepGrid& grid, const PointResult& r)
{
    const SweepSpec& spec = grid.spec();
    const SweepPoint p = grid.point(r.index);
    std::string out = std::to_string(r.index) + "," + quoted(spec.machines[p.machine]) + "," +
                      quoted(spec.workloads[p.workload].label) + "," + quoted(grid.workload_spec(p));
    const auto values = grid.parameters(p);
    for (const std::string& name : parameter_columns(spec)) {
        out += ",";
        for (const auto& [param, value] : values)
            if (param == name)
                out += quoted(value->text);
    }
    out += "," + quoted(spec.features[p.features]) + "," + quoted(spec.policies[p.policy]) + "," +
           std::to_string(spec.seeds[p.seed]) + "," + (r.finished ? "1" : "0") + "," + std::to_string(r.elapsed_ns) +
           "," + std::to_string(r.events) + "," + quoted(r.headline.name) + "," + quoted(r.headline.unit);
    for (const SweepFigure& f : sweep_figures())
        out += "," + number(figure_value(f, r));
    return out + "\n";
}

}  // namespace wb

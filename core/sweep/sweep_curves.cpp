// SPDX-License-Identifier: Apache-2.0
#include "sweep/sweep_curves.h"

#include <cmath>

namespace wb {

std::vector<Curve> sweep_curves(const SweepGrid& grid, const std::vector<const PointResult*>& results,
                                const CurveSelection& sel, const SweepFigure& figure)
{
    const SweepSpec& spec = grid.spec();
    const SweepWorkload& w = spec.workloads[sel.workload];
    const std::size_t nx = w.parameters.empty() ? 1 : w.parameters[sel.x].values.size();
    std::vector<Curve> curves;
    for (std::size_t policy = 0; policy < spec.policies.size(); ++policy) {
        Curve curve{spec.policies[policy], {}};
        for (std::size_t v = 0; v < nx; ++v) {
            // The combination index of the held values with the x parameter
            // at v (mixed radix, the first parameter slowest).
            std::size_t combination = 0;
            for (std::size_t i = 0; i < w.parameters.size(); ++i) {
                const std::size_t value = i == sel.x ? v : (i < sel.held.size() ? sel.held[i] : 0);
                combination = combination * w.parameters[i].values.size() + value;
            }
            CurvePoint point;
            if (w.parameters.empty()) {
                point.x_text = w.label;
            } else {
                point.x_text = w.parameters[sel.x].values[v].text;
                point.x = w.parameters[sel.x].values[v].number;
            }
            std::vector<double> values;
            for (std::size_t seed = 0; seed < spec.seeds.size(); ++seed) {
                const std::size_t index =
                    grid.index_of({sel.machine, sel.workload, combination, sel.features, policy, seed});
                if (index < results.size() && results[index]) {
                    const double value = figure_value(figure, *results[index]);
                    if (std::isfinite(value))
                        values.push_back(value);
                }
            }
            point.summary = summarize(values);
            curve.points.push_back(std::move(point));
        }
        curves.push_back(std::move(curve));
    }
    return curves;
}

bool curves_fit_log_axis(const std::vector<Curve>& curves)
{
    for (const Curve& c : curves)
        for (const CurvePoint& p : c.points)
            if (!p.x || *p.x <= 0)
                return false;
    return !curves.empty();
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// A sweep's results as curves: one figure against one swept parameter, one
// curve per policy, each point the mean over the seeds with its 95%
// interval (Student's t, as `wakesim compare` gives it), the machine, the
// workload, the feature set and the workload's other parameters held at one
// value each. What Results > Sweep plots and `wakesim sweep curves` prints.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "metrics/stats.h"
#include "sweep/point_result.h"
#include "sweep/sweep_grid.h"

namespace wb {

struct CurveSelection {
    std::size_t machine = 0;
    std::size_t workload = 0;
    std::size_t features = 0;
    std::size_t x = 0;  // which of the workload's parameters the curves run along
    // The value index each other parameter is held at, by parameter (the
    // x parameter's entry is ignored); missing entries hold the first value.
    std::vector<std::size_t> held;
};

struct CurvePoint {
    std::string x_text;       // the value as in the spec: "4", "500us"
    std::optional<double> x;  // its number, for a value axis; none for "socket"
    Summary summary;          // over the seeds with a result; n = 0 when none has one
};

struct Curve {
    std::string policy;
    std::vector<CurvePoint> points;  // in the parameter's order
};

// `results` by point index; a null entry is a point without a result (a
// shard's file holds only its own). A workload without swept parameters
// gives one point per curve, at its label.
std::vector<Curve> sweep_curves(const SweepGrid& grid, const std::vector<const PointResult*>& results,
                                const CurveSelection& selection, const SweepFigure& figure);

// Whether every value of the x parameter is a number above 0 (a log axis
// can show it).
bool curves_fit_log_axis(const std::vector<Curve>& curves);

}  // namespace wb

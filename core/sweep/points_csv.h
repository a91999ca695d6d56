// SPDX-License-Identifier: Apache-2.0
//
// A sweep's points as CSV, one row a point, for a spreadsheet or pandas:
// the point's place in the grid (machine, workload, one column per swept
// parameter of any workload, features, policy, seed), then every figure of
// sweep_figures() under its name. Numbers are written in the shortest form
// that reads back exactly; a figure that is not a number, and a parameter
// the point's workload does not sweep, is an empty field.
#pragma once

#include <string>

#include "sweep/point_result.h"
#include "sweep/sweep_grid.h"

namespace wb {

std::string points_csv_header(const SweepGrid& grid);
std::string points_csv_row(const SweepGrid& grid, const PointResult& point);

}  // namespace wb

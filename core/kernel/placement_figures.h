// SPDX-License-Identifier: Apache-2.0
//
// The figures a kernel check sets side by side, taken from a RunMetrics
// (the kernel's, from its trace, or the model's) the same way for both, and
// their spread over runs: where wakeups were placed by distance class from
// the waker's CPU, how often on prev or on the waker's CPU, across nodes,
// and how often tasks migrated.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "metrics/run_metrics.h"

namespace wb {

struct PlacementFigures {
    double wakeups = 0;
    std::array<double, kDistanceClassCount> from_waker_pct{};  // by distance class from the waker's CPU
    double chosen_prev_pct = 0;                                // the CPU chosen is prev
    double chosen_waker_pct = 0;                               // the CPU chosen is the waker's
    double cross_node_pct = 0;                                 // the CPU chosen is on another node than the waker's
    double migrations = 0;                                     // a task ran on another CPU than last time
    double migrations_cross_node = 0;
};

PlacementFigures placement_figures(const RunMetrics& m);

// Mean, lowest and highest of one figure over runs.
struct Spread {
    double mean = 0, min = 0, max = 0;
    int n = 0;
};

Spread spread_of(const std::vector<double>& values);

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// The human-readable summary of a run that `wakesim run` prints after the
// workload's own report, and the placement fractions both the text and the
// JSON results give.
#pragma once

#include <array>
#include <string>

#include "metrics/run_metrics.h"

namespace wb {

// Fraction of placements per distance class (sums to 1 when there were any).
std::array<double, kDistanceClassCount> placement_fractions(
    const std::array<std::uint64_t, kDistanceClassCount>& counts);

std::string format_run_summary(const RunMetrics& metrics, Time elapsed);

}  // namespace wb

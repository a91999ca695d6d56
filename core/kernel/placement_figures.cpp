// SPDX-License-Identifier: Apache-2.0
#include "kernel/placement_figures.h"

#include <algorithm>
#include <numeric>

namespace wb {

namespace {

constexpr std::size_t kSameCpu = static_cast<std::size_t>(DistanceClass::SameCpu);
constexpr std::size_t kOtherNode = static_cast<std::size_t>(DistanceClass::OtherNode);

}  // namespace

PlacementFigures placement_figures(const RunMetrics& m)
{
    PlacementFigures f;
    const auto total = [](const auto& counts) {
        return static_cast<double>(std::accumulate(counts.begin(), counts.end(), std::uint64_t{0}));
    };
    f.wakeups = total(m.placement_from_waker);
    const auto pct = [](double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; };
    for (std::size_t i = 0; i < kDistanceClassCount; ++i)
        f.from_waker_pct[i] = pct(static_cast<double>(m.placement_from_waker[i]), f.wakeups);
    f.chosen_prev_pct = pct(static_cast<double>(m.placement_from_prev[kSameCpu]), total(m.placement_from_prev));
    f.chosen_waker_pct = f.from_waker_pct[kSameCpu];
    f.cross_node_pct = f.from_waker_pct[kOtherNode];
    f.migrations = total(m.migrations);
    f.migrations_cross_node = static_cast<double>(m.migrations[kOtherNode]);
    return f;
}

Spread spread_of(const std::vector<double>& values)
{
    Spread s;
    s.n = static_cast<int>(values.size());
    if (values.empty())
        return s;
    s.min = *std::min_element(values.begin(), values.end());
    s.max = *std::max_element(values.begin(), values.end());
    s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
    return s;
}

}  // namespace wb

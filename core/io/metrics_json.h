// SPDX-License-Identifier: Apache-2.0
//
// The JSON forms of RunMetrics' parts that `wakesim run --json` and
// `wakesim trace import --json` share, so both files carry the same keys.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "metrics/histogram.h"
#include "topology/distance.h"

namespace wb {

// count, p50, p90, p99, p99_9, max, mean
nlohmann::ordered_json histogram_json(const Histogram& h);

// {name: count} in the names' order.
template <std::size_t N, typename Names>
nlohmann::ordered_json counts_by_name(const std::array<std::uint64_t, N>& counts, const Names& names)
{
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (std::size_t i = 0; i < N; ++i)
        j[std::string(names[i])] = counts[i];
    return j;
}

// {distance class: fraction of the placements}
nlohmann::ordered_json placement_json(const std::array<std::uint64_t, kDistanceClassCount>& counts);

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "io/metrics_json.h"

#include "metrics/run_summary.h"

namespace wb {

nlohmann::ordered_json histogram_json(const Histogram& h)
{
    return {{"count", h.count()},        {"p50", h.percentile(0.50)},    {"p90", h.percentile(0.90)},
            {"p99", h.percentile(0.99)}, {"p99_9", h.percentile(0.999)}, {"max", h.max()},
            {"mean", h.mean()}};
}

nlohmann::ordered_json placement_json(const std::array<std::uint64_t, kDistanceClassCount>& counts)
{
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    const auto f = placement_fractions(counts);
    for (std::size_t i = 0; i < kDistanceClassCount; ++i)
        j[std::string(kDistanceClassNames[i])] = f[i];
    return j;
}

}  // namespace wb

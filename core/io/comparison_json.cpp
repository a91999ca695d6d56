// SPDX-License-Identifier: Apache-2.0
#include "io/comparison_json.h"

#include <nlohmann/json.hpp>

#include "metrics/comparison.h"

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

// An undefined statistic (one run has no spread) is null, never 0.
Json number_or_null(const std::optional<double>& value)
{
    return value ? Json(*value) : Json(nullptr);
}

}  // namespace

std::string comparison_to_json(const Comparison& c, const std::string& machine)
{
    Json cases = Json::array();
    for (std::size_t k = 0; k < c.cases.size(); ++k)
        cases.push_back({{"label", c.cases[k]}, {"workload", c.workloads[k]}});
    Json cells = Json::array();
    for (const ComparisonCell& cell : c.cells) {
        Json placement = Json::object();
        for (std::size_t d = 0; d < kDistanceClassCount; ++d)
            placement[std::string(kDistanceClassNames[d])] = cell.placement[d];
        cells.push_back({{"policy", cell.policy},
                         {"case", cell.case_label},
                         {"metric", cell.metric},
                         {"unit", cell.unit},
                         {"lower_is_better", cell.lower_is_better},
                         {"n", cell.summary.n},
                         {"mean", cell.summary.mean},
                         {"median", cell.summary.median},
                         {"stddev", number_or_null(cell.summary.stddev)},
                         {"ci95", number_or_null(cell.summary.ci95)},
                         {"change_percent", number_or_null(cell.change.percent)},
                         {"change_ci95", number_or_null(cell.change.ci95)},
                         {"values", cell.values},
                         {"placement", placement},
                         {"unfinished", cell.unfinished}});
    }
    Json j = {{"schema_version", 1}, {"machine", machine},     {"runs", c.runs},
              {"cases", cases},      {"policies", c.policies}, {"cells", cells}};
    return j.dump(2) + "\n";
}

}  // namespace wb

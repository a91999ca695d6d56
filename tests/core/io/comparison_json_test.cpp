// SPDX-License-Identifier: Apache-2.0
#include "io/comparison_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "metrics/comparison.h"

namespace wb {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// baseline and patched in one case, with `values_per_policy` runs each.
Comparison comparison_with(const std::vector<std::vector<double>>& values_per_policy)
{
    Comparison c;
    c.cases = {"default"};
    c.workloads = {"pipe:loops=1000"};
    c.policies = {"baseline", "patched"};
    c.runs = static_cast<int>(values_per_policy.front().size());
    for (std::size_t p = 0; p < 2; ++p) {
        ComparisonCell cell{c.policies[p], c.cases[0], "usecs/op", "us", true, values_per_policy[p], {}, {}, {}, 0};
        c.cells.push_back(cell);
    }
    finish_comparison(c);
    return c;
}

TEST(ComparisonJson, OneRunWritesNullForWhatItCannotKnow)
{
    const std::string json = comparison_to_json(comparison_with({{5.5}, {4.2}}), "teaching-8");
    EXPECT_THAT(json, HasSubstr("\"stddev\": null"));
    EXPECT_THAT(json, HasSubstr("\"ci95\": null"));
    EXPECT_THAT(json, HasSubstr("\"change_ci95\": null"));
    EXPECT_THAT(json, HasSubstr("\"change_percent\": -23.63636"));
    EXPECT_THAT(json, Not(HasSubstr("\"stddev\": 0")));
}

TEST(ComparisonJson, ThreeRunsWriteNumbers)
{
    const std::string json = comparison_to_json(comparison_with({{5.0, 5.2, 5.4}, {3.0, 3.3, 3.6}}), "teaching-8");
    EXPECT_THAT(json, Not(HasSubstr("null")));
    EXPECT_THAT(json, HasSubstr("\"stddev\": 0."));
    EXPECT_THAT(json, HasSubstr("\"change_percent\": -36.5384"));
}

}  // namespace
}  // namespace wb

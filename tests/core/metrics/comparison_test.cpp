// SPDX-License-Identifier: Apache-2.0
#include "metrics/comparison.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace wb {
namespace {

using ::testing::HasSubstr;

Comparison two_by_two()
{
    Comparison c;
    c.cases = {"default", "same-cpu"};
    c.workloads = {"pipe:loops=1000", "pipe:loops=1000,cpus=3"};
    c.policies = {"baseline", "patched"};
    c.runs = 3;
    const double values[2][2][3] = {{{4.0, 4.2, 4.1}, {3.2, 3.2, 3.2}}, {{3.0, 3.1, 2.9}, {3.2, 3.2, 3.2}}};
    for (std::size_t p = 0; p < 2; ++p)
        for (std::size_t k = 0; k < 2; ++k) {
            ComparisonCell cell{c.policies[p], c.cases[k], "usecs/op", "us", true, {}, {}, {}, {}, 0};
            cell.values.assign(values[p][k], values[p][k] + 3);
            cell.placement[static_cast<std::size_t>(DistanceClass::Cluster)] = k == 0 ? 1.0 : 0.0;
            cell.placement[static_cast<std::size_t>(DistanceClass::SameCpu)] = k == 0 ? 0.0 : 1.0;
            c.cells.push_back(cell);
        }
    finish_comparison(c);
    return c;
}

TEST(Comparison, ChangesAreAgainstTheFirstPolicyOfTheSameCase)
{
    const Comparison c = two_by_two();
    EXPECT_DOUBLE_EQ(c.cell(0, 0).change.percent, 0.0);
    EXPECT_NEAR(c.cell(1, 0).change.percent, -26.83, 0.01);  // 3.0 vs 4.1
    EXPECT_GT(c.cell(1, 0).change.ci95, 0.0);
    EXPECT_DOUBLE_EQ(c.cell(1, 1).change.percent, 0.0);  // a tie where placement is not consulted
}

TEST(Comparison, TextTableInThePublishedLayout)
{
    const std::string text = format_comparison(two_by_two());
    EXPECT_THAT(text, HasSubstr("usecs/op (lower is better), 3 runs per cell"));
    EXPECT_THAT(text, HasSubstr("policy   | default mean | default median | same-cpu mean | same-cpu median"));
    EXPECT_THAT(text, HasSubstr("baseline |        4.100 |          4.100 |         3.200 |           3.200"));
    EXPECT_THAT(text, HasSubstr("-26.8% +/- "));
    EXPECT_THAT(text, HasSubstr("cluster 100.0%"));
}

TEST(Comparison, CsvHasOneRowPerCell)
{
    const std::string csv = comparison_to_csv(two_by_two());
    EXPECT_THAT(csv, HasSubstr("policy,case,workload,metric,unit,n,mean,median,stddev"));
    EXPECT_THAT(csv, HasSubstr("\"patched\",\"default\",\"pipe:loops=1000\",\"usecs/op\",\"us\",3,3,3,0.1,"));
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5);
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "metrics/comparison.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace wb {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

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

// Two policies, one case, one run each: 4.2 against 5.5 is -23.6%.
Comparison one_run()
{
    Comparison c;
    c.cases = {"default"};
    c.workloads = {"pipe:loops=1000"};
    c.policies = {"baseline", "patched"};
    c.runs = 1;
    for (std::size_t p = 0; p < 2; ++p) {
        ComparisonCell cell{c.policies[p], c.cases[0], "usecs/op", "us", true, {}, {}, {}, {}, 0};
        cell.values = {p == 0 ? 5.5 : 4.2};
        c.cells.push_back(cell);
    }
    finish_comparison(c);
    return c;
}

std::string csv_row_of(const std::string& csv, const std::string& policy)
{
    const std::size_t start = csv.find("\"" + policy + "\",");
    return start == std::string::npos ? "" : csv.substr(start, csv.find('\n', start) - start);
}

TEST(Comparison, ChangesAreAgainstTheFirstPolicyOfTheSameCase)
{
    const Comparison c = two_by_two();
    EXPECT_EQ(c.cell(0, 0).change.percent, 0.0);
    EXPECT_EQ(c.cell(0, 0).change.ci95, 0.0);
    ASSERT_TRUE(c.cell(1, 0).change.percent && c.cell(1, 0).change.ci95);
    EXPECT_NEAR(*c.cell(1, 0).change.percent, -26.83, 0.01);  // 3.0 vs 4.1
    EXPECT_GT(*c.cell(1, 0).change.ci95, 0.0);
    EXPECT_EQ(c.cell(1, 1).change.percent, 0.0);  // a tie where placement is not consulted
    EXPECT_THAT(format_change(c.cell(1, 0).change), ::testing::MatchesRegex("-26\\.8% \\+/- [0-9.]+%"));
}

TEST(Comparison, OneRunHasAChangeButNoIntervalOrSpread)
{
    const Comparison c = one_run();
    const ComparisonCell& patched = c.cell(1, 0);
    ASSERT_TRUE(patched.change.percent.has_value());
    EXPECT_NEAR(*patched.change.percent, -23.64, 0.01);
    EXPECT_FALSE(patched.change.ci95.has_value());
    EXPECT_FALSE(patched.summary.stddev.has_value());
    EXPECT_FALSE(patched.summary.ci95.has_value());
    EXPECT_EQ(format_change(patched.change), "-23.6% n/a");
    EXPECT_EQ(format_change(Change{}), "n/a");
}

TEST(Comparison, TextTableSaysNotApplicableForOneRun)
{
    const std::string text = format_comparison(one_run());
    EXPECT_THAT(text, HasSubstr("usecs/op (lower is better), 1 run per cell"));
    // mean, median, then the stddev column right-aligned like the numbers.
    EXPECT_THAT(text, HasSubstr("patched       4.200      4.200        n/a   -23.6% n/a"));
    EXPECT_THAT(text, HasSubstr("baseline      5.500      5.500        n/a   -"));
    EXPECT_THAT(text, Not(HasSubstr("+/-")));
}

TEST(Comparison, CsvLeavesUndefinedStatisticsEmpty)
{
    const std::string csv = comparison_to_csv(one_run());
    // n, mean, median, stddev, ci95, change_percent, change_ci95, then placement.
    EXPECT_THAT(csv_row_of(csv, "patched"), HasSubstr("\"us\",1,4.2,4.2,,,-23.6364,,0,"));
    EXPECT_THAT(csv_row_of(csv, "baseline"), HasSubstr("\"us\",1,5.5,5.5,,,0,0,0,"));
    const std::string three = comparison_to_csv(two_by_two());
    EXPECT_THAT(csv_row_of(three, "patched"),
                ::testing::MatchesRegex(".*,3,3,3,0\\.1,0\\.248[0-9]*,-26\\.8293,[0-9.]+,.*"));
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

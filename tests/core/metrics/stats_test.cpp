// SPDX-License-Identifier: Apache-2.0
#include "metrics/stats.h"

#include <gtest/gtest.h>

namespace wb {
namespace {

TEST(Stats, StudentQuantilesMatchTheTables)
{
    EXPECT_NEAR(student_t95(1), 12.706, 0.001);
    EXPECT_NEAR(student_t95(5), 2.571, 0.001);
    EXPECT_NEAR(student_t95(19), 2.093, 0.001);
    EXPECT_NEAR(student_t95(1000), 1.962, 0.001);
}

TEST(Stats, SummaryOfASample)
{
    const Summary s = summarize({4.0, 1.0, 3.0, 2.0});
    EXPECT_EQ(s.n, 4);
    EXPECT_DOUBLE_EQ(s.mean, 2.5);
    EXPECT_DOUBLE_EQ(s.median, 2.5);
    EXPECT_NEAR(s.stddev, 1.2910, 1e-4);
    EXPECT_NEAR(s.ci95, 3.182 * 1.2910 / 2, 1e-3);
    EXPECT_DOUBLE_EQ(summarize({7.0}).stddev, 0.0);
}

TEST(Stats, ChangeAgainstAReferenceWithWelchInterval)
{
    // Means 10 and 8: -20%.
    const std::vector<double> a{9, 10, 11, 10.5, 9.5};  // sample variance 0.625
    const std::vector<double> b{6, 8, 10, 7, 9};        // sample variance 2.5
    const Change c = change_against(a, b);
    EXPECT_NEAR(c.percent, -20.0, 1e-9);
    // se = sqrt(0.625/5 + 2.5/5) = 0.7906; Welch df = 0.625^2 / (0.125^2/4 + 0.5^2/4) = 5.882;
    // t(5.882) = 2.456: 2.456 x 0.7906 / 10 x 100 = 19.42 points.
    EXPECT_NEAR(c.ci95, 19.42, 0.02);
}

TEST(Stats, IdenticalRunsHaveNoInterval)
{
    const Change c = change_against({3, 3, 3}, {3, 3, 3});
    EXPECT_DOUBLE_EQ(c.percent, 0.0);
    EXPECT_DOUBLE_EQ(c.ci95, 0.0);
}

}  // namespace
}  // namespace wb

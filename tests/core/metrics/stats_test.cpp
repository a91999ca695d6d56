// SPDX-License-Identifier: Apache-2.0
#include "metrics/stats.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

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
    ASSERT_TRUE(s.stddev && s.ci95);
    EXPECT_NEAR(*s.stddev, 1.2910, 1e-4);
    EXPECT_NEAR(*s.ci95, 3.182 * 1.2910 / 2, 1e-3);
}

TEST(Stats, OneRunHasNoSpread)
{
    const Summary s = summarize({7.0});
    EXPECT_EQ(s.n, 1);
    EXPECT_DOUBLE_EQ(s.mean, 7.0);
    EXPECT_FALSE(s.stddev.has_value());
    EXPECT_FALSE(s.ci95.has_value());
}

TEST(Stats, OneRunOnEitherSideHasAChangeButNoInterval)
{
    for (const auto& [reference, sample] : {std::pair<std::vector<double>, std::vector<double>>{{4.0}, {3.0}},
                                            {{4.0, 4.2, 3.8}, {3.0}},
                                            {{4.0}, {3.0, 3.1, 2.9}}}) {
        const Change c = change_against(reference, sample);
        ASSERT_TRUE(c.percent.has_value());
        EXPECT_NEAR(*c.percent, -25.0, 1e-9);
        EXPECT_FALSE(c.ci95.has_value());
    }
}

TEST(Stats, NoChangeAgainstAZeroOrEmptyReference)
{
    EXPECT_FALSE(change_against({0.0, 0.0}, {1.0, 2.0}).percent.has_value());
    EXPECT_FALSE(change_against({}, {1.0, 2.0}).percent.has_value());
}

TEST(Stats, ChangeAgainstAReferenceWithWelchInterval)
{
    // Means 10 and 8: -20%.
    const std::vector<double> a{9, 10, 11, 10.5, 9.5};  // sample variance 0.625
    const std::vector<double> b{6, 8, 10, 7, 9};        // sample variance 2.5
    const Change c = change_against(a, b);
    ASSERT_TRUE(c.percent && c.ci95);
    EXPECT_NEAR(*c.percent, -20.0, 1e-9);
    // se = sqrt(0.625/5 + 2.5/5) = 0.7906; Welch df = 0.625^2 / (0.125^2/4 + 0.5^2/4) = 5.882;
    // t(5.882) = 2.456: 2.456 x 0.7906 / 10 x 100 = 19.42 points.
    EXPECT_NEAR(*c.ci95, 19.42, 0.02);
}

TEST(Stats, IdenticalRunsHaveAZeroWidthInterval)
{
    const Change c = change_against({3, 3, 3}, {3, 3, 3});
    EXPECT_EQ(c.percent, 0.0);
    EXPECT_EQ(c.ci95, 0.0);
}

}  // namespace
}  // namespace wb

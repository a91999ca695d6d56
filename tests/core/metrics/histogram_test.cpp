// SPDX-License-Identifier: Apache-2.0
#include "metrics/histogram.h"

#include <gtest/gtest.h>

namespace wb {
namespace {

TEST(Histogram, SmallValuesAreExact)
{
    Histogram h;
    for (int v = 1; v <= 100; ++v)
        h.record(v);
    EXPECT_EQ(h.count(), 100u);
    EXPECT_EQ(h.percentile(0.5), 50);
    EXPECT_EQ(h.percentile(0.99), 99);
    EXPECT_EQ(h.percentile(1.0), 100);
    EXPECT_EQ(h.min(), 1);
    EXPECT_DOUBLE_EQ(h.mean(), 50.5);
}

TEST(Histogram, LargeValuesWithinOnePercent)
{
    Histogram h;
    for (int i = 1; i <= 1000; ++i)
        h.record(static_cast<std::int64_t>(i) * 1000);  // 1 us .. 1 ms
    const std::int64_t p50 = h.percentile(0.5);
    EXPECT_GE(p50, 500000);
    EXPECT_LE(p50, 500000 * 1.008);
    const std::int64_t p999 = h.percentile(0.999);
    EXPECT_GE(p999, 999000);
    EXPECT_LE(p999, 1000000);  // clamped to the largest value seen
    EXPECT_EQ(h.max(), 1000000);
}

TEST(Histogram, HandlesTheWholeRangeAndMerges)
{
    Histogram a, b;
    a.record(INT64_MAX);
    a.record(-5);
    b.record(3);
    a.merge(b);
    EXPECT_EQ(a.count(), 3u);
    EXPECT_EQ(a.min(), 0);
    EXPECT_EQ(a.percentile(0.5), 3);
    EXPECT_EQ(a.percentile(1.0), INT64_MAX);
}

TEST(Histogram, CdfStepsAtEachBucketsUpperEdge)
{
    Histogram h;
    for (int v : {10, 10, 20, 30})
        h.record(v);
    const std::vector<CdfStep> steps = h.cdf_steps();
    ASSERT_EQ(steps.size(), 3u);
    EXPECT_EQ(steps[0].value, 10);
    EXPECT_DOUBLE_EQ(steps[0].fraction, 0.5);
    EXPECT_EQ(steps[1].value, 20);
    EXPECT_DOUBLE_EQ(steps[1].fraction, 0.75);
    EXPECT_EQ(steps[2].value, 30);
    EXPECT_DOUBLE_EQ(steps[2].fraction, 1.0);
}

TEST(Histogram, OneValueIsOneStepAtThatValue)
{
    Histogram h;
    for (int i = 0; i < 50; ++i)
        h.record(123'456);  // inside a wide bucket: the step is clamped to the value
    const std::vector<CdfStep> steps = h.cdf_steps();
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].value, 123'456);
    EXPECT_DOUBLE_EQ(steps[0].fraction, 1.0);
    EXPECT_TRUE(Histogram{}.cdf_steps().empty());
}

TEST(Histogram, CdfStepsAgreeWithPercentiles)
{
    Histogram h;
    for (int i = 1; i <= 1000; ++i)
        h.record(static_cast<std::int64_t>(i) * 997);
    for (const CdfStep& step : h.cdf_steps())
        EXPECT_EQ(h.percentile(step.fraction - 1e-12), step.value);  // the fraction as a rank, not one past it
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "engine/idle_governor.h"

#include <gtest/gtest.h>

namespace wb {
namespace {

using History = std::array<std::int64_t, kIdleIntervals>;

constexpr std::int64_t us(std::int64_t n)
{
    return n * 1000;
}

TEST(MenuTypicalInterval, SteadyPeriodsPredictTheirAverage)
{
    const History h{us(10), us(12), us(11), us(9), us(10), us(10), us(11), us(9)};
    EXPECT_EQ(menu_typical_interval(h), us(10));
}

TEST(MenuTypicalInterval, OneLongPauseAmongShortIdlesIsDropped)
{
    // A pipe pair's CPU: 2 us idles, once interrupted by a 5 ms pause.
    const History h{us(2), us(2), us(5000), us(2), us(3), us(2), us(2), us(2)};
    EXPECT_EQ(menu_typical_interval(h), us(2));
}

TEST(MenuTypicalInterval, TwoLongPausesAreDroppedToo)
{
    const History h{us(2), us(9000), us(5000), us(2), us(3), us(2), us(2), us(2)};
    EXPECT_EQ(menu_typical_interval(h), us(2));
}

TEST(MenuTypicalInterval, NoPatternWhenMoreThanAQuarterIsLong)
{
    // Only the two longest may be dropped: three long pauses leave six
    // samples that still disagree.
    const History h{us(2), us(9000), us(5000), us(7000), us(3), us(2), us(2), us(2)};
    EXPECT_EQ(menu_typical_interval(h), std::nullopt);
}

TEST(MenuTypicalInterval, SmallSpreadCountsAsTypicalWhateverTheAverage)
{
    // stddev 15 us <= 20 us although the average is only 2x the stddev.
    const History h{us(15), us(45), us(15), us(45), us(15), us(45), us(15), us(45)};
    EXPECT_EQ(menu_typical_interval(h), us(30));
}

TEST(MenuTypicalInterval, AllZeroHistoryHasNoPattern)
{
    EXPECT_EQ(menu_typical_interval(History{}), std::nullopt);
}

}  // namespace
}  // namespace wb

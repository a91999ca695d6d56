// SPDX-License-Identifier: Apache-2.0
#include "base/sim_time.h"

#include <gtest/gtest.h>

namespace wb {
namespace {

TEST(SimTime, ParsesDurationsWithUnits)
{
    Time t;
    ASSERT_TRUE(parse_duration("500us", t));
    EXPECT_EQ(t.ns(), 500000);
    ASSERT_TRUE(parse_duration("1.5ms", t));
    EXPECT_EQ(t.ns(), 1500000);
    ASSERT_TRUE(parse_duration("2s", t));
    EXPECT_EQ(t.ns(), 2000000000);
    ASSERT_TRUE(parse_duration("750ns", t));
    EXPECT_EQ(t.ns(), 750);
}

TEST(SimTime, RejectsWhatIsNotADuration)
{
    Time t = Time::ns(7);
    EXPECT_FALSE(parse_duration("5", t));
    EXPECT_FALSE(parse_duration("ms", t));
    EXPECT_FALSE(parse_duration("5min", t));
    EXPECT_FALSE(parse_duration("-5ms", t));
    EXPECT_FALSE(parse_duration("1e30s", t));
    EXPECT_EQ(t.ns(), 7);
}

TEST(SimTime, FormatsInTheLargestWholeUnit)
{
    EXPECT_EQ(format_duration(Time::us(1500)), "1.5ms");
    EXPECT_EQ(format_duration(Time::ns(750)), "750ns");
    EXPECT_EQ(format_duration(Time::s(2)), "2s");
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "topology/cpumask.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace wb {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(CpuMask, WritesTheKernelCpulistSyntax)
{
    CpuMask m = CpuMask::of(16, {0, 1, 2, 3, 8, 10, 11, 15});
    EXPECT_EQ(m.to_cpulist(), "0-3,8,10-11,15");
    EXPECT_EQ(CpuMask(16).to_cpulist(), "");
}

TEST(CpuMask, ParsesRangesStridesAndSpaces)
{
    EXPECT_EQ(parse_cpulist("0-3, 8-11", 16).mask.to_cpulist(), "0-3,8-11");
    // bitmap_parselist's "used/group": the first 2 of every 4 CPUs.
    EXPECT_EQ(parse_cpulist("0-15:2/4", 16).mask.to_cpulist(), "0-1,4-5,8-9,12-13");
    EXPECT_TRUE(parse_cpulist("", 4).mask.empty());
    EXPECT_TRUE(parse_cpulist("", 4).ok());
}

TEST(CpuMask, ParseErrorsSayWhatWasExpectedAndWhere)
{
    CpulistParse out = parse_cpulist("0-3,x", 8);
    EXPECT_FALSE(out.ok());
    EXPECT_EQ(out.column, 5u);
    EXPECT_THAT(out.error, HasSubstr("expected a CPU number"));

    out = parse_cpulist("0-9", 8);
    EXPECT_THAT(out.error, HasSubstr("CPU 9 is out of range: this machine has CPUs 0-7"));

    out = parse_cpulist("5-2", 8);
    EXPECT_THAT(out.error, HasSubstr("ends before it starts"));

    out = parse_cpulist("1 2", 8);
    EXPECT_THAT(out.error, HasSubstr("expected ',' or the end of the list, found '2'"));
}

TEST(CpuMask, WrapIterationStartsAtTheGivenCpu)
{
    // for_each_cpu_wrap(): the LLC scan starts after the target and wraps.
    CpuMask m = CpuMask::of(8, {1, 3, 5, 7});
    std::vector<CpuId> order;
    m.for_each_wrap(4, [&](CpuId c) { order.push_back(c); });
    EXPECT_THAT(order, ElementsAre(5, 7, 1, 3));
    order.clear();
    m.for_each_wrap(3, [&](CpuId c) { order.push_back(c); });
    EXPECT_THAT(order, ElementsAre(3, 5, 7, 1));
}

// for_each_cpu_and() and the word-at-a-time walk visit what for_each()
// with a test() visits, in the same order, across word boundaries.
TEST(CpuMask, WordWalksVisitWhatForEachVisits)
{
    const CpuMask span = CpuMask::of(200, {0, 5, 63, 64, 65, 127, 128, 190, 199});
    CpuMask considered = CpuMask::range(200, 0, 199);
    considered.reset(5);
    considered.reset(128);
    std::vector<CpuId> expected, both, all, all_expected;
    span.for_each([&](CpuId c) {
        all_expected.push_back(c);
        if (considered.test(c))
            expected.push_back(c);
    });
    span.for_each_and(considered, [&](CpuId c) { both.push_back(c); });
    span.for_each_fixed([&](CpuId c) { all.push_back(c); });
    EXPECT_THAT(both, ElementsAre(0, 63, 64, 65, 127, 190, 199));
    EXPECT_EQ(both, expected);
    EXPECT_EQ(all, all_expected);
}

TEST(CpuMask, SetAlgebraAcrossWordBoundaries)
{
    CpuMask a = CpuMask::range(200, 60, 130);
    CpuMask b = CpuMask::range(200, 128, 199);
    EXPECT_EQ((a & b).to_cpulist(), "128-130");
    EXPECT_EQ((a | b).to_cpulist(), "60-199");
    EXPECT_EQ(a.weight(), 71);
    EXPECT_EQ(a.next(63), 64);
    EXPECT_EQ(a.next(130), kNoCpu);
    EXPECT_TRUE(CpuMask::range(200, 129, 130).is_subset_of(a));
    EXPECT_FALSE(b.is_subset_of(a));
    CpuMask c = a;
    c.and_not(b);
    EXPECT_EQ(c.to_cpulist(), "60-127");
}

}  // namespace
}  // namespace wb

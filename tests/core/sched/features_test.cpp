// SPDX-License-Identifier: Apache-2.0
#include "sched/features.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace wb {
namespace {

using ::testing::HasSubstr;

TEST(Features, DefaultsAreTheKernels)
{
    FeatureSet f;
    EXPECT_TRUE(f(Feat::WA_BIAS));
    EXPECT_TRUE(f(Feat::SIS_UTIL));
    EXPECT_TRUE(f(Feat::DELAY_DEQUEUE));
    EXPECT_FALSE(f(Feat::NEXT_BUDDY));
    EXPECT_EQ(f.changes(), "");
}

TEST(Features, KernelSyntaxSwitchesThem)
{
    FeatureSet f;
    EXPECT_EQ(f.apply("NO_WA_BIAS,NEXT_BUDDY"), "");
    EXPECT_FALSE(f(Feat::WA_BIAS));
    EXPECT_TRUE(f(Feat::NEXT_BUDDY));
    EXPECT_EQ(f.changes(), "NEXT_BUDDY,NO_WA_BIAS");
}

TEST(Features, UnknownNamesAreReportedWithTheValidOnes)
{
    FeatureSet f;
    EXPECT_THAT(f.apply("NO_SIS_PROP"),
                HasSubstr("unknown scheduler feature 'SIS_PROP'; expected one of PLACE_LAG, PLACE_DEADLINE_INITIAL"));
    EXPECT_EQ(f, FeatureSet());
}

}  // namespace
}  // namespace wb

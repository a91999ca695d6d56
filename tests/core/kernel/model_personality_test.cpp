// SPDX-License-Identifier: Apache-2.0
#include "kernel/model_personality.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace wb {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// The features line of Debian's 6.12.118 under QEMU, as its debugfs prints it.
const char* const k612 =
    "PLACE_LAG PLACE_DEADLINE_INITIAL PLACE_REL_DEADLINE RUN_TO_PARITY PREEMPT_SHORT NO_NEXT_BUDDY PICK_BUDDY "
    "CACHE_HOT_BUDDY DELAY_DEQUEUE DELAY_ZERO WAKEUP_PREEMPTION NO_HRTICK NO_HRTICK_DL NO_DOUBLE_TICK "
    "NONTASK_CAPACITY TTWU_QUEUE SIS_UTIL NO_WARN_DOUBLE_CLOCK NO_RT_PUSH_IPI NO_RT_RUNTIME_SHARE NO_LB_MIN "
    "ATTACH_AGE_LOAD WA_IDLE WA_WEIGHT WA_BIAS UTIL_EST NO_LATENCY_WARN NI_RANDOM";

// Debian's 6.1.192 (kernel/sched/features.h of linux-source-6.1).
const char* const k61 =
    "GENTLE_FAIR_SLEEPERS START_DEBIT NO_NEXT_BUDDY LAST_BUDDY CACHE_HOT_BUDDY WAKEUP_PREEMPTION NO_HRTICK "
    "NO_HRTICK_DL NO_DOUBLE_TICK NONTASK_CAPACITY TTWU_QUEUE NO_SIS_PROP SIS_UTIL NO_WARN_DOUBLE_CLOCK "
    "RT_PUSH_IPI NO_RT_RUNTIME_SHARE NO_LB_MIN ATTACH_AGE_LOAD WA_IDLE WA_WEIGHT WA_BIAS UTIL_EST UTIL_EST_FASTUP "
    "NO_LATENCY_WARN NI_RANDOM ALT_PERIOD BASE_SLICE";

TEST(ModelPersonality, Debian612DiffersOnlyByNiRate)
{
    const ModelPersonality p = model_personality(k612, "6.12.118+deb12-amd64");
    EXPECT_FALSE(p.cfs);
    EXPECT_THAT(p.absent, ElementsAre("NO_NI_RATE"));
    EXPECT_TRUE(p.as_kernel.empty());
    EXPECT_EQ(p.features.changes(), "NO_NI_RATE");
    ASSERT_EQ(p.notes.size(), 1u);
    EXPECT_THAT(p.notes[0], HasSubstr("6.12"));
}

TEST(ModelPersonality, Debian61IsCfsWithTheEevdfFeaturesOff)
{
    const ModelPersonality p = model_personality(k61, "6.1.0-57-amd64");
    EXPECT_TRUE(p.cfs);
    EXPECT_THAT(p.absent,
                ElementsAre("NO_PLACE_LAG", "NO_PLACE_DEADLINE_INITIAL", "NO_PLACE_REL_DEADLINE", "NO_RUN_TO_PARITY",
                            "NO_PREEMPT_SHORT", "NO_PICK_BUDDY", "NO_DELAY_DEQUEUE", "NO_DELAY_ZERO", "NO_NI_RATE"));
    EXPECT_FALSE(p.features(Feat::DELAY_DEQUEUE));
    EXPECT_FALSE(p.features(Feat::PLACE_LAG));
    EXPECT_FALSE(p.features(Feat::RUN_TO_PARITY));
    EXPECT_FALSE(p.features(Feat::NI_RATE));
    EXPECT_TRUE(p.features(Feat::NI_RANDOM));
    EXPECT_TRUE(p.features(Feat::SIS_UTIL));
    EXPECT_THAT(p.notes.front(), HasSubstr("CFS, not EEVDF"));
    EXPECT_THAT(p.notes.back(), HasSubstr("6.1:"));
}

TEST(ModelPersonality, AFeatureTheUserTurnedOffInTheGuestIsOffInTheModel)
{
    std::string line = k612;
    line.replace(line.find("DELAY_DEQUEUE"), 13, "NO_DELAY_DEQUEUE");
    const ModelPersonality p = model_personality(line, "6.12.118+deb12-amd64");
    EXPECT_FALSE(p.features(Feat::DELAY_DEQUEUE));
    EXPECT_THAT(p.as_kernel, ElementsAre("NO_DELAY_DEQUEUE"));
}

TEST(ModelPersonality, AnUnknownKernelIsSaidToBeUnread)
{
    const ModelPersonality p = model_personality(k612, "6.19.0-custom");
    EXPECT_THAT(p.notes.back(), HasSubstr("were not compared"));
}

}  // namespace
}  // namespace wb

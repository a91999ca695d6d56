// SPDX-License-Identifier: Apache-2.0
#include "policies/prev_cpu_hot_v2.h"

#include <gtest/gtest.h>

#include "sched/fair_util.h"

#include "prev_cpu_hot_world.h"

namespace wb::test {
namespace {

TEST(PrevCpuHotV2, NothingChangesWithoutEas)
{
    HotWorld x;
    DecisionRecord rec;
    EXPECT_EQ(x.w.wake_under("baseline", 0, x.p, WF_TTWU), 8);
    EXPECT_EQ(x.w.wake_under("prev-cpu-hot-v2", 0, x.p, WF_TTWU, &rec), 8);
    EXPECT_TRUE(policy_steps(rec).empty());
    // Consulted at the top of select_idle_sibling(), it says why it declined.
    const std::vector<DecisionStep> declined = declined_steps(rec);
    ASSERT_EQ(declined.size(), 1u);
    EXPECT_EQ(declined[0].function, "prev-cpu-hot-v2");
    EXPECT_EQ(declined[0].branch, "not taken");
    EXPECT_EQ(declined[0].detail, "EAS off: sched_energy_enabled() is false");
    EXPECT_EQ(declined[0].result, kNoCpu);
}

TEST(PrevCpuHotV2, AnOverutilizedPrevIsNamedWithItsUtil)
{
    HotWorld x;
    x.w.s.eas_enabled = true;
    x.w.s.rq(9).cfs.avg.util_avg = 1000;
    DecisionRecord rec;
    EXPECT_EQ(x.w.wake_under("prev-cpu-hot-v2", 0, x.p, WF_TTWU, &rec), x.w.wake_under("baseline", 0, x.p, WF_TTWU));
    const std::vector<DecisionStep> declined = declined_steps(rec);
    ASSERT_EQ(declined.size(), 1u);
    EXPECT_EQ(declined[0].detail, "cpu_overutilized(prev 9): util " + std::to_string(cpu_util_cfs(x.w.s, 9)) +
                                      " does not fit capacity " + std::to_string(capacity_of(x.w.s, 9)));
}

TEST(PrevCpuHotV2, WithEasAPrevWithRoomIsKept)
{
    HotWorld x;
    x.w.s.eas_enabled = true;
    x.w.s.rq(9).cfs.avg.util_avg = 300;
    EXPECT_EQ(x.w.wake_under("baseline", 0, x.p, WF_TTWU), 8);
    DecisionRecord rec;
    WakePath path = WakePath::Count;
    EXPECT_EQ(x.w.wake_under("prev-cpu-hot-v2", 0, x.p, WF_TTWU, &rec, &path), 9);
    EXPECT_EQ(path, WakePath::Policy);
    // The check is the first thing select_idle_sibling() does now.
    const DecisionStep& last = rec.steps.back();
    EXPECT_EQ(last.function, "prev-cpu-hot-v2");
    EXPECT_EQ(last.detail, "EAS enabled; prev 9 util 300 fits capacity 1024");
    EXPECT_EQ(last.result, 9);
    EXPECT_FALSE(has_step(rec, "select_idle_sibling"));

    // Overutilized prev: mainline's search.
    x.w.s.rq(9).cfs.avg.util_avg = 1000;
    EXPECT_EQ(x.w.wake_under("prev-cpu-hot-v2", 0, x.p, WF_TTWU), 8);
}

TEST(PrevCpuHotV2, EasCheckSwitch)
{
    HotWorld x;
    EXPECT_EQ(x.w.wake_under("prev-cpu-hot-v2:eas_check=off", 0, x.p, WF_TTWU), 9);
}

TEST(PrevCpuHotV2, OverutilizedSwitch)
{
    HotWorld x;
    x.w.s.eas_enabled = true;
    x.w.s.rq(9).cfs.avg.util_avg = 1000;
    EXPECT_EQ(x.w.wake_under("prev-cpu-hot-v2", 0, x.p, WF_TTWU), 8);
    EXPECT_EQ(x.w.wake_under("prev-cpu-hot-v2:overutilized=off", 0, x.p, WF_TTWU), 9);
}

}  // namespace
}  // namespace wb::test

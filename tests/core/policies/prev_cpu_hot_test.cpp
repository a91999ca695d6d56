// SPDX-License-Identifier: Apache-2.0
#include "policies/prev_cpu_hot.h"

#include <gtest/gtest.h>

#include "prev_cpu_hot_world.h"

namespace wb::test {
namespace {

TEST(PrevCpuHot, WithoutEasEveryWakeupGoesToPrev)
{
    HotWorld x;
    WakePath path = WakePath::Count;
    EXPECT_EQ(x.w.wake_under("baseline", 0, x.p, WF_TTWU, nullptr, &path), 8);
    EXPECT_EQ(path, WakePath::SmtSibling);

    // prev is busy, and cpu_overutilized() says false all the same.
    DecisionRecord rec;
    EXPECT_EQ(x.w.wake_under("prev-cpu-hot", 0, x.p, WF_TTWU, &rec, &path), 9);
    EXPECT_EQ(path, WakePath::Policy);
    const std::vector<DecisionStep> steps = policy_steps(rec);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].function, "prev-cpu-hot");
    EXPECT_EQ(steps[0].branch, "prev not overutilized");
    EXPECT_EQ(steps[0].detail, "EAS off: cpu_overutilized(prev 9) is false");
    EXPECT_EQ(steps[0].result, 9);
    EXPECT_FALSE(has_step(rec, "select_idle_sibling"));
}

TEST(PrevCpuHot, ForkIsUnchanged)
{
    HotWorld x;
    DecisionRecord rec;
    EXPECT_EQ(x.w.wake_under("prev-cpu-hot", 0, x.p, WF_FORK, &rec), x.w.wake_under("baseline", 0, x.p, WF_FORK));
    EXPECT_TRUE(policy_steps(rec).empty());
}

TEST(PrevCpuHot, WithEasAnOverutilizedPrevIsLeft)
{
    HotWorld x;
    x.w.s.eas_enabled = true;
    x.w.s.rq(9).cfs.avg.util_avg = 1000;  // 1000 does not fit 1024 with the 20 % margin
    DecisionRecord rec;
    EXPECT_EQ(x.w.wake_under("baseline", 0, x.p, WF_TTWU), 8);
    EXPECT_EQ(x.w.wake_under("prev-cpu-hot", 0, x.p, WF_TTWU, &rec), 8);
    EXPECT_TRUE(policy_steps(rec).empty());

    // Judged without the wakee: a prev at util 700 has room, even for a big p.
    x.w.s.rq(9).cfs.avg.util_avg = 700;
    x.w.s.task(x.p).se.avg.util_avg = 900;
    DecisionRecord rec2;
    EXPECT_EQ(x.w.wake_under("prev-cpu-hot", 0, x.p, WF_TTWU, &rec2), 9);
    EXPECT_EQ(policy_steps(rec2).at(0).detail, "prev 9 util 700 fits capacity 1024");
}

TEST(PrevCpuHot, OverutilizedSwitch)
{
    HotWorld x;
    x.w.s.eas_enabled = true;
    x.w.s.rq(9).cfs.avg.util_avg = 1000;
    EXPECT_EQ(x.w.wake_under("prev-cpu-hot:overutilized=off", 0, x.p, WF_TTWU), 9);
}

}  // namespace
}  // namespace wb::test

// SPDX-License-Identifier: Apache-2.0
#include "policies/asym_stable_core.h"

#include <gtest/gtest.h>

#include "policy_world.h"

namespace wb::test {
namespace {

// Thread-major SMT-2, asymmetric: cores {0,4} {1,5} at 446, {2,6} {3,7} at
// 1024; everything idle. p last ran on 5 (a little CPU) and is too big for it.
struct AsymWorld {
    World w{"core=4,smt=2,numbering=thread-major,capacity=446x2/1024x2"};
    TaskId p = kNoTask;
    explicit AsymWorld(unsigned long util)
    {
        p = w.add_task(5);
        w.s.task(p).se.avg.util_avg = util;
    }
    CpuId sis(std::string_view spec, CpuId target = 5, DecisionRecord* rec = nullptr, WakePath* path = nullptr)
    {
        return w.sis_under(spec, irq_on(target), p, target, target, false, rec, path);
    }
};

TEST(AsymStableCore, FitsReturnTakesTheCoresFirstCpu)
{
    AsymWorld x(600);
    x.w.set_idle_cores_hint(5, true);
    WakePath path = WakePath::Count;
    // Scanning from 5, mainline meets thread 1 (6) of idle big core {2,6} first.
    EXPECT_EQ(x.sis("baseline", 5, nullptr, &path), 6);
    EXPECT_EQ(path, WakePath::AsymCapacity);

    DecisionRecord rec;
    EXPECT_EQ(x.sis("asym-stable-core", 5, &rec, &path), 2);
    EXPECT_EQ(path, WakePath::Policy);
    const std::vector<DecisionStep> steps = policy_steps(rec);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].function, "asym-stable-core");
    EXPECT_EQ(steps[0].branch, "first cpu of the idle core");
    EXPECT_EQ(steps[0].result, 2);
}

TEST(AsymStableCore, BestCandidateReturnTakesTheCoresFirstCpu)
{
    AsymWorld x(1000);  // fits nowhere: the best misfit is the big 6
    x.w.set_idle_cores_hint(5, true);
    EXPECT_EQ(x.sis("baseline"), 6);
    EXPECT_EQ(x.sis("asym-stable-core"), 2);
    EXPECT_EQ(x.sis("asym-stable-core:best_return=off"), 6);
    EXPECT_EQ(x.sis("asym-stable-core:first_return=off"), 2);
}

TEST(AsymStableCore, FirstReturnSwitch)
{
    AsymWorld x(600);
    x.w.set_idle_cores_hint(5, true);
    EXPECT_EQ(x.sis("asym-stable-core:first_return=off"), 6);
    EXPECT_EQ(x.sis("asym-stable-core:best_return=off"), 2);
}

TEST(AsymStableCore, IdleCoreHintSwitchIsTheReviewRefinement)
{
    // No idle core advertised: with the refinement nothing changes; the
    // first posting (is_core_idle per CPU) still moved the wakee.
    AsymWorld x(600);
    EXPECT_EQ(x.sis("baseline"), 6);
    DecisionRecord rec;
    EXPECT_EQ(x.sis("asym-stable-core", 5, &rec), 6);
    EXPECT_TRUE(policy_steps(rec).empty());
    EXPECT_EQ(x.sis("asym-stable-core:idle_core_hint=off"), 2);
}

TEST(AsymStableCore, UnchangedWhereTheCoresFirstCpuWasChosen)
{
    AsymWorld x(600);
    x.w.set_idle_cores_hint(5, true);
    // From 1 the scan reaches 2, the core's first CPU, itself.
    DecisionRecord rec;
    EXPECT_EQ(x.sis("baseline", 1), 2);
    EXPECT_EQ(x.sis("asym-stable-core", 1, &rec), 2);
    EXPECT_TRUE(policy_steps(rec).empty());
}

TEST(AsymStableCore, ABusyCoreIsPassedOver)
{
    // 2 busy: 6 is a thread of a busy core and not preferred; the scan
    // returns 7 of the idle core {3,7}, which the patch turns into 3.
    AsymWorld x(600);
    x.w.set_idle_cores_hint(5, true);
    x.w.run_on(2);
    EXPECT_EQ(x.sis("baseline", 5), 7);
    EXPECT_EQ(x.sis("asym-stable-core", 5), 3);
}

TEST(AsymStableCore, SymmetricMachinesNeverReachIt)
{
    World w("core=4,smt=2,numbering=thread-major");
    w.run_on_all_but({5, 1, 6, 2});
    const TaskId p = w.add_task(4);
    w.set_idle_cores_hint(4, true);
    DecisionRecord rec;
    EXPECT_EQ(w.sis_under("asym-stable-core", irq_on(4), p, 4, 4, false, &rec),
              w.sis_under("baseline", irq_on(4), p, 4, 4, false));
    EXPECT_TRUE(policy_steps(rec).empty());
}

}  // namespace
}  // namespace wb::test

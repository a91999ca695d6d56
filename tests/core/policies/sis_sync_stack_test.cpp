// SPDX-License-Identifier: Apache-2.0
#include "policies/sis_sync_stack.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>

#include "io/topology_json.h"
#include "policies/registry.h"

#include "policy_world.h"

namespace wb::test {
namespace {

constexpr unsigned int kSyncWakeup = WF_TTWU | WF_SYNC;

// SMT-2, two LLCs of 8. The waker runs alone on 0; its partner's prev 2 and
// prev's sibling 3 are busy; 1 and 4-7 are idle; no idle core advertised.
struct StackWorld {
    World w{"llc=2,core=4,smt=2"};
    Pair pair;
    StackWorld()
    {
        pair = reciprocal_pair(w, 0, 2);
        w.run_on(2);
        w.run_on(3);
    }
};

TEST(SisSyncStack, StacksTheSyncPairWhenNoIdleCoreIsAdvertised)
{
    StackWorld x;
    DecisionRecord base;
    EXPECT_EQ(x.w.wake_under("baseline", 0, x.pair.wakee, kSyncWakeup, &base), 1);
    EXPECT_EQ(base.path, WakePath::LlcScan);

    DecisionRecord rec;
    WakePath path = WakePath::Count;
    EXPECT_EQ(x.w.wake_under("sis-sync-stack", 0, x.pair.wakee, kSyncWakeup, &rec, &path), 0);
    EXPECT_EQ(path, WakePath::Policy);
    const std::vector<DecisionStep> steps = policy_steps(rec);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].function, "sis-sync-stack");
    EXPECT_EQ(steps[0].branch, "stack sync pair on target");
    EXPECT_EQ(steps[0].result, 0);
    EXPECT_NE(steps[0].detail.find("no idle core"), std::string::npos) << steps[0].detail;
    // The stacking comes after recent_used_cpu, before any LLC scan.
    EXPECT_FALSE(has_step(rec, "select_idle_cpu"));
    EXPECT_TRUE(has_step(rec, "select_idle_sibling"));
}

TEST(SisSyncStack, AnIdleCoreStillWins)
{
    StackWorld x;
    x.w.set_idle_cores_hint(0, true);  // core {4,5} is idle
    const CpuId base = x.w.wake_under("baseline", 0, x.pair.wakee, kSyncWakeup);
    EXPECT_EQ(base, 4);
    DecisionRecord rec;
    EXPECT_EQ(x.w.wake_under("sis-sync-stack", 0, x.pair.wakee, kSyncWakeup, &rec), base);
    EXPECT_TRUE(policy_steps(rec).empty());
    const std::vector<DecisionStep> declined = declined_steps(rec);
    ASSERT_EQ(declined.size(), 1u);
    EXPECT_EQ(declined[0].branch, "not taken");
    EXPECT_EQ(declined[0].detail, "idle core advertised (has_idle_cores)");
    EXPECT_EQ(x.w.wake_under("sis-sync-stack:no_idle_core=off", 0, x.pair.wakee, kSyncWakeup), 0);
}

TEST(SisSyncStack, ADeclineAfterTheSiblingScanSaysBoth)
{
    // Not sync: prev's sibling 3 is busy, and the stacking needs WF_SYNC.
    StackWorld x;
    DecisionRecord rec;
    EXPECT_EQ(x.w.wake_under("sis-sync-stack", 0, x.pair.wakee, WF_TTWU, &rec),
              x.w.wake_under("baseline", 0, x.pair.wakee, WF_TTWU));
    const std::vector<DecisionStep> declined = declined_steps(rec);
    ASSERT_EQ(declined.size(), 1u);
    EXPECT_EQ(declined[0].detail, "no idle SMT sibling of prev 2; not WF_SYNC");
}

TEST(SisSyncStack, StackSwitch)
{
    StackWorld x;
    EXPECT_EQ(x.w.wake_under("sis-sync-stack:stack=off", 0, x.pair.wakee, kSyncWakeup), 1);
}

// The stacking conditions, on select_idle_sibling(p, prev 2, target 0) itself.
TEST(SisSyncStack, SyncSwitch)
{
    StackWorld x;
    const WakerContext waker = x.w.waker_on(0);
    EXPECT_EQ(x.w.sis_under("baseline", waker, x.pair.wakee, 2, 0, false), 1);
    EXPECT_EQ(x.w.sis_under("sis-sync-stack", waker, x.pair.wakee, 2, 0, false), 1);
    EXPECT_EQ(x.w.sis_under("sis-sync-stack:sync=off", waker, x.pair.wakee, 2, 0, false), 0);
}

TEST(SisSyncStack, TaskContextSwitch)
{
    StackWorld x;
    const WakerContext from_irq{0, x.pair.waker, false};
    EXPECT_EQ(x.w.sis_under("baseline", from_irq, x.pair.wakee, 2, 0, true), 1);
    EXPECT_EQ(x.w.sis_under("sis-sync-stack", from_irq, x.pair.wakee, 2, 0, true), 1);
    EXPECT_EQ(x.w.sis_under("sis-sync-stack:task_context=off", from_irq, x.pair.wakee, 2, 0, true), 0);
}

TEST(SisSyncStack, WakerTargetSwitch)
{
    StackWorld x;
    const WakerContext waker = x.w.waker_on(0);
    // target = prev 2 (busy, one task): mainline scans on from 3 and finds 4.
    EXPECT_EQ(x.w.sis_under("baseline", waker, x.pair.wakee, 2, 2, true), 4);
    EXPECT_EQ(x.w.sis_under("sis-sync-stack", waker, x.pair.wakee, 2, 2, true), 4);
    EXPECT_EQ(x.w.sis_under("sis-sync-stack:waker_target=off", waker, x.pair.wakee, 2, 2, true), 2);
}

TEST(SisSyncStack, ReciprocalSwitch)
{
    StackWorld x;
    x.w.s.task(x.pair.wakee).last_wakee = kNoTask;
    const WakerContext waker = x.w.waker_on(0);
    EXPECT_EQ(x.w.sis_under("sis-sync-stack", waker, x.pair.wakee, 2, 0, true), 1);
    EXPECT_EQ(x.w.sis_under("sis-sync-stack:reciprocal=off", waker, x.pair.wakee, 2, 0, true), 0);
}

TEST(SisSyncStack, AloneSwitch)
{
    StackWorld x;
    x.w.queue_on(0);
    const WakerContext waker = x.w.waker_on(0);
    EXPECT_EQ(x.w.sis_under("sis-sync-stack", waker, x.pair.wakee, 2, 0, true), 1);
    EXPECT_EQ(x.w.sis_under("sis-sync-stack:alone=off", waker, x.pair.wakee, 2, 0, true), 0);
}

TEST(SisSyncStack, FitsSwitchForStacking)
{
    // No SMT, asymmetric: little 0-3, big 4-7. p too big for the little waker CPU.
    World w("cluster=2,core=4,capacity=446x4/1024x4");
    const Pair pair = reciprocal_pair(w, 0, 1);
    w.run_on(1);
    w.s.task(pair.wakee).se.avg.util_avg = 400;
    const WakerContext waker = w.waker_on(0);
    EXPECT_EQ(w.sis_under("baseline", waker, pair.wakee, 1, 0, true), 4);
    EXPECT_EQ(w.sis_under("sis-sync-stack", waker, pair.wakee, 1, 0, true), 4);
    EXPECT_EQ(w.sis_under("sis-sync-stack:fits=off", waker, pair.wakee, 1, 0, true), 0);
    // Only stack_fits governs this step; scan_fits leaves it alone.
    EXPECT_EQ(w.sis_under("sis-sync-stack:stack_fits=off", waker, pair.wakee, 1, 0, true), 0);
    EXPECT_EQ(w.sis_under("sis-sync-stack:scan_fits=off", waker, pair.wakee, 1, 0, true), 4);
}

// Asymmetric SMT-2: cores {0,1} {2,3} at 800, {4,5} {6,7} at 1024. The waker
// runs on 6; p's prev 3 is busy, its sibling 2 idle; 4 and 5 idle.
struct AsymSmtWorld {
    World w{"core=4,smt=2,capacity=800x2/1024x2"};
    TaskId p = kNoTask;
    AsymSmtWorld()
    {
        w.run_on_all_but({2, 4, 5});
        p = w.add_task(3);
        w.s.task(p).se.avg.util_avg = 100;
    }
};

TEST(SisSyncStack, PrevSiblingNowBeatsTheCapacityScan)
{
    AsymSmtWorld x;
    WakePath path = WakePath::Count;
    EXPECT_EQ(x.w.sis_under("baseline", x.w.waker_on(6), x.p, 3, 3, false, nullptr, &path), 4);
    EXPECT_EQ(path, WakePath::AsymCapacity);

    DecisionRecord rec;
    EXPECT_EQ(x.w.sis_under("sis-sync-stack", x.w.waker_on(6), x.p, 3, 3, false, &rec, &path), 2);
    EXPECT_EQ(path, WakePath::Policy);
    const std::vector<DecisionStep> steps = policy_steps(rec);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].branch, "idle sibling of prev");
    EXPECT_EQ(steps[0].result, 2);
    EXPECT_FALSE(has_step(rec, "select_idle_capacity"));
}

TEST(SisSyncStack, SmtScanSwitch)
{
    AsymSmtWorld x;
    EXPECT_EQ(x.w.sis_under("sis-sync-stack:smt_scan=off", x.w.waker_on(6), x.p, 3, 3, false), 4);
}

TEST(SisSyncStack, FitsSwitchForTheSiblingScan)
{
    AsymSmtWorld x;
    x.w.s.task(x.p).se.avg.util_avg = 700;  // fits 1024, not 800
    EXPECT_EQ(x.w.sis_under("baseline", x.w.waker_on(6), x.p, 3, 3, false), 4);
    EXPECT_EQ(x.w.sis_under("sis-sync-stack", x.w.waker_on(6), x.p, 3, 3, false), 4);
    EXPECT_EQ(x.w.sis_under("sis-sync-stack:fits=off", x.w.waker_on(6), x.p, 3, 3, false), 2);
    // Only scan_fits governs the scan; stack_fits leaves it alone.
    EXPECT_EQ(x.w.sis_under("sis-sync-stack:scan_fits=off", x.w.waker_on(6), x.p, 3, 3, false), 2);
    EXPECT_EQ(x.w.sis_under("sis-sync-stack:stack_fits=off", x.w.waker_on(6), x.p, 3, 3, false), 4);
}

TEST(SisSyncStack, FitsOffSetsBothFitSwitches)
{
    const std::unique_ptr<PlacementPolicy> both = make_policy("sis-sync-stack:fits=off");
    EXPECT_FALSE(both->switch_on("scan_fits"));
    EXPECT_FALSE(both->switch_on("stack_fits"));
    EXPECT_FALSE(both->switch_on("fits"));
    // fits=off wins over an explicit scan_fits=on, and the spec says so.
    const std::unique_ptr<PlacementPolicy> mixed = make_policy("sis-sync-stack:scan_fits=on,fits=off");
    EXPECT_FALSE(mixed->switch_on("scan_fits"));
    EXPECT_FALSE(mixed->switch_on("stack_fits"));
    EXPECT_EQ(make_policy(mixed->spec())->spec(), mixed->spec());
    const std::unique_ptr<PlacementPolicy> dflt = make_policy("sis-sync-stack");
    EXPECT_TRUE(dflt->switch_on("scan_fits"));
    EXPECT_TRUE(dflt->switch_on("stack_fits"));
    const std::unique_ptr<PlacementPolicy> one = make_policy("sis-sync-stack:stack_fits=off");
    EXPECT_TRUE(one->switch_on("scan_fits"));
    EXPECT_FALSE(one->switch_on("stack_fits"));
    EXPECT_EQ(one->spec(), "sis-sync-stack:stack_fits=off");
}

// nvidia-vera: asymmetric capacity with SMT-2, siblings numbered adjacently
// (core k is CPUs 2k and 2k+1; CPUs 0-5 are 1024-capacity cores). The
// waker runs alone on 0 and its partner p (util 100, fits 1024) last ran on
// 2; 2 and 3 are busy, so prev's sibling scan finds nothing, and no idle
// core is advertised. The diff's asym_fits_cpu(target) also asks that
// target's core be idle: with the waker's sibling 1 busy it is not, so
// the patch does not stack, though task_fits_cpu(p, 0) holds.
struct VeraWorld {
    World w{load_machine_file((std::filesystem::path(WB_SOURCE_DIR) / "topologies" / "nvidia-vera.json").string())};
    Pair pair;
    VeraWorld()
    {
        pair = reciprocal_pair(w, 0, 2);
        w.run_on(2);
        w.run_on(3);
        w.s.task(pair.wakee).se.avg.util_avg = 100;
        w.set_idle_cores_hint(0, false);
    }
};

TEST(SisSyncStack, VeraStacksOnlyWhereAsymFitsCpuHolds)
{
    VeraWorld x;
    ASSERT_TRUE(x.w.d.sched_asym_cpucapacity());
    ASSERT_TRUE(x.w.d.sched_smt_active());
    const WakerContext waker = x.w.waker_on(0);

    // Waker's sibling 1 idle: target 0's core counts as idle (is_core_idle()
    // looks at the other threads), p fits: both tests agree, the pair stacks.
    ASSERT_TRUE(task_fits_cpu(x.w.s, x.pair.wakee, 0));
    ASSERT_TRUE(asym_fits_cpu(x.w.s, 100, 0, 1024, 0));
    DecisionRecord stacked;
    EXPECT_EQ(x.w.sis_under("sis-sync-stack", waker, x.pair.wakee, 2, 0, true, &stacked), 0);
    const std::vector<DecisionStep> steps = policy_steps(stacked);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].branch, "stack sync pair on target");
    EXPECT_NE(steps[0].detail.find("asym_fits_cpu(target)"), std::string::npos) << steps[0].detail;

    // Waker's sibling 1 busy: task_fits_cpu(p, 0) still holds but
    // asym_fits_cpu does not; the patch goes on to the capacity scan, as
    // baseline does.
    x.w.run_on(1);
    ASSERT_TRUE(task_fits_cpu(x.w.s, x.pair.wakee, 0));
    ASSERT_FALSE(asym_fits_cpu(x.w.s, 100, 0, 1024, 0));
    const CpuId base = x.w.sis_under("baseline", waker, x.pair.wakee, 2, 0, true);
    ASSERT_NE(base, 0);
    DecisionRecord rec;
    WakePath path = WakePath::Count;
    EXPECT_EQ(x.w.sis_under("sis-sync-stack", waker, x.pair.wakee, 2, 0, true, &rec, &path), base);
    EXPECT_EQ(path, WakePath::AsymCapacity);
    EXPECT_TRUE(policy_steps(rec).empty());
    const std::vector<DecisionStep> declined = declined_steps(rec);
    ASSERT_EQ(declined.size(), 1u);
    EXPECT_NE(declined[0].detail.find("core is not idle"), std::string::npos) << declined[0].detail;

    // Without the fit test (stack_fits=off, or the older fits=off) the pair
    // stacks on the waker's busy core, which the model did before.
    EXPECT_EQ(x.w.sis_under("sis-sync-stack:stack_fits=off", waker, x.pair.wakee, 2, 0, true), 0);
    EXPECT_EQ(x.w.sis_under("sis-sync-stack:fits=off", waker, x.pair.wakee, 2, 0, true), 0);
    EXPECT_EQ(x.w.sis_under("sis-sync-stack:scan_fits=off", waker, x.pair.wakee, 2, 0, true), base);
}

TEST(SisSyncStack, SymmetricSiblingScanFindsWhatMainlineFinds)
{
    // Without asymmetry the moved scan finds the same sibling as mainline's
    // block did; only the step that returned it is the policy's.
    World w("llc=2,core=4,smt=2");
    w.run_on_all_but({3, 9});
    const TaskId p = w.add_task(2);
    WakePath path = WakePath::Count;
    EXPECT_EQ(w.sis_under("baseline", irq_on(0), p, 2, 0, false, nullptr, &path), 3);
    EXPECT_EQ(path, WakePath::SmtSibling);
    EXPECT_EQ(w.sis_under("sis-sync-stack", irq_on(0), p, 2, 0, false, nullptr, &path), 3);
    EXPECT_EQ(path, WakePath::Policy);
    EXPECT_EQ(w.sis_under("sis-sync-stack:smt_scan=off", irq_on(0), p, 2, 0, false, nullptr, &path), 3);
    EXPECT_EQ(path, WakePath::SmtSibling);
}

}  // namespace
}  // namespace wb::test

// SPDX-License-Identifier: Apache-2.0
#include "plugin/plugin_policy.h"

#include <gtest/gtest.h>

#include "engine/batch.h"
#include "io/topology_library.h"
#include "plugin/plugin_loader.h"
#include "plugin/policy_error.h"
#include "topology/synthetic.h"

namespace wb {
namespace {

std::string run_error(const Machine& m, const std::string& workload, const std::string& policy)
{
    try {
        run_one(m, {workload, policy, FeatureSet(), 1});
    } catch (const PolicyError& e) {
        return e.what();
    }
    return "";
}

// sync-waker-v3 rewritten on the public headers alone decides as the shipped
// one on a machine where it acts (no SMT) and one where it declines (SMT).
TEST(PluginPolicy, TheShippedSyncWakerBuiltAsAPluginDecidesTheSame)
{
    load_plugin(WB_PLUGIN_SYNC_WAKER_SDK);
    for (const char* machine : {"llc=1,core=8", "llc=2,core=4,smt=2"}) {
        const Machine m = parse_synthetic(machine);
        for (const char* workload : {"pipe:loops=2000", "hackbench:groups=2,loops=40"}) {
            const RunOutcome shipped = run_one(m, {workload, "sync-waker-v3", FeatureSet(), 3});
            const RunOutcome plugin = run_one(m, {workload, "sync-waker-v3-sdk", FeatureSet(), 3});
            EXPECT_EQ(shipped.elapsed, plugin.elapsed) << machine << " " << workload;
            EXPECT_EQ(shipped.metrics.wakeups, plugin.metrics.wakeups) << machine << " " << workload;
            EXPECT_EQ(shipped.metrics.wakeups_by_path, plugin.metrics.wakeups_by_path) << machine << " " << workload;
            EXPECT_EQ(shipped.metrics.migrations, plugin.metrics.migrations) << machine << " " << workload;
        }
    }
}

// The example keeps wakees on their idle prev: against baseline, on pipe
// on the Altra (one LLC of 80 CPUs, 2-CPU clusters), fewer wakeups go
// anywhere but prev.
TEST(PluginPolicy, TheExamplePolicyActsThroughItsHook)
{
    load_plugin(WB_PLUGIN_EXAMPLE);
    const Machine m = parse_synthetic("llc=1,core=8");
    const RunOutcome base = run_one(m, {"hackbench:groups=1,loops=50", "baseline", FeatureSet(), 1});
    const RunOutcome example = run_one(m, {"hackbench:groups=1,loops=50", "prefer-idle-prev-llc", FeatureSet(), 1});
    const auto policy_path = static_cast<std::size_t>(WakePath::Policy);
    EXPECT_EQ(base.metrics.wakeups_by_path[policy_path], 0U);
    EXPECT_GT(example.metrics.wakeups_by_path[policy_path], 0U);
}

TEST(PluginPolicy, AThrowingHookStopsTheRunNamingPolicyHookAndWakeup)
{
    load_plugin(WB_PLUGIN_MISBEHAVING);
    const std::string error = run_error(parse_synthetic("core=4"), "pipe:loops=50", "throws-in-hook");
    EXPECT_NE(error.find("policy 'throws-in-hook', hook before_select_idle_sibling, wakeup of task "), std::string::npos)
        << error;
    EXPECT_NE(error.find(": threw: my idea is not finished"), std::string::npos) << error;
}

TEST(PluginPolicy, ACpuOutsideTheMachineOrTheAffinityStopsTheRun)
{
    load_plugin(WB_PLUGIN_MISBEHAVING);
    const std::string outside = run_error(parse_synthetic("core=4"), "pipe:loops=50", "returns-cpu-outside");
    EXPECT_NE(outside.find("hook before_select_idle_sibling"), std::string::npos) << outside;
    EXPECT_NE(outside.find("returned cpu 4, outside the machine's CPUs 0-3"), std::string::npos) << outside;
    const std::string disallowed =
        run_error(parse_synthetic("core=4"), "pipe:loops=50,cpus=0-1", "returns-disallowed-cpu");
    EXPECT_NE(disallowed.find("policy 'returns-disallowed-cpu', hook before_wake_affine"), std::string::npos)
        << disallowed;
    EXPECT_NE(disallowed.find("returned cpu 2, outside task "), std::string::npos) << disallowed;
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "session/scenario_session.h"

#include <gtest/gtest.h>

#include "engine/simulator.h"
#include "io/input_error.h"
#include "plugin/plugin_loader.h"
#include "policies/registry.h"
#include "session/breakpoint.h"
#include "session/lockstep_run.h"

namespace wb {
namespace {

Scenario altra_scenario()
{
    Scenario s;
    s.name = "t";
    s.machine = "ampere-altra-80";
    s.cases = {{"default", "pipe:loops=100"}, {"two", "pipe:loops=100,cpus=78-79"}};
    s.policies = {"baseline", "sync-waker-v3:smt_check=off"};
    s.features = "NO_WA_BIAS";
    s.seed = 7;
    s.runs = 3;
    return s;
}

TEST(ScenarioSession, SetupTakesTheCaseSeedAndFeatures)
{
    const SessionSetup setup = make_session_setup(altra_scenario(), "/tmp/x.json", 1);
    EXPECT_EQ(setup.machine.nr_cpus(), 80);
    EXPECT_EQ(setup.case_label, "two");
    EXPECT_EQ(setup.base.workload, "pipe:loops=100,cpus=78-79");
    EXPECT_EQ(setup.base.seed, 7u);
    EXPECT_EQ(setup.base.features.changes(), "NO_WA_BIAS");
    ASSERT_EQ(setup.policies.size(), 2u);
    EXPECT_EQ(wakesim_run_command(setup, setup.policies[1]),
              "wakesim run --topology ampere-altra-80 --features NO_WA_BIAS --seed 7 --workload "
              "pipe:loops=100,cpus=78-79 --policy sync-waker-v3:smt_check=off");
    EXPECT_EQ(wakesim_compare_command(setup, 3),
              "wakesim compare --topology ampere-altra-80 --features NO_WA_BIAS --seed 7 --workload "
              "two=pipe:loops=100,cpus=78-79 --policies baseline,sync-waker-v3:smt_check=off --runs 3");
}

// A plugin's policy is run by a command that loads the plugin first, and
// only the commands that name one of its policies load it.
TEST(ScenarioSession, CommandsLoadThePluginsTheirPoliciesComeFrom)
{
    const std::string plugin = load_plugin(WB_PLUGIN_EXAMPLE).path;
    Scenario s = altra_scenario();
    s.features.clear();
    s.policies = {"baseline", "sis-sync-stack+prefer-idle-prev-llc:sync=off"};
    const SessionSetup setup = make_session_setup(s, "/tmp/x.json", 0);
    EXPECT_EQ(wakesim_run_command(setup, "baseline").rfind("wakesim run --topology", 0), 0u);
    EXPECT_EQ(wakesim_run_command(setup, setup.policies[1]),
              "wakesim --plugin " + plugin +
                  " run --topology ampere-altra-80 --seed 7 --workload pipe:loops=100 --policy "
                  "sis-sync-stack+prefer-idle-prev-llc:sync=off");
    EXPECT_EQ(wakesim_compare_command(setup, 3).rfind("wakesim --plugin " + plugin + " compare --topology", 0), 0u);
    EXPECT_EQ(policy_plugins({"baseline", "prefer-idle-prev-llc", "a+prefer-idle-prev-llc:sync=off"}),
              std::vector<std::string>{plugin});
}

TEST(ScenarioSession, AtMostFourPolicies)
{
    Scenario s = altra_scenario();
    s.policies = {"baseline", "sync-waker-v3", "sync-waker-v4", "sis-sync-stack", "prev-cpu-hot"};
    EXPECT_EQ(make_session_setup(s, "x.json", 0).policies.size(), 4u);
}

TEST(ScenarioSession, BadMachineNamesIt)
{
    Scenario s = altra_scenario();
    s.machine = "no-such-machine";
    try {
        make_session_setup(s, "x.json", 0);
        FAIL() << "expected an InputError";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("no-such-machine"), std::string::npos) << e.what();
    }
}

TEST(Breakpoint, BranchAndLandingClassMatchTheRecord)
{
    const SessionSetup setup = make_session_setup(altra_scenario(), "x.json", 0);
    LockstepRun run(setup.machine, setup.base, {"baseline"});
    DecisionRecord rec;
    rec.steps.push_back({"select_idle_sibling", "prev idle", "", 2});
    rec.from_waker = DistanceClass::Cluster;
    rec.waker_cpu = 3;
    const SchedState& s = run.sim(0).state();
    EXPECT_TRUE(breakpoint_hit({Breakpoint::Kind::Branch, "select_idle_sibling", "prev idle"}, rec, s));
    EXPECT_TRUE(breakpoint_hit({Breakpoint::Kind::Branch, "select_idle_sibling", ""}, rec, s));
    EXPECT_FALSE(breakpoint_hit({Breakpoint::Kind::Branch, "select_idle_sibling", "target idle"}, rec, s));
    Breakpoint lands{Breakpoint::Kind::Lands, "", "", DistanceClass::Cluster, false};
    EXPECT_TRUE(breakpoint_hit(lands, rec, s));
    lands.lands_in = DistanceClass::OtherLlc;
    EXPECT_FALSE(breakpoint_hit(lands, rec, s));
    // Before the run starts every CPU is idle: the waker's LLC has idle cores.
    lands.lands_in = DistanceClass::Cluster;
    lands.only_if_idle_core_in_waker_llc = true;
    EXPECT_TRUE(llc_has_idle_core(s, 3));
    EXPECT_TRUE(breakpoint_hit(lands, rec, s));
    EXPECT_EQ(lands.describe(), "lands cluster while the waker's LLC had an idle core");
}

}  // namespace
}  // namespace wb

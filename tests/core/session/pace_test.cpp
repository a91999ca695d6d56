// SPDX-License-Identifier: Apache-2.0
#include "session/pace.h"

#include <gtest/gtest.h>

#include "session/lockstep_run.h"

namespace wb {
namespace {

SessionSetup setup_of(const std::string& machine, const std::string& workload)
{
    Scenario s;
    s.name = "pace";
    s.machine = machine;
    s.cases = {{"case", workload}};
    s.policies = {"baseline", "sync-waker-v3"};
    return make_session_setup(s, "pace.json", 0);
}

// The probe's thousandth wakeup is the run's own: the first policy's, at
// the same simulated time as in the lockstep run the window shows.
TEST(PaceProbe, MeasuresTheFirstPolicysOwnWakeups)
{
    const SessionSetup setup = setup_of("ampere-altra-80", "pipe:loops=100000");
    PaceProbe probe(setup);
    while (probe.wakeups() < 1000)
        ASSERT_TRUE(probe.advance());
    LockstepRun shown(setup.machine, setup.base, setup.policies);
    Time thousandth;
    for (int k = 0; k < 1000; ++k)
        thousandth = shown.step_wakeup().records.front()->time;
    EXPECT_EQ(probe.estimate(1000), thousandth);
    EXPECT_GT(thousandth, Time());
}

// 100 loops make about 200 wakeups: a thousand are about five runs' worth.
TEST(PaceProbe, ARunThatEndsSoonerIsScaledUp)
{
    PaceProbe probe(setup_of("ampere-altra-80", "pipe:loops=100"));
    while (probe.advance()) {
    }
    ASSERT_GT(probe.wakeups(), 150u);
    ASSERT_LT(probe.wakeups(), 1000u);
    const Time half = probe.estimate(probe.wakeups() / 2);
    const Time thousand = probe.estimate(1000);
    EXPECT_NEAR(static_cast<double>(thousand.ns()),
                static_cast<double>(half.ns()) * 1000.0 / static_cast<double>(probe.wakeups() / 2),
                static_cast<double>(thousand.ns()) * 0.01);
}

}  // namespace
}  // namespace wb

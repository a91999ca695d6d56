// SPDX-License-Identifier: Apache-2.0
#include "session/soak.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "io/input_error.h"
#include "plugin/plugin_loader.h"

namespace wb {
namespace {

using ::testing::HasSubstr;

SoakOptions small(std::uint64_t events, std::uint64_t leg_events)
{
    SoakOptions o;
    o.events = events;
    o.leg_events = leg_events;
    o.machines = {"teaching-8", "ampere-altra-80"};
    o.workloads = {"pipe", "hackbench:groups=1"};
    o.policies = {"baseline", "sync-waker-v3"};
    return o;
}

// Legs take every machine in turn, move the workload on after each round
// of machines, and never pair one machine with one policy for good.
TEST(Soak, LegsCycleThroughMachinesWorkloadsAndPolicies)
{
    const SoakResult r = run_soak(small(150'000, 10'000));
    ASSERT_GE(r.legs.size(), 8u);
    std::set<std::string> combinations;
    for (std::size_t i = 0; i < 8; ++i) {
        const SoakLeg& leg = r.legs[i];
        combinations.insert(leg.machine + " " + leg.workload + " " + leg.policy);
        // A leg stops at the first slice of simulated time past its budget.
        if (!leg.finished) {
            EXPECT_GE(leg.events, 10'000u);
        }
        EXPECT_EQ(leg.seed, static_cast<std::uint64_t>(leg.index) + 1);
    }
    EXPECT_EQ(combinations.size(), 8u) << "every machine x workload x policy once in the first eight legs";
    EXPECT_EQ(r.legs[0].machine, "teaching-8");
    EXPECT_EQ(r.legs[1].machine, "ampere-altra-80");
    EXPECT_EQ(r.legs[2].workload, "hackbench:groups=1");
    EXPECT_NE(r.legs[0].policy, r.legs[4].policy) << "the same machine and workload, the next round: another policy";
    EXPECT_TRUE(r.violations.empty());
    EXPECT_GE(r.events, 150'000u);
}

TEST(Soak, MemoryIsJudgedOverTheLegsAndStaysFlat)
{
    const SoakResult r = run_soak(small(40'000, 10'000));
    EXPECT_TRUE(r.memory_judged);
    EXPECT_TRUE(r.memory_flat) << r.first_half_peak << " then " << r.second_half_peak;
    EXPECT_GT(r.resident_peak, 0u);
    EXPECT_GE(r.resident_peak, r.resident_final);
    const std::string text = format_soak(r, small(40'000, 10'000));
    EXPECT_THAT(text, HasSubstr("violations          none"));
    EXPECT_THAT(text, HasSubstr("flat: the second half's legs"));
}

// A run that breaks (here a policy plugin whose hook returns a CPU the
// machine lacks) ends its leg, is listed with the command that breaks the
// same way, and the soak goes on.
TEST(Soak, ABrokenRunIsReportedWithItsReproducerAndTheSoakGoesOn)
{
    load_plugin(WB_PLUGIN_MISBEHAVING);
    SoakOptions o = small(40'000, 10'000);
    o.policies = {"baseline", "returns-cpu-outside"};
    const SoakResult r = run_soak(o);
    ASSERT_FALSE(r.violations.empty());
    const SoakViolation& v = r.violations.front();
    EXPECT_EQ(v.leg.policy, "returns-cpu-outside");
    EXPECT_THAT(v.what, HasSubstr("returns-cpu-outside"));
    EXPECT_THAT(v.reproducer, HasSubstr("--plugin "));
    EXPECT_THAT(v.reproducer, HasSubstr(" run --topology " + v.leg.machine));
    EXPECT_THAT(v.reproducer, HasSubstr("--seed " + std::to_string(v.leg.seed) + " --check"));
    bool baseline_ran_after = false;
    for (const SoakLeg& leg : r.legs)
        baseline_ran_after |= leg.index > v.leg.index && leg.policy == "baseline" && leg.events >= 10'000;
    EXPECT_TRUE(baseline_ran_after) << format_soak(r, o);
    EXPECT_THAT(format_soak(r, o), HasSubstr("reproduce: wakesim --plugin "));
}

TEST(Soak, ABadNameFailsBeforeAnyLeg)
{
    SoakOptions o = small(10'000, 10'000);
    o.workloads = {"pipes"};
    EXPECT_THROW(run_soak(o), InputError);
}

}  // namespace
}  // namespace wb

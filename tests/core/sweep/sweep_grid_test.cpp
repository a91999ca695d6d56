// SPDX-License-Identifier: Apache-2.0
#include "sweep/sweep_grid.h"

#include <gtest/gtest.h>

namespace wb {
namespace {

SweepSpec two_by_three()
{
    SweepSpec s;
    s.name = "t";
    s.machines = {"teaching-8", "synthetic:core=2"};
    SweepWorkload hb{"hb", "hackbench:loops=5,groups=9", {}};
    hb.parameters = {{"groups", {parameter_value("1"), parameter_value("2")}},
                     {"fds", {parameter_value("3"), parameter_value("4"), parameter_value("5")}}};
    s.workloads = {hb, {"pipe", "pipe:loops=10", {}}};
    s.policies = {"baseline", "sync-waker-v3"};
    s.features = {"", "NO_WA_BIAS"};
    s.seeds = {1, 2, 3};
    return s;
}

TEST(SweepGrid, CountsEveryCombination)
{
    const SweepSpec s = two_by_three();
    const SweepGrid g(s);
    // per machine: (6 combinations + 1) x 2 features x 2 policies x 3 seeds
    EXPECT_EQ(g.size(), 2u * 7u * 12u);
    EXPECT_EQ(g.combinations(0), 6u);
    EXPECT_EQ(g.combinations(1), 1u);
}

TEST(SweepGrid, SeedsVaryFastestThenPolicyFeaturesValuesWorkloadMachine)
{
    const SweepSpec s = two_by_three();
    const SweepGrid g(s);
    EXPECT_EQ(g.point(0), (SweepPoint{0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(g.point(1), (SweepPoint{0, 0, 0, 0, 0, 1}));
    EXPECT_EQ(g.point(3), (SweepPoint{0, 0, 0, 0, 1, 0}));
    EXPECT_EQ(g.point(6), (SweepPoint{0, 0, 0, 1, 0, 0}));
    EXPECT_EQ(g.point(12), (SweepPoint{0, 0, 1, 0, 0, 0}));
    EXPECT_EQ(g.point(72), (SweepPoint{0, 1, 0, 0, 0, 0}));
    EXPECT_EQ(g.point(84), (SweepPoint{1, 0, 0, 0, 0, 0}));
    for (std::size_t i = 0; i < g.size(); ++i)
        ASSERT_EQ(g.index_of(g.point(i)), i);
}

TEST(SweepGrid, TheFirstParameterVariesSlowest)
{
    const SweepSpec s = two_by_three();
    const SweepGrid g(s);
    // combination 4: groups index 1 (4 / 3), fds index 1 (4 % 3)
    const SweepPoint p{0, 0, 4, 0, 0, 0};
    const auto params = g.parameters(p);
    ASSERT_EQ(params.size(), 2u);
    EXPECT_EQ(params[0].first, "groups");
    EXPECT_EQ(params[0].second->text, "2");
    EXPECT_EQ(params[1].second->text, "4");
    // A parameter in the spec takes the swept value where it stood.
    EXPECT_EQ(g.workload_spec(p), "hackbench:loops=5,groups=2,fds=4");
    EXPECT_EQ(g.workload_spec({0, 1, 0, 0, 0, 0}), "pipe:loops=10");
}

TEST(WithParameters, KeepsCpulistsWhole)
{
    EXPECT_EQ(with_parameters("pipe:loops=10,cpus=0,2,4", {{"loops", "20"}}), "pipe:loops=20,cpus=0,2,4");
    EXPECT_EQ(with_parameters("pipe:cpus=0,2,loops=3", {{"cpus", "5-7"}}), "pipe:cpus=5-7,loops=3");
    EXPECT_EQ(with_parameters("hackbench", {{"groups", "4"}}), "hackbench:groups=4");
    EXPECT_EQ(with_parameters("hackbench", {}), "hackbench");
    // What make_workload() would refuse stays as written, for it to refuse.
    EXPECT_EQ(with_parameters("pipe:bogus", {{"loops", "2"}}), "pipe:bogus,loops=2");
}

}  // namespace
}  // namespace wb

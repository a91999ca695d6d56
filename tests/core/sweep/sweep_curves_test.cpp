// SPDX-License-Identifier: Apache-2.0
#include "sweep/sweep_curves.h"

#include <gtest/gtest.h>

#include <cmath>

namespace wb {
namespace {

// hackbench groups {1, 2, 4} x fds {10, 20} on one machine, 2 policies, 3
// seeds; each point's headline is made from its place, so a wrong index
// shows as a wrong mean.
class SweepCurves : public ::testing::Test {
protected:
    SweepCurves() : grid_(spec())
    {
        for (std::size_t i = 0; i < grid_.size(); ++i) {
            const SweepPoint p = grid_.point(i);
            PointResult r;
            r.index = i;
            r.headline.value = 1000.0 * static_cast<double>(p.combination) + 100.0 * static_cast<double>(p.policy) +
                               static_cast<double>(p.seed);
            r.figures.assign(run_figure_table().size(), 0.0);
            storage_.push_back(r);
        }
        for (const PointResult& r : storage_)
            results_.push_back(&r);
    }

    const SweepSpec& spec()
    {
        spec_.name = "c";
        spec_.machines = {"teaching-8"};
        spec_.workloads = {{"hb", "hackbench", {{"groups", {parameter_value("1"), parameter_value("2"),
                                                             parameter_value("4")}},
                                               {"fds", {parameter_value("10"), parameter_value("20")}}}}};
        spec_.policies = {"baseline", "sync-waker-v3"};
        spec_.features = {""};
        spec_.seeds = {1, 2, 3};
        return spec_;
    }

    SweepSpec spec_;
    SweepGrid grid_;
    std::vector<PointResult> storage_;
    std::vector<const PointResult*> results_;
};

TEST_F(SweepCurves, OneCurvePerPolicyAlongTheChosenParameter)
{
    CurveSelection sel;
    sel.x = 0;        // groups
    sel.held = {0, 1};  // fds held at 20
    const std::vector<Curve> curves = sweep_curves(grid_, results_, sel, *find_sweep_figure("headline"));
    ASSERT_EQ(curves.size(), 2u);
    EXPECT_EQ(curves[1].policy, "sync-waker-v3");
    ASSERT_EQ(curves[1].points.size(), 3u);
    // groups=4 is value 2, fds=20 value 1: combination 2 * 2 + 1 = 5
    const CurvePoint& p = curves[1].points[2];
    EXPECT_EQ(p.x_text, "4");
    EXPECT_EQ(p.x, 4.0);
    EXPECT_EQ(p.summary.n, 3);
    EXPECT_DOUBLE_EQ(p.summary.mean, 5000 + 100 + 1);  // seeds 0, 1, 2 average to 1
    ASSERT_TRUE(p.summary.ci95);
    // Seeds 0, 1, 2: sample stddev 1, so 4.303 (t, 2 df) / sqrt(3).
    EXPECT_NEAR(*p.summary.ci95, 4.3027 / std::sqrt(3.0), 1e-3);
    EXPECT_TRUE(curves_fit_log_axis(curves));
}

TEST_F(SweepCurves, AlongTheSecondParameterTheFirstIsHeld)
{
    CurveSelection sel;
    sel.x = 1;          // fds
    sel.held = {1, 0};  // groups held at 2
    const std::vector<Curve> curves = sweep_curves(grid_, results_, sel, *find_sweep_figure("headline"));
    ASSERT_EQ(curves[0].points.size(), 2u);
    EXPECT_EQ(curves[0].points[1].x_text, "20");
    EXPECT_DOUBLE_EQ(curves[0].points[1].summary.mean, 3000 + 1);  // combination 1 * 2 + 1
}

TEST_F(SweepCurves, PointsWithoutAResultAreLeftOut)
{
    // A shard's file: seed 3 of every point missing, and one point entirely.
    for (std::size_t i = 0; i < results_.size(); ++i)
        if (grid_.point(i).seed == 2 || grid_.point(i).combination == 0)
            results_[i] = nullptr;
    const std::vector<Curve> curves = sweep_curves(grid_, results_, {}, *find_sweep_figure("headline"));
    EXPECT_EQ(curves[0].points[0].summary.n, 0);
    EXPECT_EQ(curves[0].points[1].summary.n, 2);
    EXPECT_DOUBLE_EQ(curves[0].points[1].summary.mean, 2000.5);
}

TEST(SweepCurvesLogAxis, NeedsNumbersAboveZero)
{
    Curve c{"p", {{"0", 0.0, {}}, {"1", 1.0, {}}}};
    EXPECT_FALSE(curves_fit_log_axis({c}));
    c.points[0] = {"socket", std::nullopt, {}};
    EXPECT_FALSE(curves_fit_log_axis({c}));
    c.points[0] = {"500us", 500.0, {}};
    EXPECT_TRUE(curves_fit_log_axis({c}));
}

}  // namespace
}  // namespace wb

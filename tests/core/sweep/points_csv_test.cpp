// SPDX-License-Identifier: Apache-2.0
#include "sweep/points_csv.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

namespace wb {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(PointsCsv, OneColumnPerSweptParameterOfAnyWorkload)
{
    SweepSpec s;
    s.name = "csv";
    s.machines = {"teaching-8"};
    s.workloads = {{"hb", "hackbench", {{"groups", {parameter_value("2")}}}},
                   {"pipe", "pipe:cpus=0,1", {{"loops", {parameter_value("10")}}}}};
    s.policies = {"baseline"};
    s.features = {"NO_WA_BIAS"};
    s.seeds = {7};
    const SweepGrid grid(s);
    EXPECT_THAT(points_csv_header(grid),
                StartsWith("index,machine,label,workload,\"groups\",\"loops\",features,policy,seed,finished,"
                           "elapsed_ns,events,headline_name,headline_unit,headline,ops_per_sec,"));
    PointResult r;
    r.index = 1;
    r.finished = true;
    r.elapsed_ns = 1500;
    r.events = 42;
    r.headline = {"usecs/op", 0.1 + 0.2, "us", true};
    r.figures.assign(run_figure_table().size(), std::nan(""));
    r.wakeup_latency_ns.p50 = 2500;
    const std::string row = points_csv_row(grid, r);
    // The pipe point: no groups, its loops; the spec's commas quoted.
    EXPECT_THAT(row, StartsWith("1,\"teaching-8\",\"pipe\",\"pipe:cpus=0,1,loops=10\",,\"10\",\"NO_WA_BIAS\","
                                "\"baseline\",7,1,1500,42,\"usecs/op\",\"us\",0.30000000000000004,,"));
    EXPECT_THAT(row, HasSubstr(",2.5,"));  // wakeup latency p50 in us
    const std::string header = points_csv_header(grid);
    // As many fields as the header, and the two commas inside the quoted spec.
    EXPECT_EQ(std::count(row.begin(), row.end(), ','), std::count(header.begin(), header.end(), ',') + 2);
}

}  // namespace
}  // namespace wb

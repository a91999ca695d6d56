// SPDX-License-Identifier: Apache-2.0
#include "session/comparison_run.h"

#include <gtest/gtest.h>

#include "../heap_in_use.h"
#include "engine/batch.h"
#include "io/topology_library.h"

namespace wb {
namespace {

// Each cell's values are the headlines run_one() gives for its seeds.
TEST(ComparisonRun, CellsHoldRunOneHeadlinesPerSeed)
{
    Scenario s;
    s.machine = "teaching-8";
    s.cases = {{"pipe", "pipe:loops=200"}};
    s.policies = {"baseline", "sync-waker-v3"};
    s.seed = 5;
    s.runs = 2;
    const Machine m = resolve_machine(s.machine);
    std::atomic<bool> cancel{false};
    int calls = 0;
    const std::optional<Comparison> done = run_comparison(m, s, 2, {&cancel, [&](int, int total) {
                                                                        ++calls;
                                                                        EXPECT_EQ(total, 4);
                                                                    }});
    ASSERT_TRUE(done.has_value());
    EXPECT_EQ(calls, 2);
    const Comparison& c = *done;
    ASSERT_EQ(c.cells.size(), 2u);
    EXPECT_EQ(c.runs, 2);
    for (std::size_t p = 0; p < 2; ++p) {
        const ComparisonCell& cell = c.cell(p, 0);
        EXPECT_EQ(cell.policy, s.policies[p]);
        EXPECT_EQ(cell.metric, "usecs/op");
        ASSERT_EQ(cell.values.size(), 2u);
        for (int r = 0; r < 2; ++r) {
            RunRequest req{"pipe:loops=200", s.policies[p], FeatureSet(), 5u + static_cast<std::uint64_t>(r)};
            EXPECT_EQ(cell.values[static_cast<std::size_t>(r)], run_one(m, req).headline.value) << p << " " << r;
        }
    }
}

}  // namespace
}  // namespace wb

namespace wb {
namespace {

TEST(ComparisonRun, CancelledBeforeTheFirstBatchGivesNothing)
{
    Scenario s;
    s.machine = "teaching-8";
    s.cases = {{"pipe", "pipe:loops=50"}};
    std::atomic<bool> cancel{true};
    EXPECT_FALSE(run_comparison(resolve_machine("teaching-8"), s, 1, {&cancel, {}}).has_value());
}

TEST(ComparisonRun, KeepsOnlyWhatTheCellsNeedOfEachRun)
{
    // Each run's whole RunMetrics (about 190 KB) used to be kept until the
    // end, so that the documented `runs: 100000` needed 19 GB.
    Scenario s;
    s.machine = "teaching-8";
    s.cases = {{"pipe", "pipe:loops=20"}};
    s.runs = 60;
    const Machine m = resolve_machine(s.machine);
    std::size_t after_first = 0, after_last = 0;
    run_comparison(m, s, 1, {nullptr, [&](int done, int total) {
                                 if (done == 1)
                                     after_first = test::heap_in_use();
                                 if (done == total)
                                     after_last = test::heap_in_use();
                             }});
    ASSERT_GT(after_first, 0u);
    EXPECT_LT(after_last - std::min(after_last, after_first), 59u * 2048u) << "more than 2 KB kept per run";
}

}  // namespace
}  // namespace wb

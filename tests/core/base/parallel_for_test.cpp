// SPDX-License-Identifier: Apache-2.0
#include "base/parallel_for.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

namespace wb {
namespace {

TEST(ParallelFor, EveryIndexRunsOnceAndItsResultIsSeenAfterwards)
{
    // Plain stores from the workers, read after the call: the join orders them.
    std::vector<int> runs(1000, 0);
    parallel_for(runs.size(), 4, [&](std::size_t i) { runs[i] += static_cast<int>(i % 7) + 1; });
    for (std::size_t i = 0; i < runs.size(); ++i)
        ASSERT_EQ(runs[i], static_cast<int>(i % 7) + 1) << "index " << i;
}

TEST(ParallelFor, TheCallersThreadIsOneOfTheJobs)
{
    const std::thread::id caller = std::this_thread::get_id();
    std::atomic<bool> caller_worked{false};
    parallel_for(1, 4, [&](std::size_t) { caller_worked = std::this_thread::get_id() == caller; });
    EXPECT_TRUE(caller_worked);  // one index: no thread is started for it
}

TEST(ParallelFor, TheFirstExceptionStopsTheHandingOutAndIsRethrown)
{
    std::atomic<int> started{0};
    EXPECT_THROW(parallel_for(100000, 2,
                              [&](std::size_t i) {
                                  ++started;
                                  if (i == 3)
                                      throw std::runtime_error("index 3");
                              }),
                 std::runtime_error);
    EXPECT_LT(started.load(), 100000);
}

TEST(ParallelFor, StopIsCheckedBeforeEachIndex)
{
    std::atomic<bool> stop{false};
    std::atomic<int> ran{0};
    parallel_for(
        100000, 2,
        [&](std::size_t) {
            if (++ran == 10)
                stop = true;
        },
        &stop);
    EXPECT_GE(ran.load(), 10);
    EXPECT_LT(ran.load(), 100000);
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "engine/batch.h"

#include <gtest/gtest.h>

#include "io/input_error.h"
#include "topology/synthetic.h"

namespace wb {
namespace {

std::vector<RunRequest> requests()
{
    std::vector<RunRequest> list;
    for (const char* policy : {"baseline", "sync-waker-v3"})
        for (const char* workload : {"pipe:loops=300", "pipe:loops=300,cpus=2-3"})
            for (std::uint64_t seed = 1; seed <= 3; ++seed)
                list.push_back({workload, policy, FeatureSet(), seed});
    return list;
}

TEST(Batch, ResultsDoNotDependOnTheNumberOfThreads)
{
    const Machine m = parse_synthetic("llc=2,core=2,smt=2");
    const auto one = run_batch(m, requests(), 1);
    const auto two = run_batch(m, requests(), 2);
    ASSERT_EQ(one.size(), requests().size());
    for (std::size_t i = 0; i < one.size(); ++i) {
        EXPECT_EQ(one[i].elapsed, two[i].elapsed) << i;
        EXPECT_EQ(one[i].metrics.events, two[i].metrics.events) << i;
        EXPECT_DOUBLE_EQ(one[i].headline.value, two[i].headline.value) << i;
    }
}

TEST(Batch, ABadRequestFailsTheBatch)
{
    const Machine m = parse_synthetic("core=2");
    std::vector<RunRequest> list = requests();
    list[3].policy = "no-such-policy";
    EXPECT_THROW(run_batch(m, list, 2), InputError);
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "sweep/shard_plan.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace wb {
namespace {

std::vector<std::uint64_t> loads(const std::vector<std::uint64_t>& costs, const std::vector<std::uint32_t>& shard,
                                 std::uint32_t count)
{
    std::vector<std::uint64_t> out(count);
    for (std::size_t i = 0; i < costs.size(); ++i)
        out[shard[i]] += costs[i];
    return out;
}

TEST(AssignShards, BalancesCostNotCount)
{
    // hackbench at 32 groups costs about 32 times what 1 group does: by
    // count, the shard that drew the big points would take most of the time.
    const std::vector<std::uint64_t> costs{1, 2, 4, 8, 16, 32, 1, 2, 4, 8, 16, 32};
    const std::vector<std::uint32_t> shard = assign_shards(costs, 4);
    const std::vector<std::uint64_t> load = loads(costs, shard, 4);
    EXPECT_EQ(*std::max_element(load.begin(), load.end()), 32u);  // the best any split can do
    EXPECT_EQ(*std::min_element(load.begin(), load.end()), 31u);
    // Shards do not hold the same number of points.
    EXPECT_EQ(std::count(shard.begin(), shard.end(), 0u), 1);
}

TEST(AssignShards, IsDeterministicAndBreaksTiesByIndex)
{
    const std::vector<std::uint64_t> costs(10, 5);
    const std::vector<std::uint32_t> shard = assign_shards(costs, 3);
    EXPECT_EQ(shard, (std::vector<std::uint32_t>{0, 1, 2, 0, 1, 2, 0, 1, 2, 0}));
    EXPECT_EQ(assign_shards(costs, 3), shard);
    EXPECT_EQ(assign_shards(costs, 1), std::vector<std::uint32_t>(10, 0));
}

TEST(AssignShards, MoreShardsThanPointsLeavesSomeEmpty)
{
    EXPECT_EQ(assign_shards({7, 9}, 4), (std::vector<std::uint32_t>{1, 0}));
}

TEST(ParseShard, TakesIOverN)
{
    std::string error;
    EXPECT_EQ(parse_shard("3/4", error), (ShardId{3, 4}));
    EXPECT_EQ(error, "");
    parse_shard("4/4", error);
    EXPECT_EQ(error, "shard 4 of 4: expected I from 0 to 3");
    error.clear();
    parse_shard("1", error);
    EXPECT_EQ(error, "expected I/N, shard I of N, with N from 1 to 100000 (as SLURM_ARRAY_TASK_ID/N)");
    error.clear();
    parse_shard("0/0", error);
    EXPECT_NE(error, "");
    error.clear();
    parse_shard("-1/4", error);
    EXPECT_NE(error, "");
}

}  // namespace
}  // namespace wb

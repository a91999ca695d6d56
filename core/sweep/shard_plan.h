// SPDX-License-Identifier: Apache-2.0
//
// Which points each of N shards runs. Every shard computes the plan on its
// own (a Slurm array task, a Kubernetes index), so it must come out the same
// everywhere: it depends only on the points' estimated costs, which are
// whole numbers of simulated events (sweep/point_cost.h), never on timing.
//
// Shares are balanced by cost, not by count: the longest processing time
// first rule (Graham, 1969) gives the costliest points out first, each to
// the shard with the least work so far, which keeps the slowest shard within
// 4/3 of the best possible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

struct ShardId {
    std::uint32_t index = 0;  // 0 .. count - 1
    std::uint32_t count = 1;
    friend bool operator==(const ShardId&, const ShardId&) = default;
};

// The shard of each point (by index). Ties go to the lower point index and
// the lower shard.
std::vector<std::uint32_t> assign_shards(const std::vector<std::uint64_t>& costs, std::uint32_t count);

// "I/N" with 0 <= I < N; an empty string and the error otherwise.
ShardId parse_shard(const std::string& text, std::string& error);

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "sweep/shard_plan.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <numeric>
#include <queue>
#include <utility>

namespace wb {

std::vector<std::uint32_t> assign_shards(const std::vector<std::uint64_t>& costs, std::uint32_t count)
{
    std::vector<std::size_t> order(costs.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return costs[a] > costs[b]; });
    // (load, shard), least first: the lower shard wins a tie.
    using Load = std::pair<std::uint64_t, std::uint32_t>;
    std::priority_queue<Load, std::vector<Load>, std::greater<Load>> loads;
    for (std::uint32_t s = 0; s < count; ++s)
        loads.push({0, s});
    std::vector<std::uint32_t> shard(costs.size());
    for (std::size_t i : order) {
        auto [load, s] = loads.top();
        loads.pop();
        shard[i] = s;
        loads.push({load + costs[i], s});
    }
    return shard;
}

ShardId parse_shard(const std::string& text, std::string& error)
{
    const std::size_t slash = text.find('/');
    ShardId id;
    auto number = [](std::string_view s, std::uint32_t& out) {
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
        return ec == std::errc() && end == s.data() + s.size() && !s.empty();
    };
    if (slash == std::string::npos || !number(std::string_view(text).substr(0, slash), id.index) ||
        !number(std::string_view(text).substr(slash + 1), id.count) || id.count == 0 || id.count > 100000) {
        error = "expected I/N, shard I of N, with N from 1 to 100000 (as SLURM_ARRAY_TASK_ID/N)";
        return {};
    }
    if (id.index >= id.count) {
        error = "shard " + std::to_string(id.index) + " of " + std::to_string(id.count) +
                ": expected I from 0 to " + std::to_string(id.count - 1);
        return {};
    }
    return id;
}

}  // namespace wb

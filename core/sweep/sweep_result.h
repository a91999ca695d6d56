// SPDX-License-Identifier: Apache-2.0
//
// A sweep's result in memory, for what shows it (Results > Sweep, `wakesim
// sweep curves|csv`): the sweep, its grid, and each point's result by index.
// A shard's file, or a result missing points, loads too: the points it
// lacks have no result.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/sweep_result_json.h"

namespace wb {

class SweepResult {
public:
    // Throws InputError naming the file and the place.
    explicit SweepResult(const std::string& path);
    SweepResult(const SweepResult&) = delete;
    SweepResult& operator=(const SweepResult&) = delete;

    const SweepSpec& spec() const { return head_.spec; }
    const SweepGrid& grid() const { return *grid_; }
    const std::optional<ShardId>& shard() const { return head_.shard; }
    const std::string& fingerprint() const { return head_.fingerprint; }
    // By point index; null where the file has no result.
    const std::vector<const PointResult*>& by_index() const { return by_index_; }
    // The points it has, in the file's order.
    const std::vector<PointResult>& points() const { return points_; }

private:
    SweepResultHead head_;
    std::unique_ptr<SweepGrid> grid_;
    std::vector<PointResult> points_;
    std::vector<const PointResult*> by_index_;
};

}  // namespace wb

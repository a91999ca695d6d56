// SPDX-License-Identifier: Apache-2.0
//
// The files of a sweep's results (docs/sweep-format.md):
//
// - OUT.partial, JSON Lines beside OUT while a sweep runs: a header line
//   naming the sweep (its fingerprint, its point count, the shard), then one
//   line per finished point, in the order they finished.
// - OUT, the result: one JSON document with the sweep in its canonical form
//   and every point in index order, one point a line. A shard's result has
//   its points only, and says which shard it is.
//
// A point's line is the same bytes wherever it is written, so a result put
// together from a partial file, from shards or from one straight run is the
// same file.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "sweep/point_result.h"
#include "sweep/shard_plan.h"
#include "sweep/sweep_grid.h"

namespace wb {

// One line of JSON (no newline): the point's place in the grid (index,
// machine, workload, parameters, features, policy, seed), then its result.
std::string point_to_json_line(const SweepGrid& grid, const PointResult& result);

// The point a line holds, checked against the grid: the index must be one of
// its points, and machine, workload, features, policy and seed those of that
// index. Throws InputError naming `file_label`, the JSON pointer and what
// was expected.
PointResult parse_point_line(std::string_view line, const SweepGrid& grid, const std::string& file_label);

struct PartialHeader {
    std::string fingerprint;
    std::size_t points = 0;  // in the whole sweep
    std::optional<ShardId> shard;
    friend bool operator==(const PartialHeader&, const PartialHeader&) = default;
};
std::string partial_header_line(const PartialHeader& header);
// nullopt when `line` is not a partial file's header.
std::optional<PartialHeader> parse_partial_header(std::string_view line);

// A result document is its head, each point's line (indented, followed by
// ",\n" or, for the last, "\n"), and its tail.
std::string result_head(const SweepSpec& spec, const std::optional<ShardId>& shard);
std::string result_point(const std::string& line, bool last);
std::string result_tail();

struct SweepResultHead {
    SweepSpec spec;
    std::string fingerprint;
    std::optional<ShardId> shard;
};

// Reads a result document point by point, holding one point in memory at a
// time: `on_head` once, before any point, then `on_point` for each, in the
// file's order. The sweep is read with SweepChecks::Structure (its machines
// need not exist here). Throws InputError naming `path` and the place.
void read_sweep_result(const std::string& path, const std::function<void(const SweepResultHead&)>& on_head,
                       const std::function<void(PointResult)>& on_point);

}  // namespace wb

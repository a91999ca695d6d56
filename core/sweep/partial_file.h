// SPDX-License-Identifier: Apache-2.0
//
// PartialFile: OUT.partial, where a running sweep keeps each point the
// moment it finishes (JSON Lines: a header, then one line a point), so that
// an interrupted sweep loses only the runs that were under way. Running the
// same command again opens the same file and goes on from it.
//
// Memory stays flat in the number of points: only where each line is in the
// file is kept, and the result is written from the file, not from memory.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "io/sweep_result_json.h"

namespace wb {

class PartialFile {
public:
    // Opens `path`, or creates it with `header`. An existing file must carry
    // the same header (the same sweep and shard), else InputError: it holds
    // another sweep's points. Its points are read back and checked against
    // the grid; a line that is not a whole, valid point of this grid (the
    // last one, cut by an interruption) is dropped and its point runs again.
    // Another process writing the same file is an InputError.
    PartialFile(const std::string& path, const PartialHeader& header, const SweepGrid& grid);
    ~PartialFile();
    PartialFile(const PartialFile&) = delete;
    PartialFile& operator=(const PartialFile&) = delete;

    bool has(std::size_t index) const { return lines_[index].length != 0; }
    std::size_t count() const { return count_; }

    // Appends a point's line (one write, so a line is whole or cut, never
    // mixed with another). Safe from several threads.
    void append(const PointResult& result);

    // The line of a point that has one.
    std::string line(std::size_t index) const;

    // Writes the result document of the points in `share` (index order) to
    // `out` (through a temporary file and a rename, so OUT never exists half
    // written), then removes the partial file.
    void write_result(const std::string& out, const std::vector<std::size_t>& share,
                      const std::optional<ShardId>& shard);

private:
    struct Line {
        std::uint64_t offset = 0;
        std::uint32_t length = 0;  // without the newline; 0: no line
    };

    std::string path_;
    const SweepGrid& grid_;
    std::optional<ShardId> shard_;
    int fd_ = -1;
    std::uint64_t size_ = 0;
    std::vector<Line> lines_;  // by point index
    std::size_t count_ = 0;
    std::mutex lock_;
};

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "sweep/sweep_merge.h"

#include <unistd.h>

#include <memory>
#include <numeric>
#include <set>

#include "io/input_error.h"
#include "io/sweep_result_json.h"
#include "sweep/partial_file.h"

namespace wb {

namespace {

[[noreturn]] void fail(const std::string& file, const std::string& message)
{
    throw InputError(Diagnostic{file, 0, 0, "", message});
}

// What every input must agree on, taken from the first.
struct Merge {
    SweepResultHead first;
    std::string first_file;
    std::unique_ptr<SweepGrid> grid;
    std::unique_ptr<PartialFile> spool;
    std::set<std::uint32_t> shards_seen;
};

std::string missing_points(const PartialFile& spool, std::size_t points)
{
    std::string list;
    std::size_t missing = 0;
    for (std::size_t i = 0; i < points; ++i)
        if (!spool.has(i) && ++missing <= 10)
            list += (list.empty() ? "" : ", ") + std::to_string(i);
    return "points " + list + (missing > 10 ? ", ... (" + std::to_string(missing) + " in all)" : "") +
           " are in none of the files";
}

}  // namespace

void merge_sweep_results(const std::vector<std::string>& inputs, const std::string& out)
{
    if (inputs.empty())
        fail("sweep merge", "expected the result files of the shards");
    const std::string spool_path = out + ".merging";
    ::unlink(spool_path.c_str());  // what an interrupted merge left
    Merge m;
    try {
        for (const std::string& file : inputs) {
            auto on_head = [&](const SweepResultHead& head) {
                if (!m.grid) {
                    m.first = head;
                    m.first_file = file;
                    m.grid = std::make_unique<SweepGrid>(m.first.spec);
                    m.spool = std::make_unique<PartialFile>(
                        spool_path, PartialHeader{head.fingerprint, m.grid->size(), std::nullopt}, *m.grid);
                } else if (head.fingerprint != m.first.fingerprint) {
                    fail(file, "is a result of another sweep (fingerprint " + head.fingerprint + ", " +
                                   m.first_file + " has " + m.first.fingerprint + ")");
                }
                const std::uint32_t count = head.shard ? head.shard->count : 1;
                const std::uint32_t first_count = m.first.shard ? m.first.shard->count : 1;
                if (count != first_count)
                    fail(file, "is a share of " + std::to_string(count) + " shards; " + m.first_file + " is of " +
                                   std::to_string(first_count));
                const std::uint32_t index = head.shard ? head.shard->index : 0;
                if (!m.shards_seen.insert(index).second)
                    fail(file, "shard " + std::to_string(index) + " of " + std::to_string(count) +
                                   " is given twice; expected each shard once");
            };
            auto on_point = [&](PointResult r) {
                if (m.spool->has(r.index))
                    fail(file, "point " + std::to_string(r.index) + " is given twice; expected each point once");
                m.spool->append(r);
            };
            read_sweep_result(file, on_head, on_point);
        }
        if (m.spool->count() < m.grid->size()) {
            const std::uint32_t count = m.first.shard ? m.first.shard->count : 1;
            std::string absent;
            for (std::uint32_t s = 0; s < count; ++s)
                if (!m.shards_seen.count(s))
                    absent += (absent.empty() ? "" : ", ") + std::to_string(s);
            fail("sweep merge", absent.empty() ? missing_points(*m.spool, m.grid->size())
                                               : "expected every shard of " + std::to_string(count) +
                                                     "; missing shard " + absent);
        }
        std::vector<std::size_t> all(m.grid->size());
        std::iota(all.begin(), all.end(), std::size_t{0});
        m.spool->write_result(out, all, std::nullopt);
    } catch (...) {
        ::unlink(spool_path.c_str());
        throw;
    }
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// Comparison: policies x workload cases x seeds, summarised the way the
// published comparisons are: per policy and case the headline's mean,
// median and standard deviation, its change against the first policy with
// a 95% interval, and where wakeups placed tasks.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "metrics/stats.h"
#include "topology/distance.h"

namespace wb {

struct ComparisonCell {
    std::string policy;
    std::string case_label;
    std::string metric;  // "usecs/op"
    std::string unit;    // "us"
    bool lower_is_better = true;
    std::vector<double> values;  // one per seed, in seed order
    Summary summary;
    // Against the first policy's cell of the same case. The first policy's
    // own is exactly 0 +/- 0 (its runs against themselves), whatever n.
    Change change;
    std::array<double, kDistanceClassCount> placement{};  // mean fraction of wakeups per class (vs the waker CPU)
    int unfinished = 0;                                   // runs that hit the time limit
};

struct Comparison {
    std::vector<std::string> cases;      // labels, in order
    std::vector<std::string> workloads;  // the workload spec of each case
    std::vector<std::string> policies;
    int runs = 0;
    std::vector<ComparisonCell> cells;  // policy-major: cells[p * cases + c]

    const ComparisonCell& cell(std::size_t policy, std::size_t case_index) const
    {
        return cells[policy * cases.size() + case_index];
    }
};

// Fills summaries and changes once the cells hold their values.
void finish_comparison(Comparison& comparison);

// The published-table layout: one row per policy, per case its mean and
// median; then per case the detail with changes and placement. Plain text
// that pastes cleanly into a mailing-list post.
std::string format_comparison(const Comparison& comparison);

// Undefined statistics are empty fields.
std::string comparison_to_csv(const Comparison& comparison);

// The change as the text table prints it and the headline chart labels a
// bar, so the two never disagree: "-23.6% +/- 4.1%"; "-23.6% n/a" when
// there is no interval (a side with one run); "n/a" when there is no change.
std::string format_change(const Change& change);

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// How every host benchmark turns a time budget into one figure: many short
// batches of a fixed number of operations, repeated until the budget is
// spent, and the batch at the 10th percentile. Not the mean nor the median,
// because the machine is shared (other processes, the hypervisor's other
// guests): interference only ever adds time, so a batch that ran
// undisturbed is among the fastest, and the slow tail measures the
// neighbours, not the operation. The 10th percentile rather than the
// minimum, so that one batch flattered by a clock quirk does not decide.
#pragma once

#include <cstdint>
#include <functional>

namespace wb::host {

struct Sampled {
    double ns_per_op = 0;   // the 10th-percentile batch's time per operation
    double median_ns = 0;   // the median batch's, to show how much interference there was
    std::uint64_t ops = 0;  // operations run over all batches, warm-up included
    int batches = 0;
};

// `batch(n)` runs n operations and returns their wall time in ns. The batch
// size is first grown until one batch takes about 2 ms (shorter than a
// scheduler slice, so that some batches run undisturbed; long enough that
// the two clock reads vanish), then batches run until `budget_ns` is spent
// (at least 10 of them).
Sampled sample_batches(const std::function<std::int64_t(std::uint64_t n)>& batch, std::int64_t budget_ns);

}  // namespace wb::host

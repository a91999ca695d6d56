// SPDX-License-Identifier: Apache-2.0
#include "host/timed_samples.h"

#include <algorithm>
#include <vector>

#include "host/host_clock.h"

namespace wb::host {

namespace {

constexpr std::int64_t kBatchNs = 2'000'000;
constexpr std::size_t kMinBatches = 10;

double quantile(std::vector<double> v, double q)
{
    const auto k = static_cast<std::ptrdiff_t>(q * static_cast<double>(v.size() - 1));
    std::nth_element(v.begin(), v.begin() + k, v.end());
    return v[static_cast<std::size_t>(k)];
}

}  // namespace

Sampled sample_batches(const std::function<std::int64_t(std::uint64_t n)>& batch, std::int64_t budget_ns)
{
    const std::int64_t start = now_ns();
    Sampled out;
    std::uint64_t n = 16;
    // Grow the batch; the growing batches are the warm-up, not samples.
    for (;;) {
        const std::int64_t t = batch(n);
        out.ops += n;
        if (t >= kBatchNs || now_ns() - start > budget_ns / 4)
            break;
        n *= t > 0 && kBatchNs / t < 8 ? 2 : 8;
    }
    std::vector<double> per_op;
    while (per_op.size() < kMinBatches || now_ns() - start < budget_ns) {
        const std::int64_t t = batch(n);
        out.ops += n;
        per_op.push_back(static_cast<double>(t) / static_cast<double>(n));
    }
    out.ns_per_op = quantile(per_op, 0.1);
    out.median_ns = quantile(per_op, 0.5);
    out.batches = static_cast<int>(per_op.size());
    return out;
}

}  // namespace wb::host

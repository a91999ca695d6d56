// SPDX-License-Identifier: Apache-2.0
#include "metrics/histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace wb {

std::uint64_t Histogram::upper_bound_of(int index)
{
    if (index < kSub)
        return static_cast<std::uint64_t>(index);
    const int shift = index / kSub - 1;
    const std::uint64_t mantissa = static_cast<std::uint64_t>(index % kSub);
    const std::uint64_t low = (std::uint64_t{kSub} | mantissa) << shift;
    return low + ((std::uint64_t{1} << shift) - 1);
}

std::int64_t Histogram::percentile(double q) const
{
    if (count_ == 0)
        return 0;
    const double wanted = std::ceil(std::clamp(q, 0.0, 1.0) * static_cast<double>(count_));
    const std::uint64_t rank = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(wanted));
    std::uint64_t seen = 0;
    for (int i = 0; i < kBuckets; ++i) {
        seen += buckets_[static_cast<std::size_t>(i)];
        if (seen >= rank)
            return std::min(static_cast<std::int64_t>(upper_bound_of(i)), max_);
    }
    return max_;
}

std::vector<CdfStep> Histogram::cdf_steps() const
{
    std::vector<CdfStep> steps;
    std::uint64_t seen = 0;
    for (int i = 0; i < kBuckets && seen < count_; ++i) {
        const std::uint64_t n = buckets_[static_cast<std::size_t>(i)];
        if (n == 0)
            continue;
        seen += n;
        steps.push_back({std::min(static_cast<std::int64_t>(upper_bound_of(i)), max_),
                         static_cast<double>(seen) / static_cast<double>(count_)});
    }
    return steps;
}

void Histogram::merge(const Histogram& other)
{
    for (std::size_t i = 0; i < buckets_.size(); ++i)
        buckets_[i] += other.buckets_[i];
    count_ += other.count_;
    sum_ += other.sum_;
    min_ = std::min(min_, other.min_);
    max_ = std::max(max_, other.max_);
}

}  // namespace wb

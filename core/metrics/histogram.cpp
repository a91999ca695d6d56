// SPDX-License-Identifier: Apache-2.0
#include "metrics/histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace wb {

// Values below 128 get one bucket each; above, the bucket is the top 7 bits
// after the leading one, within the value's power of two.
int Histogram::index_of(std::uint64_t v)
{
    if (v < kSub)
        return static_cast<int>(v);
    const int msb = 63 - std::countl_zero(v);
    const int shift = msb - kSubBits;
    const int mantissa = static_cast<int>((v >> shift) & (kSub - 1));
    return (shift + 1) * kSub + mantissa;
}

std::uint64_t Histogram::upper_bound_of(int index)
{
    if (index < kSub)
        return static_cast<std::uint64_t>(index);
    const int shift = index / kSub - 1;
    const std::uint64_t mantissa = static_cast<std::uint64_t>(index % kSub);
    const std::uint64_t low = (std::uint64_t{kSub} | mantissa) << shift;
    return low + ((std::uint64_t{1} << shift) - 1);
}

void Histogram::record(std::int64_t value)
{
    const std::uint64_t v = value < 0 ? 0 : static_cast<std::uint64_t>(value);
    ++buckets_[static_cast<std::size_t>(index_of(v))];
    ++count_;
    sum_ += static_cast<long double>(v);
    min_ = std::min(min_, static_cast<std::int64_t>(v));
    max_ = std::max(max_, static_cast<std::int64_t>(v));
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

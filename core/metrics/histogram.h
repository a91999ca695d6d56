// SPDX-License-Identifier: Apache-2.0
//
// Histogram: latency distribution in bounded memory, log-linear like
// HdrHistogram: each power of two is split into 128 linear buckets, so a
// recorded value is known within 1/128 (0.8%) and percentiles are exact to
// that precision, whatever the run length.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <vector>

namespace wb {

// One step of a histogram's cumulative distribution: the fraction of
// samples at or below `value`.
struct CdfStep {
    std::int64_t value;
    double fraction;
};

class Histogram {
public:
    void record(std::int64_t value)  // negative values count as 0
    {
        const std::uint64_t v = value < 0 ? 0 : static_cast<std::uint64_t>(value);
        ++buckets_[static_cast<std::size_t>(index_of(v))];
        ++count_;
        sum_ += v;
        min_ = std::min(min_, static_cast<std::int64_t>(v));
        max_ = std::max(max_, static_cast<std::int64_t>(v));
    }
    std::uint64_t count() const { return count_; }
    std::int64_t min() const { return count_ ? min_ : 0; }
    std::int64_t max() const { return max_; }
    double mean() const
    {
        return count_ ? static_cast<double>(static_cast<long double>(sum_) / static_cast<long double>(count_)) : 0.0;
    }
    // The smallest bucket value v with at least q of the samples <= v (q in
    // [0, 1]); the bucket's upper bound, clamped to the largest value seen.
    std::int64_t percentile(double q) const;
    void merge(const Histogram& other);
    // The cumulative distribution as the histogram knows it: one step per
    // non-empty bucket at the bucket's upper bound (clamped to the largest
    // value seen, as percentile() is), in increasing order, the last at
    // fraction 1. A histogram of one value is one step at that value.
    std::vector<CdfStep> cdf_steps() const;

    // The bucket of a value, and the largest value of a bucket: public for
    // records that keep only the buckets they use (a workload's per-task
    // latencies). Values below 128 get one bucket each; above, the bucket is
    // the top 7 bits after the leading one, within the value's power of two.
    static int index_of(std::uint64_t v)
    {
        if (v < kSub)
            return static_cast<int>(v);
        const int msb = 63 - std::countl_zero(v);
        const int shift = msb - kSubBits;
        const int mantissa = static_cast<int>((v >> shift) & (kSub - 1));
        return (shift + 1) * kSub + mantissa;
    }
    static std::uint64_t upper_bound_of(int index);

private:
    static constexpr int kSubBits = 7;
    static constexpr int kSub = 1 << kSubBits;
    static constexpr int kBuckets = (64 - kSubBits + 1) * kSub;

    std::array<std::uint64_t, kBuckets> buckets_{};
    std::uint64_t count_ = 0;
    // Exact: a long double sum (what mean() divides) is exact only below
    // 2^64, and adding to it costs x87 conversions on every record.
    __extension__ using Sum = unsigned __int128;
    Sum sum_ = 0;
    std::int64_t min_ = INT64_MAX;
    std::int64_t max_ = 0;
};

}  // namespace wb

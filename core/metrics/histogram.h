// SPDX-License-Identifier: Apache-2.0
//
// Histogram: latency distribution in bounded memory, log-linear like
// HdrHistogram: each power of two is split into 128 linear buckets, so a
// recorded value is known within 1/128 (0.8%) and percentiles are exact to
// that precision, whatever the run length.
#pragma once

#include <array>
#include <cstdint>

namespace wb {

class Histogram {
public:
    void record(std::int64_t value);  // negative values count as 0
    std::uint64_t count() const { return count_; }
    std::int64_t min() const { return count_ ? min_ : 0; }
    std::int64_t max() const { return max_; }
    double mean() const { return count_ ? static_cast<double>(sum_ / static_cast<long double>(count_)) : 0.0; }
    // The smallest bucket value v with at least q of the samples <= v (q in
    // [0, 1]); the bucket's upper bound, clamped to the largest value seen.
    std::int64_t percentile(double q) const;
    void merge(const Histogram& other);

private:
    static constexpr int kSubBits = 7;
    static constexpr int kSub = 1 << kSubBits;
    static constexpr int kBuckets = (64 - kSubBits + 1) * kSub;
    static int index_of(std::uint64_t v);
    static std::uint64_t upper_bound_of(int index);

    std::array<std::uint64_t, kBuckets> buckets_{};
    std::uint64_t count_ = 0;
    long double sum_ = 0;
    std::int64_t min_ = INT64_MAX;
    std::int64_t max_ = 0;
};

}  // namespace wb

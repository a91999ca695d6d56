// SPDX-License-Identifier: Apache-2.0
#include "engine/idle_governor.h"

#include <limits>

namespace wb {

std::optional<std::int64_t> menu_typical_interval(const std::array<std::int64_t, kIdleIntervals>& intervals_ns)
{
    // The kernel works in whole microseconds; so do we, for the same
    // thresholds (a variance of 400 us^2).
    std::array<std::int64_t, kIdleIntervals> us{};
    for (int i = 0; i < kIdleIntervals; ++i)
        us[static_cast<std::size_t>(i)] = intervals_ns[static_cast<std::size_t>(i)] / 1000;
    return menu_typical_interval_us(us);
}

std::optional<std::int64_t> menu_typical_interval_us(const std::array<std::int64_t, kIdleIntervals>& us)
{
    std::int64_t thresh = std::numeric_limits<std::int64_t>::max();
    for (;;) {
        std::int64_t sum = 0;
        std::int64_t max = 0;
        int divisor = 0;
        for (std::int64_t v : us) {
            if (v > thresh)
                continue;
            sum += v;
            ++divisor;
            if (v > max)
                max = v;
        }
        if (max == 0)
            return std::nullopt;
        const std::int64_t avg = sum / divisor;
        double variance = 0;
        for (std::int64_t v : us) {
            if (v > thresh)
                continue;
            const double diff = static_cast<double>(v - avg);
            variance += diff * diff;
        }
        variance /= divisor;
        const double avg_sq = static_cast<double>(avg) * static_cast<double>(avg);
        if ((avg_sq > 36 * variance && divisor * 4 >= kIdleIntervals * 3) || variance <= 400)
            return avg * 1000;
        if (divisor * 4 <= kIdleIntervals * 3)
            return std::nullopt;
        thresh = max - 1;  // drop the longest and look again
    }
}

}  // namespace wb

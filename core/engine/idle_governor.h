// SPDX-License-Identifier: Apache-2.0
//
// The menu cpuidle governor's prediction of the next idle period from the
// last eight (drivers/cpuidle/governors/menu.c, get_typical_interval()):
// the average of the recent periods counts as typical when they agree —
// standard deviation at most 20 us, or the average above six standard
// deviations — and long outliers are dropped one at a time, down to the
// shortest six, until they do. A CPU whose pattern is "many short idles,
// one long pause" thus keeps predicting short ones and stays in a shallow
// state; the long pause alone does not send it deep.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

namespace wb {

inline constexpr int kIdleIntervals = 8;

// The typical idle period in ns, or nothing when the history has no
// pattern (the governor then relies on the next timer).
std::optional<std::int64_t> menu_typical_interval(const std::array<std::int64_t, kIdleIntervals>& intervals_ns);
// The same from the periods in whole microseconds (ns / 1000).
std::optional<std::int64_t> menu_typical_interval_us(const std::array<std::int64_t, kIdleIntervals>& intervals_us);

// One CPU's last idle periods, as the governor remembers them, and its
// prediction from them. A CPU in a steady rhythm (a pipe's ping-pong) idles
// for the same whole number of microseconds time after time, so the
// typical-interval search is redone only when a period in whole us changes;
// the mean is kept as an exact running sum.
class IdleHistory {
public:
    explicit IdleHistory(std::int64_t initial_ns = 0) { fill(initial_ns); }

    void fill(std::int64_t ns)
    {
        ns_.fill(ns);
        us_.fill(ns / 1000);
        sum_ns_ = ns * kIdleIntervals;
        next_ = 0;
        memo_valid_ = false;
    }

    void add(std::int64_t ns)
    {
        const auto i = static_cast<std::size_t>(next_);
        sum_ns_ += ns - ns_[i];
        ns_[i] = ns;
        const std::int64_t us = ns / 1000;
        if (us != us_[i]) {
            us_[i] = us;
            memo_valid_ = false;
        }
        next_ = next_ + 1 == kIdleIntervals ? 0 : next_ + 1;
    }

    // The typical interval when there is one, else the mean of the periods.
    std::int64_t predicted_ns()
    {
        if (!memo_valid_) {
            memo_typical_ = menu_typical_interval_us(us_);
            memo_valid_ = true;
        }
        return memo_typical_ ? *memo_typical_ : sum_ns_ / kIdleIntervals;
    }

    const std::array<std::int64_t, kIdleIntervals>& periods_ns() const { return ns_; }

private:
    std::array<std::int64_t, kIdleIntervals> ns_{};
    std::array<std::int64_t, kIdleIntervals> us_{};
    std::int64_t sum_ns_ = 0;
    int next_ = 0;
    bool memo_valid_ = false;
    std::optional<std::int64_t> memo_typical_;
};

}  // namespace wb

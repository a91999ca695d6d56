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

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// Axis ranges for live charts: an axis that grows by a factor when a value
// passes its end is rescaled O(log n) times over a run instead of once per
// point, which is what keeps appending cheap (a rescale relayouts the chart).
#pragma once

#include <cmath>

namespace wb {

// The new end of an axis [0, end] that must show `value`: `end` unchanged
// if it does, else the next "nice" number (1, 2 or 5 x 10^k) at or above
// value x growth.
inline double grown_axis_end(double end, double value, double growth = 1.5)
{
    if (!(value > end))
        return end;
    const double wanted = value * growth;
    const double decade = std::pow(10.0, std::floor(std::log10(wanted)));
    for (double step : {1.0, 2.0, 5.0, 10.0})
        if (step * decade >= wanted)
            return step * decade;
    return 10 * decade;
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// A machine's cost (nanoseconds in its cost table) as simulated time, for
// the engine's files that charge one.
#pragma once

#include <cstdint>

#include "base/sim_time.h"
#include "topology/machine.h"

namespace wb {

inline Time cost_time(const Machine& m, Cost c)
{
    return Time::ns(static_cast<std::int64_t>(m.costs[c]));
}

}  // namespace wb

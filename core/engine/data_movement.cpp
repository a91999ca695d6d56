// SPDX-License-Identifier: Apache-2.0
#include "engine/data_movement.h"

#include <cmath>

#include "topology/machine.h"

namespace wb {

Time data_move_time(const CostModel& costs, DistanceClass d, std::uint64_t bytes)
{
    if (d == DistanceClass::SameCpu || bytes == 0)
        return Time();
    const LinePath& path = kLinePath[static_cast<std::size_t>(d)];
    // Bandwidth is stored in GB/s, which is bytes per ns.
    const double ns = costs[path.latency] + static_cast<double>(bytes) / costs[path.bandwidth];
    return Time::ns(static_cast<std::int64_t>(ns + 0.5));  // rounded (ns > 0): llround() was a libm call a pipe read
}

Time data_move_time(const Machine& m, CpuId written_on, CpuId reader, std::uint64_t bytes)
{
    return data_move_time(m.costs, distance_class(m, written_on, reader), bytes);
}

}  // namespace wb

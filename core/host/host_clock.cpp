// SPDX-License-Identifier: Apache-2.0
#include "host/host_clock.h"

#include <sched.h>
#include <time.h>

#include <cstring>

namespace wb::host {

static_assert(sizeof(cpu_set_t) <= 128, "AffinityGuard's buffer holds a cpu_set_t");

std::int64_t now_ns()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

bool pin_this_thread(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(static_cast<unsigned>(cpu), &set);
    return sched_setaffinity(0, sizeof set, &set) == 0;
}

AffinityGuard::AffinityGuard()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    saved_ = sched_getaffinity(0, sizeof set, &set) == 0;
    std::memcpy(mask_, &set, sizeof set);
}

AffinityGuard::~AffinityGuard()
{
    if (!saved_)
        return;
    cpu_set_t set;
    std::memcpy(&set, mask_, sizeof set);
    sched_setaffinity(0, sizeof set, &set);
}

}  // namespace wb::host

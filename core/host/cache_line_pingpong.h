// SPDX-License-Identifier: Apache-2.0
//
// Core-to-core latency (c2clat, Intel MLC --c2c_latency): two threads on
// two CPUs take turns writing one cache line, each spinning until it sees
// the other's write. A round trip moves the line there and back, so half of
// it is one transfer of a modified line between the two CPUs' caches.
#pragma once

#include <cstdint>

#include "host/timed_samples.h"

namespace wb::host {

// Sampled::ns_per_op is one round trip (two transfers).
Sampled measure_cache_line_round_trip(int cpu_a, int cpu_b, std::int64_t budget_ns);

}  // namespace wb::host

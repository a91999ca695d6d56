// SPDX-License-Identifier: Apache-2.0
//
// perf bench sched pipe, pinned: two tasks hand a 4-byte int back and forth
// over two pipes, each blocking in read() until the other writes. Both on
// one CPU (taskset -c N) it times two same-CPU handoffs a round trip; on
// two CPUs, two cross-CPU wakeups.
#pragma once

#include <cstdint>

#include "host/timed_samples.h"

namespace wb::host {

enum class PipePeer {
    Process,  // fork(): the two sides are separate address spaces (perf's default)
    Thread,   // std::thread: one address space (perf's -T)
};

// The first side runs on kernel CPU `cpu_a`, the second on `cpu_b` (the
// same CPU for the pinned case). Sampled::ns_per_op is one round trip;
// Sampled::ops counts every round trip run, warm-up included, so that a
// caller counting interrupts around the call can divide by it.
Sampled measure_pipe_round_trip(int cpu_a, int cpu_b, PipePeer peer, std::int64_t budget_ns);

}  // namespace wb::host

// SPDX-License-Identifier: Apache-2.0
//
// The two things every host benchmark needs: a clock and a way to stay on
// one CPU. Linux only (sched_setaffinity, CLOCK_MONOTONIC).
#pragma once

#include <cstdint>

namespace wb::host {

// CLOCK_MONOTONIC in nanoseconds: the vDSO serves it, no system call.
std::int64_t now_ns();

// Pins the calling thread to kernel CPU `cpu`; false if the kernel refused
// (the CPU is offline or outside the cpuset).
bool pin_this_thread(int cpu);

// The calling thread's affinity, saved on construction and put back on
// destruction, so that a benchmark leaves its caller where it found it.
class AffinityGuard {
public:
    AffinityGuard();
    ~AffinityGuard();
    AffinityGuard(const AffinityGuard&) = delete;
    AffinityGuard& operator=(const AffinityGuard&) = delete;

private:
    alignas(8) unsigned char mask_[128];  // a cpu_set_t (1024 CPUs)
    bool saved_ = false;
};

}  // namespace wb::host

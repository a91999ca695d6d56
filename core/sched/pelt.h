// SPDX-License-Identifier: Apache-2.0
//
// PELT, per-entity load tracking (kernel/sched/pelt.c): geometric averages of
// how much a task or runqueue was runnable and running, in 1024-ns periods
// of ~1 ms whose weight halves every 32 periods. wake_affine_weight reads
// load_avg; SIS_UTIL, the asym-capacity path and the load balancer read
// util_avg and util_est.
#pragma once

#include <algorithm>
#include <cstdint>

namespace wb {

inline constexpr int kLoadAvgPeriod = 32;             // periods until a contribution halves
inline constexpr std::uint32_t kLoadAvgMax = 47742;   // the sum of the full geometric series
inline constexpr std::uint32_t kPeltPeriodUs = 1024;  // one period, in PELT's 1024-ns "us"
inline constexpr unsigned kPeltCapacityShift = 10;    // SCHED_CAPACITY_SHIFT: runnable and util sums are x1024

struct SchedAvg {
    std::uint64_t last_update_time = 0;  // ns, in the runqueue's PELT clock
    std::uint64_t load_sum = 0;
    std::uint64_t runnable_sum = 0;
    std::uint32_t util_sum = 0;
    std::uint32_t period_contrib = 0;  // the part of the current period already counted, in 1024-ns units
    unsigned long load_avg = 0;
    unsigned long runnable_avg = 0;
    unsigned long util_avg = 0;
    unsigned int util_est = 0;  // UTIL_EST: EWMA of util_avg at dequeue (tasks); sum of queued tasks' (runqueues)
};

// Accumulates `now - last_update_time` of history with the given state and
// refreshes the averages: `load` is the weight while runnable (0 when not),
// `runnable` and `running` 1 or 0 (a runqueue passes its counts). `scale`
// is capacity x speed / 1024, so a small or slow CPU accrues utilisation
// more slowly (frequency and capacity invariance). Returns whether a period
// boundary was crossed (the averages changed).
inline bool update_sched_avg(SchedAvg& sa, std::uint64_t now, unsigned long load, unsigned long runnable, int running,
                             double scale = 1.0);

// The utilisation a running entity accrues in `contrib` 1024-ns units on a
// CPU of this scale (capacity x speed / 1024, taken within [0, 1]).
inline std::uint32_t pelt_scaled_contrib(std::uint32_t contrib, double scale)
{
    // Full capacity at full speed, the common case, tested first.
    if (scale >= 1.0)
        return contrib;
    return static_cast<std::uint32_t>(static_cast<double>(contrib) * std::max(scale, 0.0));
}

// update_sched_avg() across a period boundary: `delta` 1024-ns units since
// the last update, which end past the current period.
bool update_sched_avg_delta(SchedAvg& sa, std::uint64_t delta, unsigned long load, unsigned long runnable, int running,
                            double scale);

// Adds `contrib` 1024-ns units of the entity's state to its sums. Running
// and runnable are subsets of "has load": an entity dequeued but still
// rq->curr (on its way out) contributes nothing.
[[gnu::always_inline]] inline void accrue_pelt_sums(SchedAvg& sa, std::uint32_t contrib, unsigned long load,
                                                    unsigned long runnable, int running, double scale)
{
    if (!load)
        return;
    sa.load_sum += static_cast<std::uint64_t>(load) * contrib;
    if (runnable)
        sa.runnable_sum += (static_cast<std::uint64_t>(runnable) * contrib) << kPeltCapacityShift;
    // Invariance: a CPU of half the capacity (or at half speed) does half
    // the work in the same time, so it accrues half the utilisation.
    if (running)
        sa.util_sum += pelt_scaled_contrib(contrib, scale) << kPeltCapacityShift;
}

// Inline, because most updates stay within the current ~1 ms period (the
// sums grow, the averages wait), and a task and its runqueue are brought to
// the same `now` one after the other, the second of two updates in one
// event stopping at the first test; only a period boundary needs the decay.
// Always: GCC would otherwise keep one out-of-line copy for the fair class's
// many callers, and the call costs as much as the update.
[[gnu::always_inline]] inline bool update_sched_avg(SchedAvg& sa, std::uint64_t now, unsigned long load,
                                                    unsigned long runnable, int running, double scale)
{
    // One signed compare settles both early returns: less than one
    // 1024-ns unit since the last update, or (never in the simulator) time
    // going backwards, where we resync rather than wrap. PELT clocks stay
    // far below 2^63 ns, so the difference never overflows.
    const auto elapsed = static_cast<std::int64_t>(now - sa.last_update_time);
    if (elapsed < 1024) {
        if (elapsed < 0)
            sa.last_update_time = now;
        return false;
    }
    const std::uint64_t delta = static_cast<std::uint64_t>(elapsed) >> 10;  // 1024 ns is PELT's "microsecond"
    if (delta + sa.period_contrib >= kPeltPeriodUs)
        return update_sched_avg_delta(sa, delta, load, runnable, running, scale);
    sa.last_update_time += delta << 10;
    const auto contrib = static_cast<std::uint32_t>(delta);
    sa.period_contrib += contrib;
    accrue_pelt_sums(sa, contrib, load, runnable, running, scale);
    return false;
}

// y^n for n periods, y = 2^(-1/32), in the kernel's 32-bit fixed point.
std::uint64_t decay_load(std::uint64_t value, std::uint64_t periods);

}  // namespace wb

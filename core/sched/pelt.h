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
// `runnable` and `running` 1 or 0 (a runqueue passes its counts). `now` is
// the runqueue's PELT clock (PeltClock below), which is where capacity
// invariance comes in: every sum accrues in that clock's time, as in the
// kernel's ___update_load_sum(), with no scaling of its own. Returns whether
// a period boundary was crossed (the averages changed).
inline bool update_sched_avg(SchedAvg& sa, std::uint64_t now, unsigned long load, unsigned long runnable, int running);

// update_sched_avg() across a period boundary: `delta` 1024-ns units since
// the last update, which end past the current period.
bool update_sched_avg_delta(SchedAvg& sa, std::uint64_t delta, unsigned long load, unsigned long runnable, int running);

// Adds `contrib` 1024-ns units of the entity's state to its sums
// (accumulate_sum()'s last step). Running and runnable are subsets of "has
// load": an entity dequeued but still rq->curr (on its way out) contributes
// nothing.
[[gnu::always_inline]] inline void accrue_pelt_sums(SchedAvg& sa, std::uint32_t contrib, unsigned long load,
                                                    unsigned long runnable, int running)
{
    if (!load)
        return;
    sa.load_sum += static_cast<std::uint64_t>(load) * contrib;
    if (runnable)
        sa.runnable_sum += (static_cast<std::uint64_t>(runnable) * contrib) << kPeltCapacityShift;
    if (running)
        sa.util_sum += contrib << kPeltCapacityShift;
}

// Inline, because most updates stay within the current ~1 ms period (the
// sums grow, the averages wait), and a task and its runqueue are brought to
// the same `now` one after the other, the second of two updates in one
// event stopping at the first test; only a period boundary needs the decay.
// Always: GCC would otherwise keep one out-of-line copy for the fair class's
// many callers, and the call costs as much as the update.
[[gnu::always_inline]] inline bool update_sched_avg(SchedAvg& sa, std::uint64_t now, unsigned long load,
                                                    unsigned long runnable, int running)
{
    // One signed compare settles both early returns: less than one
    // 1024-ns unit since the last update, or time going backwards (a task
    // aged on one runqueue's PELT clock and compared with another's), where
    // we resync rather than wrap. PELT clocks stay far below 2^63 ns, so the
    // difference never overflows.
    const auto elapsed = static_cast<std::int64_t>(now - sa.last_update_time);
    if (elapsed < 1024) {
        if (elapsed < 0)
            sa.last_update_time = now;
        return false;
    }
    const std::uint64_t delta = static_cast<std::uint64_t>(elapsed) >> 10;  // 1024 ns is PELT's "microsecond"
    if (delta + sa.period_contrib >= kPeltPeriodUs)
        return update_sched_avg_delta(sa, delta, load, runnable, running);
    sa.last_update_time += delta << 10;
    const auto contrib = static_cast<std::uint32_t>(delta);
    sa.period_contrib += contrib;
    accrue_pelt_sums(sa, contrib, load, runnable, running);
    return false;
}

// --- The runqueue's PELT clock -------------------------------------------------------
//
// clock_pelt (kernel/sched/pelt.h: update_rq_clock_pelt(),
// update_idle_rq_clock_pelt(), rq_clock_pelt()). While a CPU runs a task,
// its PELT clock advances by delta x arch_scale_cpu_capacity() x
// arch_scale_freq_capacity() >> 20: a CPU of half the capacity takes twice
// the wall time to do a period's worth of work, and is charged one period.
// Every sum the runqueue and its tasks keep (load, runnable, util) accrues
// in this time. When the idle task takes over, the clock jumps forward to
// clock_task, so what the CPU did not need at full capacity shows as idle
// time, and the signals decay at wall speed while it idles. A runqueue
// whose util_sum was at its ceiling had no idle time at full capacity to
// give back: the jump is then kept in lost_idle_time, which rq_clock_pelt()
// subtracts, so the clock goes on from where it was.
//
// PELT timestamps run one period ahead of simulated time: a
// last_update_time of 0 means "not attached to a runqueue" (new or
// migrated), and a run starts at time 0.
inline constexpr std::uint64_t kPeltClockOffset = std::uint64_t{kPeltPeriodUs} << 10;
inline constexpr unsigned kSchedCapacityScale = 1u << kPeltCapacityShift;  // SCHED_CAPACITY_SCALE

// update_idle_rq_clock_pelt()'s test of a fully used runqueue: the upper
// bound of a util_sum, ((LOAD_AVG_MAX - 1024) << SCHED_CAPACITY_SHIFT) -
// LOAD_AVG_MAX, without the position in the current period.
inline constexpr std::uint32_t kPeltFullUtilSum = ((kLoadAvgMax - 1024) << kPeltCapacityShift) - kLoadAvgMax;

struct PeltClock {
    // arch_scale_cpu_capacity() x arch_scale_freq_capacity() >> 10, fixed for
    // a run (docs/model.md, "speed"). At SCHED_CAPACITY_SCALE the clock is
    // clock_task itself and none of the fields below is kept.
    unsigned int capacity = kSchedCapacityScale;
    std::uint64_t clock_pelt = kPeltClockOffset;  // rq->clock_pelt
    std::uint64_t stamp = kPeltClockOffset;       // the clock_task clock_pelt was last brought to
    std::uint64_t lost_idle_time = 0;             // rq->lost_idle_time
};

// The slow path of rq_clock_pelt(): a CPU below full capacity.
std::uint64_t advance_clock_pelt(PeltClock& c, std::uint64_t clock_task, bool idle, std::uint32_t util_sum);

// update_rq_clock_pelt() then rq_clock_pelt(): brings the clock to
// `clock_task` (simulated ns + kPeltClockOffset) and returns the PELT time
// to update the runqueue's signals to. `idle` says whether the idle task
// ran since the clock was last brought up to date (the caller brings it up
// to date before the runqueue's current task changes, as the kernel's
// update_rq_clock() precedes every switch), `util_sum` is the runqueue's
// (rq->cfs.avg.util_sum; the model has no RT or deadline class).
//
// The kernel advances clock_pelt by each update_rq_clock()'s delta, scaled
// and truncated; here by the delta since the clock was last read, which is
// the same sum to within a nanosecond per update, far below PELT's 1024-ns
// unit. The jump to clock_task, which the kernel makes when the idle task
// is picked (update_idle_rq_clock_pelt()), is made here at the first read
// after the idle task has run for any time at all, with the same amount
// (clock_task - clock_pelt as of the switch) and the same test of util_sum
// (still as of the switch: every update of the runqueue's signals reads
// this clock first). A CPU that goes idle and pulls a task in its newidle
// balance in the same instant makes no jump, as in the kernel, where the
// pull comes before the idle task would be picked.
[[gnu::always_inline]] inline std::uint64_t rq_clock_pelt(PeltClock& c, std::uint64_t clock_task, bool idle,
                                                          std::uint32_t util_sum)
{
    // Full capacity, the common case: clock_pelt is clock_task, and
    // lost_idle_time stays 0, as the jump to clock_task is always 0.
    if (c.capacity >= kSchedCapacityScale)
        return clock_task;
    return advance_clock_pelt(c, clock_task, idle, util_sum);
}

// y^n for n periods, y = 2^(-1/32), in the kernel's 32-bit fixed point.
std::uint64_t decay_load(std::uint64_t value, std::uint64_t periods);

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// PELT accumulation with the kernel's integer arithmetic (kernel/sched/pelt.c,
// the tables of kernel/sched/sched-pelt.h), so that ties in wake_affine_weight
// come out as the kernel's do.
//
// Invariance as in the kernel: the sums accrue in the runqueue's PELT
// clock, which a CPU below full capacity slows while busy and resyncs to
// clock_task when it idles (advance_clock_pelt() below, PeltClock in
// pelt.h). An always-running task therefore reaches util 1024 on any CPU,
// and a task that leaves idle time capacity x duty cycle, in load and
// runnable as well as util.
#include "sched/pelt.h"

#include <algorithm>
#include <array>

namespace wb {

namespace {

// y^n for n = 0..31 in 0.32 fixed point, y^32 = 1/2: (2^32 - 1) * y^n, truncated.
constexpr std::array<std::uint32_t, kLoadAvgPeriod> kRunnableAvgYNInv = {
    0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6, 0xe0ccdeeb, 0xdbfbb796,
    0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85, 0xc5672a10, 0xc12c4cc9, 0xbd08a39e, 0xb8fbaf46,
    0xb504f333, 0xb123f581, 0xad583ee9, 0xa9a15ab4, 0xa5fed6a9, 0xa2704302, 0x9ef5325f, 0x9b8d39b9,
    0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a, 0x8b95c1e3, 0x88980e80, 0x85aac367, 0x82cd8698,
};

std::uint64_t mul_u64_u32_shr(std::uint64_t a, std::uint32_t mul, unsigned shift)
{
    __extension__ using u128 = unsigned __int128;
    return static_cast<std::uint64_t>((static_cast<u128>(a) * mul) >> shift);
}

// d1 (the rest of the last incomplete period) decayed by p periods, plus the
// p-1 full periods in between, plus d3 (the part of the current period).
std::uint32_t accumulate_pelt_segments(std::uint64_t periods, std::uint32_t d1, std::uint32_t d3)
{
    const auto c1 = static_cast<std::uint32_t>(decay_load(d1, periods));
    const auto c2 = static_cast<std::uint32_t>(kLoadAvgMax - decay_load(kLoadAvgMax, periods) - 1024);
    return c1 + c2 + d3;
}

// accumulate_sum(): `delta` is in 1024-ns units. Returns the number of
// period boundaries crossed.
std::uint64_t accumulate_sum(std::uint64_t delta, SchedAvg& sa, unsigned long load, unsigned long runnable, int running)
{
    auto contrib = static_cast<std::uint32_t>(delta);  // no boundary crossed: all of delta is new
    delta += sa.period_contrib;
    const std::uint64_t periods = delta / kPeltPeriodUs;

    if (periods) {
        sa.load_sum = decay_load(sa.load_sum, periods);
        sa.runnable_sum = decay_load(sa.runnable_sum, periods);
        sa.util_sum = static_cast<std::uint32_t>(decay_load(sa.util_sum, periods));
        delta %= kPeltPeriodUs;
        // With load 0, runnable and running are 0 as well and contrib is unused.
        if (load)
            contrib =
                accumulate_pelt_segments(periods, kPeltPeriodUs - sa.period_contrib, static_cast<std::uint32_t>(delta));
    }
    sa.period_contrib = static_cast<std::uint32_t>(delta);

    accrue_pelt_sums(sa, contrib, load, runnable, running);
    return periods;
}

}  // namespace

std::uint64_t decay_load(std::uint64_t value, std::uint64_t periods)
{
    if (periods > static_cast<std::uint64_t>(kLoadAvgPeriod) * 63)
        return 0;
    auto n = static_cast<unsigned>(periods);
    // y^n = (1/2)^(n/32) * y^(n%32): a shift and one table multiply. Note the
    // table's y^0 is 2^32 - 1, so even whole halvings lose one unit
    // (decay_load(1024, 32) is 511, as in the kernel).
    if (n >= static_cast<unsigned>(kLoadAvgPeriod)) {
        value >>= n / kLoadAvgPeriod;
        n %= kLoadAvgPeriod;
    }
    return mul_u64_u32_shr(value, kRunnableAvgYNInv[n], 32);
}

[[gnu::hot]] bool update_sched_avg_delta(SchedAvg& sa, std::uint64_t delta, unsigned long load, unsigned long runnable,
                                         int running)
{
    sa.last_update_time += delta << 10;

    // Running and runnable are subsets of "has load": an entity dequeued but
    // still rq->curr (on its way out) contributes nothing.
    if (!load)
        runnable = running = 0;

    if (!accumulate_sum(delta, sa, load, runnable, running))
        return false;

    // The maximum a sum can hold depends on how far into the current period
    // we are; dividing by it avoids a dip as each period starts.
    const std::uint32_t divider = kLoadAvgMax - 1024 + sa.period_contrib;
    sa.load_avg = static_cast<unsigned long>(sa.load_sum / divider);
    sa.runnable_avg = static_cast<unsigned long>(sa.runnable_sum / divider);
    sa.util_avg = sa.util_sum / divider;
    return true;
}

std::uint64_t advance_clock_pelt(PeltClock& c, std::uint64_t clock_task, bool idle, std::uint32_t util_sum)
{
    // Nothing has run since the last read (or time went backwards): the
    // clock stays. This is also what keeps a same-instant newidle pull from
    // jumping the clock.
    if (clock_task <= c.stamp)
        return c.clock_pelt - c.lost_idle_time;
    if (idle) {
        // The idle task took over at c.stamp (update_idle_rq_clock_pelt()):
        // a runqueue at its util ceiling had no idle time to give back, so
        // the jump is kept as lost idle time and rq_clock_pelt() goes on from
        // where it was. After the first jump the gap is 0, so later reads
        // while idle add nothing to lost_idle_time.
        if (util_sum >= kPeltFullUtilSum)
            c.lost_idle_time += c.stamp - c.clock_pelt;
        c.clock_pelt = clock_task;
    } else {
        // cap_scale(delta, capacity): the work done at full capacity in delta.
        c.clock_pelt += (clock_task - c.stamp) * c.capacity >> kPeltCapacityShift;
    }
    c.stamp = clock_task;
    return c.clock_pelt - c.lost_idle_time;
}

}  // namespace wb

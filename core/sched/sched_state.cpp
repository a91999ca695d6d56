// SPDX-License-Identifier: Apache-2.0
#include "sched/sched_state.h"

#include <algorithm>
#include <bit>

#include "sched/eevdf.h"

namespace wb {

namespace {

std::uint64_t jiffies_at(std::int64_t ns, double hz)
{
    return static_cast<std::uint64_t>(static_cast<double>(ns) * hz / 1e9);
}

}  // namespace

std::uint64_t SchedState::jiffies_uncached() const
{
    const double rate = machine->costs[Cost::hz];  // the exact HZ, not the member's whole number
    const std::int64_t t = now.ns();
    const std::uint64_t value = jiffies_at(t, rate);
    if (!(rate >= 1) || t < 0)
        return value;
    // The formula is monotonic in time, so the value holds from now until
    // the first ns that gives more: binary search for it within two
    // periods (rounding moves a boundary by a few ns at most).
    std::int64_t lo = t;  // gives value
    std::int64_t hi = t + 2 * static_cast<std::int64_t>(1e9 / rate) + 2;
    if (jiffies_at(hi, rate) <= value)
        return value;
    while (hi - lo > 1) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        (jiffies_at(mid, rate) > value ? hi : lo) = mid;
    }
    jiffy_cache = {t, static_cast<std::uint64_t>(hi - t), value};
    return value;
}

[[gnu::hot]] std::int64_t SchedState::base_slice() const
{
    return tunables.base_slice_normalized * slice_factor;
}

SchedState make_sched_state(const Machine& machine, const SchedDomains& domains, const FeatureSet& feats)
{
    SchedState s;
    s.machine = &machine;
    s.domains = &domains;
    s.feats = feats;
    s.nr_cpus = machine.nr_cpus();
    // tunable_scaling = LOG: factor 1 + ilog2(min(online CPUs, 8)).
    const auto scaled_cpus = static_cast<unsigned int>(std::min(machine.nr_cpus(), 8));
    s.slice_factor = 1 + (std::bit_width(scaled_cpus) - 1);
    const double hz = machine.costs[Cost::hz];
    const auto h = static_cast<std::int64_t>(hz > 0 ? hz : 250.0);
    s.tick_nsec = (1000000000 + h / 2) / h;
    s.hz = static_cast<std::uint64_t>(hz);
    s.rqs.resize(static_cast<std::size_t>(machine.nr_cpus()));
    for (const CpuTopo& c : machine.cpus) {
        Rq& rq = s.rqs[static_cast<std::size_t>(c.cpu)];
        rq.cpu = c.cpu;
        rq.cpu_capacity = c.capacity;
        rq.cpu_capacity_orig = c.capacity;
        rq.pelt_clock.capacity = pelt_capacity(s, c.cpu);
        rq.avg_idle = 2 * s.tunables.migration_cost;
        rq.max_idle_balance_cost = s.tunables.migration_cost;
    }
    s.shared.resize(domains.domains().size());
    for (std::size_t id = 0; id < domains.domains().size(); ++id) {
        s.shared[id].nr_busy_cpus = domains.domains()[id].span_weight;
        // A run starts on a machine that has been up and idle for a while, so
        // periodic balancing has already set nr_idle_scan for an idle LLC:
        // scan it all. (Right after a domain rebuild the kernel has 0 here,
        // which disables the scan until the first LLC-level balance.)
        if (domains.domains()[id].has_shared)
            s.shared[id].nr_idle_scan = domains.domains()[id].span_weight;
    }
    return s;
}

}  // namespace wb

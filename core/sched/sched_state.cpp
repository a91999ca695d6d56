// SPDX-License-Identifier: Apache-2.0
#include "sched/sched_state.h"

#include <algorithm>
#include <bit>

namespace wb {

std::uint64_t SchedState::jiffies() const
{
    const double hz = machine->costs[Cost::hz];
    return static_cast<std::uint64_t>(static_cast<double>(now.ns()) * hz / 1e9);
}

std::int64_t SchedState::base_slice() const
{
    // tunable_scaling = LOG: factor 1 + ilog2(min(online CPUs, 8)).
    const unsigned int n = static_cast<unsigned int>(std::min(machine->nr_cpus(), 8));
    const int factor = 1 + (std::bit_width(n) - 1);
    return tunables.base_slice_normalized * factor;
}

SchedState make_sched_state(const Machine& machine, const SchedDomains& domains, const FeatureSet& feats)
{
    SchedState s;
    s.machine = &machine;
    s.domains = &domains;
    s.feats = feats;
    s.rqs.resize(static_cast<std::size_t>(machine.nr_cpus()));
    for (const CpuTopo& c : machine.cpus) {
        Rq& rq = s.rqs[static_cast<std::size_t>(c.cpu)];
        rq.cpu = c.cpu;
        rq.cpu_capacity = c.capacity;
        rq.cpu_capacity_orig = c.capacity;
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

// SPDX-License-Identifier: Apache-2.0
//
// SchedState: the simulated kernel's state that the fair class reads and
// writes: runqueues, tasks, the shared per-domain objects, features and
// tunables, over a frozen machine and its sched domains.
#pragma once

#include <cstdint>
#include <vector>

#include "base/sim_time.h"
#include "sched/features.h"
#include "sched/rq.h"
#include "sched/task.h"
#include "topology/machine.h"
#include "topology/sched_domains.h"

namespace wb {

class PlacementPolicy;

// struct sched_domain_shared, for domains with has_shared.
struct SharedDomainState {
    bool has_idle_cores = false;  // the idle-cores hint: real state with its own set/clear rules, never derived
    int nr_idle_scan = 0;         // SIS_UTIL budget; 0 (scan disabled) until the first LLC-level balance
    int nr_busy_cpus = 0;
};

// The kernel's tunables (§13.2 of the reference), in ns where they are times.
struct Tunables {
    std::int64_t base_slice_normalized = 700000;  // sysctl_sched_base_slice before CPU-count scaling
    std::int64_t migration_cost = 500000;         // sysctl_sched_migration_cost
    int nr_migrate = 32;
};

struct SchedState {
    const Machine* machine = nullptr;
    const SchedDomains* domains = nullptr;
    std::vector<Rq> rqs;                    // one per CPU
    std::vector<Task> tasks;                // indexed by TaskId
    std::vector<SharedDomainState> shared;  // indexed by domain id
    FeatureSet feats;
    Tunables tunables;
    Time now;

    bool eas_enabled = false;  // find_energy_efficient_cpu; off on SMT and symmetric machines
    bool uclamp_used = false;
    // The proposed change the wakeup path runs with (policies/); null is
    // mainline (baseline). Not owned: it outlives the run and is shared,
    // read-only, by every run of a batch.
    const PlacementPolicy* policy = nullptr;
    // CPUs the wakeup's idle searches have tested (choose_idle_cpu(), and
    // select_idle_core()'s threads), each a read of another CPU's runqueue
    // lines: the engine turns the count into the selection's length. Counted
    // always, since a record exists only when a sink reads it; the engine
    // resets it before each selection.
    mutable int cpus_examined = 0;

    // jiffies() is read several times per event and is a double division:
    // it keeps the value and the stretch of time [from, from + span) it holds
    // for, a span so that one unsigned compare tests both ends.
    struct JiffyCache {
        std::int64_t from = 0;
        std::uint64_t span = 0;
        std::uint64_t value = 0;
    };
    mutable JiffyCache jiffy_cache;

    // Worked out from the machine by make_sched_state(), because the fair
    // class reads them at every enqueue and dequeue and the machine does not
    // change during a run.
    int nr_cpus = 0;                     // machine->nr_cpus(), which divides a vector's size at every call
    int slice_factor = 1;                // base_slice()'s LOG scaling: 1 + ilog2(min(nr_cpus, 8))
    std::int64_t tick_nsec = 4'000'000;  // TICK_NSEC at the machine's HZ
    std::uint64_t hz = 250;              // the machine's HZ, truncated: costs[Cost::hz] is a double

    Rq& rq(CpuId cpu) { return rqs[static_cast<std::size_t>(cpu)]; }
    const Rq& rq(CpuId cpu) const { return rqs[static_cast<std::size_t>(cpu)]; }
    Task& task(TaskId id) { return tasks[static_cast<std::size_t>(id)]; }
    const Task& task(TaskId id) const { return tasks[static_cast<std::size_t>(id)]; }

    // jiffies at `now`, with the machine's HZ.
    std::uint64_t jiffies() const
    {
        if (static_cast<std::uint64_t>(now.ns() - jiffy_cache.from) < jiffy_cache.span)
            return jiffy_cache.value;
        return jiffies_uncached();
    }
    std::uint64_t jiffies_uncached() const;
    // The effective base slice: normalized x (1 + ilog2(min(nr_cpus, 8))) (LOG scaling).
    std::int64_t base_slice() const;
};

// Builds the initial state for a machine: one idle runqueue per CPU with its
// capacities, shared objects for the domains that own one.
SchedState make_sched_state(const Machine& machine, const SchedDomains& domains, const FeatureSet& feats);

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// SchedDomains: the sched-domain hierarchy the kernel builds for a machine
// (kernel/sched/topology.c, build_sched_domains() and friends, v7.0), frozen
// for the length of a run, with the per-CPU shortcuts fair.c reads.
//
// How the kernel builds it, and so how we do:
//   1. For each CPU walk the architecture's level table bottom-up
//      (generic: SMT, CLS, MC, PKG; then NODE and one NUMA level per distinct
//      node distance), making a domain whose span is the level's mask for
//      that CPU; stop as soon as a domain spans every CPU.
//   2. sd_init(): base flags plus the level's topology flags plus the
//      asymmetric-capacity flags detected for the span, and the per-level
//      parameters (imbalance_pct, cache_nice_tries, intervals ...).
//   3. Groups: the child domains' spans (single CPUs at the bottom); NUMA
//      levels above NODE build overlapping groups from each CPU's view.
//   4. imb_numa_nr, computed on the full chain before step 5.
//   5. cpu_attach_domain(): drop degenerate domains (one CPU, or same span
//      as the child and no flag the child lacks), then the shortcuts
//      (update_top_cache_domain).
//
// An 8-CPU teaching machine (2 LLCs x 2 cores x SMT-2, CPUs numbered core-major):
//
//   NUMA/PKG: [ 0  1  2  3  4  5  6  7 ]   groups {0-3} {4-7}
//   MC:       [ 0  1  2  3 ][ 4  5  6  7 ]  groups {0-1} {2-3} | {4-5} {6-7}
//   SMT:      [ 0  1 ][ 2  3 ][ 4  5 ][ 6  7 ]  groups one CPU each
//
// Domains with equal (level, span) are identical for every CPU in the span, so
// each is stored once and CPUs refer to it by index. A domain's child and
// parent are per CPU (on a hybrid part one MC has an SMT child for P-cores
// and a CLS child for E-cores), so they are read from domains_of(cpu).
// Runtime state that the kernel keeps per CPU and domain (balance intervals,
// failure counts) belongs to the engine, not here.
#pragma once

#include <string>
#include <vector>

#include "topology/cpumask.h"
#include "topology/sd_flags.h"

namespace wb {

struct Machine;

struct SchedGroup {
    CpuMask span;
    long capacity = 0;      // sgc->capacity: sum of the CPUs' capacities
    long min_capacity = 0;  // smallest and largest CPU capacity in the group
    long max_capacity = 0;
};

struct SchedDomain {
    std::string name;    // "SMT", "CLS", "MC", "PKG", "NODE", "NUMA", or the arch's ("CACHE")
    int level = 0;       // position in the level table, counted before degeneration, as the kernel numbers it
    unsigned flags = 0;  // SD_* bits
    CpuMask span;
    int span_weight = 0;
    int numa_distance = 0;  // for NUMA levels: the node distance this level reaches; 0 otherwise

    // sd_init() parameters.
    int min_interval = 0;      // ms
    int max_interval = 0;      // ms
    int balance_interval = 0;  // ms
    int busy_factor = 16;
    int imbalance_pct = 117;
    int cache_nice_tries = 0;
    int imb_numa_nr = 0;

    // Indexes into SchedDomains::groups(), ordered by first CPU; group_of()
    // finds the one holding a given CPU (the kernel's sd->groups for that CPU).
    std::vector<int> groups;

    // This domain owns a shared object (sd->shared): LLC domains, and
    // asym-capacity-full domains below NUMA. The engine keeps has_idle_cores,
    // nr_busy_cpus and nr_idle_scan per domain id for those.
    bool has_shared = false;
};

// update_top_cache_domain() results for one CPU. Domain ids index
// SchedDomains::domains(); -1 means none.
struct CpuShortcuts {
    int sd_llc = -1;
    int sd_llc_size = 1;
    CpuId sd_llc_id = kNoCpu;
    CpuId sd_share_id = kNoCpu;
    int sd_numa = -1;
    int sd_asym_packing = -1;
    int sd_asym_cpucapacity = -1;
    int sd_balance_shared = -1;  // domain whose shared object holds the idle-cores hint
};

struct DomainOptions {
    int node_reclaim_distance = -1;  // overrides Machine::node_reclaim_distance when >= 0
    int relax_domain_level = -1;     // sched_relax_domain_level; -1 = off
    bool sched_cluster = true;       // CONFIG_SCHED_CLUSTER and the cluster level in use
    // SD_ASYM_PACKING on the SMT level whatever the architecture, as POWER7's
    // ASYM_SMT does: the load balancer then packs onto the higher-priority
    // sibling (the smt-asym-packing policy).
    bool smt_asym_packing = false;
};

class SchedDomains {
public:
    static SchedDomains build(const Machine& machine, const DomainOptions& options = {});

    int nr_cpus() const { return static_cast<int>(per_cpu_.size()); }

    // The CPU's domains bottom-up (for_each_domain), as ids into domains().
    const std::vector<int>& domains_of(CpuId cpu) const { return per_cpu_[static_cast<std::size_t>(cpu)]; }
    const SchedDomain& domain(int id) const { return domains_[static_cast<std::size_t>(id)]; }
    const std::vector<SchedDomain>& domains() const { return domains_; }
    const SchedGroup& group(int id) const { return groups_[static_cast<std::size_t>(id)]; }
    const std::vector<SchedGroup>& groups() const { return groups_; }
    // The group of `domain_id` that contains `cpu` (for that CPU, sd->groups).
    int group_of(int domain_id, CpuId cpu) const;

    const CpuShortcuts& shortcuts(CpuId cpu) const { return shortcuts_[static_cast<std::size_t>(cpu)]; }

    // Lowest / highest domain of `cpu` with `flag`; -1 if none. highest stops
    // at the first domain without a SHARED_CHILD flag, as the kernel's does.
    int lowest_flag_domain(CpuId cpu, unsigned flag) const;
    int highest_flag_domain(CpuId cpu, unsigned flag) const;

    bool cpus_share_cache(CpuId a, CpuId b) const { return shortcuts(a).sd_llc_id == shortcuts(b).sd_llc_id; }
    bool cpus_share_resources(CpuId a, CpuId b) const { return shortcuts(a).sd_share_id == shortcuts(b).sd_share_id; }

    // Static keys the kernel flips when it builds domains.
    bool sched_smt_active() const { return smt_active_; }
    bool sched_asym_cpucapacity() const { return asym_cpucapacity_; }
    bool sched_cluster_active() const { return cluster_active_; }

private:
    std::vector<SchedDomain> domains_;
    std::vector<SchedGroup> groups_;
    std::vector<std::vector<int>> per_cpu_;
    std::vector<CpuShortcuts> shortcuts_;
    bool smt_active_ = false;
    bool asym_cpucapacity_ = false;
    bool cluster_active_ = false;
};

}  // namespace wb

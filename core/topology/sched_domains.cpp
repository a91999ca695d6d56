// SPDX-License-Identifier: Apache-2.0
//
// Models kernel/sched/topology.c (v7.0): build_sched_domains(), sd_init(),
// asym_cpu_capacity_classify(), build_sched_groups() and
// build_overlap_sched_groups(), the imb_numa_nr pass, cpu_attach_domain()
// with sd_degenerate()/sd_parent_degenerate(), and update_top_cache_domain().
// The steps run in the kernel's order because the order shows in the result:
// groups and imb_numa_nr are computed on the full chain, before degenerate
// levels are dropped.
#include "topology/sched_domains.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <set>

#include "topology/machine.h"

namespace wb {

namespace {

// Which container a topology level's mask follows.
enum class MaskOf { Core, Cluster, Llc, Package, Node, NumaDistance };

// One row of a sched_domain_topology_level table.
struct TopologyLevel {
    std::string name;
    MaskOf mask;
    unsigned flags;         // topology flags (tl->sd_flags())
    int numa_distance = 0;  // NumaDistance levels: the distance this level reaches
    bool overlap = false;   // SDTL_OVERLAP: NUMA levels above NODE
};

// The architecture's table (default_topology[], x86_topology[],
// powerpc_topology[]) followed by the NUMA levels sched_init_numa() appends:
// NODE for the local distance, then one NUMA level per larger distance.
std::vector<TopologyLevel> topology_levels(const Machine& m, const DomainOptions& opt)
{
    const unsigned itmt = m.asym_packing ? SD_ASYM_PACKING : 0u;
    const unsigned smt = SD_SHARE_CPUCAPACITY | SD_SHARE_LLC;
    const unsigned cls = SD_CLUSTER | SD_SHARE_LLC;
    std::vector<TopologyLevel> levels;
    switch (m.arch) {
    case Arch::Generic:
        levels = {{"SMT", MaskOf::Core, smt},
                  {"CLS", MaskOf::Cluster, cls},
                  {"MC", MaskOf::Llc, SD_SHARE_LLC},
                  {"PKG", MaskOf::Node, 0}};
        break;
    case Arch::X86:
        // ITMT priorities order the cores, not the SMT siblings of one core,
        // so SMT carries no SD_ASYM_PACKING (since v6.6).
        levels = {{"SMT", MaskOf::Core, smt},
                  {"CLS", MaskOf::Cluster, cls | itmt},
                  {"MC", MaskOf::Llc, SD_SHARE_LLC | itmt},
                  {"PKG", MaskOf::Node, itmt}};
        break;
    case Arch::PowerPC:
        // POWER7's ASYM_SMT prefers the lower threads of a core: asym packing
        // on the SMT level. CACHE is the L2/L3 that a big core's small cores
        // share; the kernel adds the level only when some cache is shared
        // beyond one core (shared_caches), which POWER10 does not do. MC is
        // the chip's core group.
        levels = {{"SMT", MaskOf::Core, smt | itmt}};
        if (m.nr_llcs() < m.nr_cores())
            levels.push_back({"CACHE", MaskOf::Llc, SD_SHARE_LLC});
        levels.push_back({"MC", MaskOf::Package, 0});
        levels.push_back({"PKG", MaskOf::Node, 0});
        break;
    }
    if (!opt.sched_cluster)
        std::erase_if(levels, [](const TopologyLevel& l) { return l.mask == MaskOf::Cluster; });
    if (opt.smt_asym_packing)
        for (TopologyLevel& l : levels)
            if (l.mask == MaskOf::Core)
                l.flags |= SD_ASYM_PACKING;

    std::set<int> distances;
    for (const auto& row : m.node_distance)
        distances.insert(row.begin(), row.end());
    bool first = true;
    for (int d : distances) {
        if (first)
            levels.push_back({"NODE", MaskOf::NumaDistance, 0, d, false});
        else
            levels.push_back({"NUMA", MaskOf::NumaDistance, SD_NUMA, d, true});
        first = false;
    }
    return levels;
}

// Masks of every container, indexed by container id, so that building a
// domain is a lookup and not a scan over all CPUs.
struct ContainerMasks {
    std::vector<CpuMask> core, cluster, llc, package, node;

    explicit ContainerMasks(const Machine& m)
        : core(static_cast<std::size_t>(m.nr_cores()), CpuMask(m.nr_cpus())),
          cluster(static_cast<std::size_t>(m.nr_clusters()), CpuMask(m.nr_cpus())),
          llc(static_cast<std::size_t>(m.nr_llcs()), CpuMask(m.nr_cpus())),
          package(static_cast<std::size_t>(m.nr_packages()), CpuMask(m.nr_cpus())),
          node(static_cast<std::size_t>(m.nr_nodes()), CpuMask(m.nr_cpus()))
    {
        for (const CpuTopo& c : m.cpus) {
            core[static_cast<std::size_t>(c.core)].set(c.cpu);
            cluster[static_cast<std::size_t>(c.cluster)].set(c.cpu);
            llc[static_cast<std::size_t>(c.llc)].set(c.cpu);
            package[static_cast<std::size_t>(c.package)].set(c.cpu);
            node[static_cast<std::size_t>(c.node)].set(c.cpu);
        }
    }
};

CpuMask level_mask(const Machine& m, const ContainerMasks& masks, const TopologyLevel& level, CpuId cpu)
{
    const CpuTopo& c = m.cpus[static_cast<std::size_t>(cpu)];
    switch (level.mask) {
    case MaskOf::Core:
        return masks.core[static_cast<std::size_t>(c.core)];
    case MaskOf::Cluster:
        return masks.cluster[static_cast<std::size_t>(c.cluster)];
    case MaskOf::Llc:
        return masks.llc[static_cast<std::size_t>(c.llc)];
    case MaskOf::Package:
        return masks.package[static_cast<std::size_t>(c.package)];
    case MaskOf::Node:
        return masks.node[static_cast<std::size_t>(c.node)];
    case MaskOf::NumaDistance: {
        CpuMask span(m.nr_cpus());
        const auto& row = m.node_distance[static_cast<std::size_t>(c.node)];
        for (std::size_t n = 0; n < row.size(); ++n)
            if (row[n] <= level.numa_distance)
                span |= masks.node[n];
        return span;
    }
    }
    return CpuMask(m.nr_cpus());
}

// asym_cpu_capacity_classify(): ASYM_CPUCAPACITY when the span holds CPUs of
// two or more capacities, and _FULL when it holds every capacity the machine has.
unsigned asym_cpu_capacity_classify(const Machine& m, const CpuMask& span, std::size_t nr_capacities)
{
    if (nr_capacities < 2)
        return 0;
    std::set<int> seen;
    span.for_each([&](CpuId cpu) { seen.insert(m.cpus[static_cast<std::size_t>(cpu)].capacity); });
    if (seen.size() < 2)
        return 0;
    if (seen.size() < nr_capacities)
        return SD_ASYM_CPUCAPACITY;
    return SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL;
}

std::size_t count_capacities(const Machine& m)
{
    std::set<int> all;
    for (const CpuTopo& c : m.cpus)
        all.insert(c.capacity);
    return all.size();
}

// A domain of one CPU's chain while it is being built (struct sched_domain
// before cpu_attach_domain()).
struct BuildDomain {
    int table_row = 0;  // index into the level table
    SchedDomain sd;
};

using Chain = std::vector<BuildDomain>;

// sd_init(): base flags and parameters of a new domain, from its level's
// topology flags and what its span holds.
SchedDomain sd_init(const Machine& m, const TopologyLevel& level, const CpuMask& span, int level_number,
                    std::size_t nr_capacities, const DomainOptions& opt)
{
    SchedDomain sd;
    sd.name = level.name;
    sd.level = level_number;
    sd.span = span;
    sd.span_weight = span.weight();
    sd.numa_distance = level.mask == MaskOf::NumaDistance && (level.flags & SD_NUMA) ? level.numa_distance : 0;
    sd.flags = SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE | SD_PREFER_SIBLING |
               (level.flags & TOPOLOGY_SD_FLAGS) | asym_cpu_capacity_classify(m, span, nr_capacities);
    sd.min_interval = sd.span_weight;
    sd.max_interval = 2 * sd.span_weight;
    sd.balance_interval = sd.span_weight;
    sd.busy_factor = 16;
    sd.imbalance_pct = 117;
    sd.cache_nice_tries = 0;

    if (sd.flags & SD_SHARE_CPUCAPACITY) {
        sd.imbalance_pct = 110;
    } else if (sd.flags & SD_SHARE_LLC) {
        sd.imbalance_pct = 117;
        sd.cache_nice_tries = 1;
    } else if (sd.flags & SD_NUMA) {
        sd.cache_nice_tries = 2;
        sd.flags &= ~SD_PREFER_SIBLING;
        sd.flags |= SD_SERIALIZE;
        const int reclaim = opt.node_reclaim_distance >= 0 ? opt.node_reclaim_distance : m.node_reclaim_distance;
        if (level.numa_distance > reclaim)
            sd.flags &= ~(SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE);
    } else {
        sd.cache_nice_tries = 1;
    }
    // set_domain_attribute(): relax_domain_level turns off wake and newidle
    // balancing from the requested level up.
    if (opt.relax_domain_level >= 0 && level_number >= opt.relax_domain_level)
        sd.flags &= ~(SD_BALANCE_WAKE | SD_BALANCE_NEWIDLE);
    return sd;
}

// The domain chains of every CPU, as build_sched_domain() leaves them.
std::vector<Chain> build_chains(const Machine& m, const std::vector<TopologyLevel>& levels, const DomainOptions& opt)
{
    const ContainerMasks masks(m);
    const CpuMask all = m.all_cpus();
    const std::size_t nr_capacities = count_capacities(m);
    std::vector<Chain> chains(static_cast<std::size_t>(m.nr_cpus()));
    for (CpuId cpu = 0; cpu < m.nr_cpus(); ++cpu) {
        Chain& chain = chains[static_cast<std::size_t>(cpu)];
        for (std::size_t row = 0; row < levels.size(); ++row) {
            CpuMask span = level_mask(m, masks, levels[row], cpu);
            // A child must lie inside its parent; the kernel warns about a
            // broken arch topology and widens the parent.
            if (!chain.empty() && !chain.back().sd.span.is_subset_of(span))
                span |= chain.back().sd.span;
            const int level_number = static_cast<int>(chain.size());
            chain.push_back({static_cast<int>(row), sd_init(m, levels[row], span, level_number, nr_capacities, opt)});
            // Don't spread over CPUs of different capacity below an asym level.
            if ((chain.back().sd.flags & SD_ASYM_CPUCAPACITY) && chain.size() > 1)
                chain[chain.size() - 2].sd.flags &= ~SD_PREFER_SIBLING;
            if (span == all)
                break;
        }
    }
    return chains;
}

// find_descended_sibling(): for overlapping NUMA groups, go down the
// sibling's chain to the domain whose child fits inside `span`, skipping
// levels that will degenerate because they equal their child.
int find_descended_sibling(const Chain& sibling, int at, const CpuMask& span)
{
    while (at > 0 && !sibling[static_cast<std::size_t>(at - 1)].sd.span.is_subset_of(span))
        --at;
    while (at > 0 && sibling[static_cast<std::size_t>(at - 1)].sd.span == sibling[static_cast<std::size_t>(at)].sd.span)
        --at;
    return at;
}

// The group spans of the domain at chain position `at` of `cpu`, in the
// kernel's order: starting with the group holding `cpu`, then by CPU number,
// wrapping around.
std::vector<CpuMask> group_spans(const std::vector<Chain>& chains, const std::vector<TopologyLevel>& levels, CpuId cpu,
                                 int at)
{
    const Chain& mine = chains[static_cast<std::size_t>(cpu)];
    const BuildDomain& d = mine[static_cast<std::size_t>(at)];
    const CpuMask& span = d.sd.span;
    const bool overlap = levels[static_cast<std::size_t>(d.table_row)].overlap;
    CpuMask covered(span.nr_cpus());
    std::vector<CpuMask> spans;
    span.for_each_wrap(cpu, [&](CpuId i) {
        if (covered.test(i))
            return;
        const Chain& sibling = chains[static_cast<std::size_t>(i)];
        CpuMask group(span.nr_cpus());
        if (overlap) {
            // The sibling CPU's own domain at this level; its chain may have
            // stopped lower if it already spanned everything.
            if (static_cast<std::size_t>(at) >= sibling.size() ||
                !sibling[static_cast<std::size_t>(at)].sd.span.test(i))
                return;
            int s = at;
            if (s > 0 && !sibling[static_cast<std::size_t>(s - 1)].sd.span.is_subset_of(span))
                s = find_descended_sibling(sibling, s, span);
            group =
                s > 0 ? sibling[static_cast<std::size_t>(s - 1)].sd.span : sibling[static_cast<std::size_t>(s)].sd.span;
        } else if (at > 0) {
            group = sibling[static_cast<std::size_t>(at - 1)].sd.span;
        } else {
            group.set(i);
        }
        covered |= group;
        spans.push_back(std::move(group));
    });
    return spans;
}

// The imb_numa_nr pass of build_sched_domains(): how many tasks a NUMA
// domain tolerates as imbalance before it spreads them, so LLCs do not
// get imbalanced. It runs on the full chain, before degeneration.
void set_imb_numa_nr(Chain& chain)
{
    int imb = 0;
    int imb_span = 1;
    for (std::size_t i = 0; i < chain.size(); ++i) {
        SchedDomain& sd = chain[i].sd;
        const SchedDomain* child = i > 0 ? &chain[i - 1].sd : nullptr;
        if (!(sd.flags & SD_SHARE_LLC) && child && (child->flags & SD_SHARE_LLC)) {
            const int nr_llcs = sd.span_weight / child->span_weight;
            imb = nr_llcs == 1 ? sd.span_weight >> 3 : nr_llcs;
            imb = std::max(1, imb);
            sd.imb_numa_nr = imb;
            imb_span = sd.span_weight;
            for (std::size_t p = i + 1; p < chain.size(); ++p) {
                if (chain[p].sd.flags & SD_NUMA) {
                    imb_span = chain[p].sd.span_weight;
                    break;
                }
            }
        } else {
            const int factor = std::max(1, sd.span_weight / imb_span);
            sd.imb_numa_nr = imb * factor;
        }
    }
}

// sd_degenerate(): a domain that can do nothing, being one CPU or having one
// group and no flag that works without groups.
bool sd_degenerate(const SchedDomain& sd, std::size_t nr_groups)
{
    if (sd.span_weight == 1)
        return true;
    if ((sd.flags & SD_DEGENERATE_GROUPS_MASK) && nr_groups > 1)
        return false;
    if (sd.flags & SD_WAKE_AFFINE)
        return false;
    return true;
}

// sd_parent_degenerate(): the parent spans the same CPUs as the child and
// adds no flag the child lacks (flags that need groups do not count when the
// parent has a single group).
bool sd_parent_degenerate(const SchedDomain& child, const SchedDomain& parent, std::size_t parent_groups)
{
    if (sd_degenerate(parent, parent_groups))
        return true;
    if (!(child.span == parent.span))
        return false;
    unsigned pflags = parent.flags;
    if (parent_groups == 1)
        pflags &= ~SD_DEGENERATE_GROUPS_MASK;
    return (~child.flags & pflags) == 0;
}

std::string span_key(int row, const CpuMask& span)
{
    std::string key = std::to_string(row) + ':';
    for (std::uint64_t w : span.words())
        key.append(reinterpret_cast<const char*>(&w), sizeof w);
    return key;
}

}  // namespace

int SchedDomains::group_of(int domain_id, CpuId cpu) const
{
    for (int g : domain(domain_id).groups)
        if (group(g).span.test(cpu))
            return g;
    return -1;
}

int SchedDomains::lowest_flag_domain(CpuId cpu, unsigned flag) const
{
    for (int id : domains_of(cpu))
        if (domain(id).flags & flag)
            return id;
    return -1;
}

int SchedDomains::highest_flag_domain(CpuId cpu, unsigned flag) const
{
    int found = -1;
    for (int id : domains_of(cpu)) {
        if (domain(id).flags & flag) {
            found = id;
            continue;
        }
        // A SHARED_CHILD flag missing here is missing further up too.
        if (flag & SD_SHARED_CHILD_MASK)
            break;
    }
    return found;
}

SchedDomains SchedDomains::build(const Machine& m, const DomainOptions& opt)
{
    SchedDomains out;
    const int n = m.nr_cpus();
    out.per_cpu_.resize(static_cast<std::size_t>(n));
    out.shortcuts_.resize(static_cast<std::size_t>(n));
    out.smt_active_ = m.has_smt();
    if (n == 0)
        return out;

    const std::vector<TopologyLevel> levels = topology_levels(m, opt);
    std::vector<Chain> chains = build_chains(m, levels, opt);

    // Groups once per distinct (level, span); every CPU of the span sees the
    // same groups, only starting from its own.
    std::map<std::string, std::vector<int>> groups_by_domain;
    std::map<std::string, int> group_ids;
    std::vector<std::vector<int>> group_lists;
    for (CpuId cpu = 0; cpu < n; ++cpu) {
        Chain& chain = chains[static_cast<std::size_t>(cpu)];
        for (std::size_t at = 0; at < chain.size(); ++at) {
            BuildDomain& d = chain[at];
            const std::string key = span_key(d.table_row, d.sd.span);
            auto [it, inserted] = groups_by_domain.try_emplace(key);
            if (inserted) {
                // Build from the span's first CPU so the list runs in CPU order.
                CpuId first = d.sd.span.first();
                for (CpuMask& g : group_spans(chains, levels, first, static_cast<int>(at))) {
                    const std::string gkey = span_key(-1, g);
                    auto [git, new_group] = group_ids.try_emplace(gkey, static_cast<int>(out.groups_.size()));
                    if (new_group) {
                        SchedGroup group;
                        group.span = g;
                        group.min_capacity = 1024;
                        g.for_each([&](CpuId c) {
                            const int cap = m.cpus[static_cast<std::size_t>(c)].capacity;
                            group.capacity += cap;
                            group.min_capacity = std::min<long>(group.min_capacity, cap);
                            group.max_capacity = std::max<long>(group.max_capacity, cap);
                        });
                        out.groups_.push_back(std::move(group));
                    }
                    it->second.push_back(git->second);
                }
                std::sort(it->second.begin(), it->second.end(), [&](int a, int b) {
                    return out.groups_[static_cast<std::size_t>(a)].span.first() <
                           out.groups_[static_cast<std::size_t>(b)].span.first();
                });
            }
            d.sd.groups = it->second;
            out.asym_cpucapacity_ |= (d.sd.flags & SD_ASYM_CPUCAPACITY) != 0;
        }
        set_imb_numa_nr(chain);
    }

    // cpu_attach_domain(): drop degenerate parents, handing SD_PREFER_SIBLING
    // down to the child (same span, so the property transfers), then a
    // degenerate base domain.
    std::map<std::string, int> domain_ids;
    for (CpuId cpu = 0; cpu < n; ++cpu) {
        Chain chain = std::move(chains[static_cast<std::size_t>(cpu)]);
        for (std::size_t i = 0; i + 1 < chain.size();) {
            SchedDomain& child = chain[i].sd;
            const SchedDomain& parent = chain[i + 1].sd;
            if (sd_parent_degenerate(child, parent, parent.groups.size())) {
                if (parent.flags & SD_PREFER_SIBLING)
                    child.flags |= SD_PREFER_SIBLING;
                chain.erase(chain.begin() + static_cast<std::ptrdiff_t>(i) + 1);
            } else {
                ++i;
            }
        }
        if (!chain.empty() && sd_degenerate(chain.front().sd, chain.front().sd.groups.size()))
            chain.erase(chain.begin());

        std::vector<int>& ids = out.per_cpu_[static_cast<std::size_t>(cpu)];
        for (BuildDomain& d : chain) {
            std::string key = span_key(d.sd.level, d.sd.span) + ':' + std::to_string(d.sd.flags) + ':' +
                              std::to_string(d.sd.imb_numa_nr);
            auto [it, inserted] = domain_ids.try_emplace(key, static_cast<int>(out.domains_.size()));
            if (inserted)
                out.domains_.push_back(std::move(d.sd));
            ids.push_back(it->second);
        }
    }

    // update_top_cache_domain().
    for (CpuId cpu = 0; cpu < n; ++cpu) {
        CpuShortcuts& s = out.shortcuts_[static_cast<std::size_t>(cpu)];
        s.sd_llc = out.highest_flag_domain(cpu, SD_SHARE_LLC);
        s.sd_llc_size = s.sd_llc >= 0 ? out.domain(s.sd_llc).span_weight : 1;
        s.sd_llc_id = s.sd_llc >= 0 ? out.domain(s.sd_llc).span.first() : cpu;
        const int cluster = out.lowest_flag_domain(cpu, SD_CLUSTER);
        s.sd_share_id = cluster >= 0 ? out.domain(cluster).span.first() : s.sd_llc_id;
        s.sd_numa = out.lowest_flag_domain(cpu, SD_NUMA);
        s.sd_asym_packing = out.highest_flag_domain(cpu, SD_ASYM_PACKING);
        s.sd_asym_cpucapacity = out.lowest_flag_domain(cpu, SD_ASYM_CPUCAPACITY_FULL);
        // The idle-cores hint lives with the asym-capacity-full domain when
        // that domain is below NUMA, so an SMT asym machine tracks idle cores
        // over the span select_idle_capacity() scans; else with the LLC.
        const bool asym_shared = s.sd_asym_cpucapacity >= 0 && !(out.domain(s.sd_asym_cpucapacity).flags & SD_NUMA);
        s.sd_balance_shared = asym_shared ? s.sd_asym_cpucapacity : s.sd_llc;
        if (cluster >= 0)
            out.cluster_active_ = true;
    }
    for (SchedDomain& sd : out.domains_)
        sd.has_shared = (sd.flags & SD_SHARE_LLC) != 0;
    for (const CpuShortcuts& s : out.shortcuts_)
        if (s.sd_balance_shared >= 0)
            out.domains_[static_cast<std::size_t>(s.sd_balance_shared)].has_shared = true;
    return out;
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "topology/machine.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace wb {

std::string_view arch_name(Arch arch)
{
    switch (arch) {
    case Arch::Generic:
        return "generic";
    case Arch::X86:
        return "x86";
    case Arch::PowerPC:
        return "powerpc";
    }
    return "generic";
}

bool arch_by_name(std::string_view name, Arch& out)
{
    for (Arch a : {Arch::Generic, Arch::X86, Arch::PowerPC}) {
        if (arch_name(a) == name) {
            out = a;
            return true;
        }
    }
    return false;
}

namespace {

template <typename Member>
int count_distinct(const std::vector<CpuTopo>& cpus, Member member)
{
    int highest = -1;
    for (const CpuTopo& c : cpus)
        highest = std::max(highest, c.*member);
    return highest + 1;
}

template <typename Member>
CpuMask mask_where(const Machine& m, Member member, int value)
{
    CpuMask mask(m.nr_cpus());
    for (const CpuTopo& c : m.cpus)
        if (c.*member == value)
            mask.set(c.cpu);
    return mask;
}

}  // namespace

int Machine::nr_packages() const
{
    return count_distinct(cpus, &CpuTopo::package);
}
int Machine::nr_llcs() const
{
    return count_distinct(cpus, &CpuTopo::llc);
}
int Machine::nr_clusters() const
{
    return count_distinct(cpus, &CpuTopo::cluster);
}
int Machine::nr_cores() const
{
    return count_distinct(cpus, &CpuTopo::core);
}

bool Machine::has_smt() const
{
    return std::any_of(cpus.begin(), cpus.end(), [](const CpuTopo& c) { return c.thread > 0; });
}

CpuMask Machine::smt_mask(CpuId cpu) const
{
    return mask_where(*this, &CpuTopo::core, cpus[cpu].core);
}
CpuMask Machine::cluster_mask(CpuId cpu) const
{
    return mask_where(*this, &CpuTopo::cluster, cpus[cpu].cluster);
}
CpuMask Machine::llc_mask(CpuId cpu) const
{
    return mask_where(*this, &CpuTopo::llc, cpus[cpu].llc);
}
CpuMask Machine::package_mask(CpuId cpu) const
{
    return mask_where(*this, &CpuTopo::package, cpus[cpu].package);
}
CpuMask Machine::node_mask(int node) const
{
    return mask_where(*this, &CpuTopo::node, node);
}

void number_containers_depth_first(Machine& m)
{
    std::vector<CpuTopo*> order;
    for (CpuTopo& c : m.cpus)
        order.push_back(&c);
    // Sorting by the old indexes, outermost first, lists each container's
    // CPUs together and the containers in tree order; new indexes follow.
    std::stable_sort(order.begin(), order.end(), [](const CpuTopo* a, const CpuTopo* b) {
        return std::tie(a->node, a->package, a->llc, a->cluster, a->core, a->thread) <
               std::tie(b->node, b->package, b->llc, b->cluster, b->core, b->thread);
    });
    const std::vector<int CpuTopo::*> levels{&CpuTopo::node, &CpuTopo::package, &CpuTopo::llc, &CpuTopo::cluster,
                                             &CpuTopo::core};
    std::vector<std::map<int, int>> renumbered(levels.size());
    for (CpuTopo* c : order)
        for (std::size_t l = 0; l < levels.size(); ++l) {
            auto& map = renumbered[l];
            map.try_emplace(c->*levels[l], static_cast<int>(map.size()));
        }
    std::vector<std::vector<int>> distance = m.node_distance;
    for (auto [old_a, new_a] : renumbered[0])
        for (auto [old_b, new_b] : renumbered[0])
            if (static_cast<std::size_t>(old_a) < m.node_distance.size() &&
                static_cast<std::size_t>(old_b) < m.node_distance[static_cast<std::size_t>(old_a)].size())
                distance[static_cast<std::size_t>(new_a)][static_cast<std::size_t>(new_b)] =
                    m.node_distance[static_cast<std::size_t>(old_a)][static_cast<std::size_t>(old_b)];
    m.node_distance = std::move(distance);
    for (CpuTopo& c : m.cpus)
        for (std::size_t l = 0; l < levels.size(); ++l)
            c.*levels[l] = renumbered[l].at(c.*levels[l]);
}

namespace {

// Each container at a level must sit inside exactly one container of the
// level above: a core split over two LLCs is no machine.
void check_nesting(const Machine& m, int CpuTopo::*child, int CpuTopo::*parent, const char* child_name,
                   const char* parent_name, std::vector<TopologyProblem>& problems)
{
    std::map<int, std::pair<int, CpuId>> parent_of;  // child index -> (parent index, first cpu seen)
    for (const CpuTopo& c : m.cpus) {
        auto [it, inserted] = parent_of.try_emplace(c.*child, c.*parent, c.cpu);
        if (!inserted && it->second.first != c.*parent) {
            problems.push_back({c.cpu, parent_name,
                                std::string(child_name) + " " + std::to_string(c.*child) + " has CPU " +
                                    std::to_string(it->second.second) + " in " + parent_name + " " +
                                    std::to_string(it->second.first) + " and CPU " + std::to_string(c.cpu) + " in " +
                                    parent_name + " " + std::to_string(c.*parent) + "; expected one " + parent_name +
                                    " per " + child_name});
        }
    }
}

void check_distances(const Machine& m, std::vector<TopologyProblem>& problems)
{
    const auto& d = m.node_distance;
    const std::size_t n = d.size();
    if (n == 0) {
        problems.push_back({kNoCpu, "node_distance", "expected at least one NUMA node"});
        return;
    }
    for (std::size_t a = 0; a < n; ++a) {
        std::string row = "node_distance/" + std::to_string(a);
        if (d[a].size() != n) {
            problems.push_back(
                {kNoCpu, row,
                 "expected " + std::to_string(n) + " distances (one per node), found " + std::to_string(d[a].size())});
            continue;
        }
        for (std::size_t b = 0; b < n; ++b) {
            std::string at = row + "/" + std::to_string(b);
            if (a == b && d[a][b] != 10)
                problems.push_back({kNoCpu, at, "expected 10 (the local distance) on the diagonal"});
            else if (a != b && d[a][b] <= 10)
                problems.push_back({kNoCpu, at, "expected a remote distance greater than 10"});
            else if (a != b && b < d[b].size() && d[a][b] != d[b][a])
                problems.push_back({kNoCpu, at,
                                    "expected a symmetric matrix: distance " + std::to_string(a) + "->" +
                                        std::to_string(b) + " differs from " + std::to_string(b) + "->" +
                                        std::to_string(a)});
        }
    }
}

}  // namespace

std::vector<TopologyProblem> validate(const Machine& m)
{
    std::vector<TopologyProblem> problems;
    if (m.cpus.empty()) {
        problems.push_back({kNoCpu, "cpus", "expected at least one CPU"});
        return problems;
    }
    if (m.nr_cpus() > kMaxCpus) {
        problems.push_back({kNoCpu, "cpus",
                            "a machine has at most " + std::to_string(kMaxCpus) + " CPUs, this one has " +
                                std::to_string(m.nr_cpus())});
        return problems;
    }
    for (int i = 0; i < m.nr_cpus(); ++i) {
        const CpuTopo& c = m.cpus[static_cast<std::size_t>(i)];
        if (c.cpu != i)
            problems.push_back(
                {i, "cpu",
                 "expected CPU id " + std::to_string(i) + " at this position, found " + std::to_string(c.cpu)});
        if (c.capacity < 1 || c.capacity > 1024)
            problems.push_back(
                {i, "capacity", "expected a capacity from 1 to 1024, found " + std::to_string(c.capacity)});
        if (!(c.speed > 0) || c.speed > 16)
            problems.push_back({i, "speed", "expected a relative speed above 0 and at most 16 (1.0 = nominal)"});
        if (c.node < 0 || c.node >= m.nr_nodes())
            problems.push_back({i, "node", "node " + std::to_string(c.node) + " has no row in node_distance"});
    }
    check_nesting(m, &CpuTopo::core, &CpuTopo::cluster, "core", "cluster", problems);
    check_nesting(m, &CpuTopo::cluster, &CpuTopo::llc, "cluster", "llc", problems);
    check_nesting(m, &CpuTopo::llc, &CpuTopo::package, "llc", "package", problems);
    check_nesting(m, &CpuTopo::package, &CpuTopo::node, "package", "node", problems);
    check_distances(m, problems);
    for (int node = 0; node < m.nr_nodes(); ++node)
        if (m.node_mask(node).empty())
            problems.push_back({kNoCpu, "node_distance/" + std::to_string(node),
                                "node " + std::to_string(node) + " has no CPU; expected every node to hold CPUs"});
    return problems;
}

}  // namespace wb

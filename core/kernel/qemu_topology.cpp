// SPDX-License-Identifier: Apache-2.0
#include "kernel/qemu_topology.h"

#include <algorithm>
#include <map>
#include <set>

#include "io/input_error.h"
#include "topology/machine.h"

namespace wb {

namespace {

// The children of each container, as sets of machine-wide indexes:
// children[parent] = {child, ...}.
template <typename Parent, typename Child>
std::map<int, std::set<int>> children_of(const Machine& m, Parent parent, Child child)
{
    std::map<int, std::set<int>> out;
    for (const CpuTopo& c : m.cpus)
        out[c.*parent].insert(c.*child);
    return out;
}

// The one count every parent has, or -1 with `counts` listing the ones seen.
int uniform_count(const std::map<int, std::set<int>>& children, std::set<int>& counts)
{
    for (const auto& [parent, kids] : children)
        counts.insert(static_cast<int>(kids.size()));
    return counts.size() == 1 ? *counts.begin() : -1;
}

std::string list(const std::set<int>& values)
{
    std::string out;
    for (int v : values)
        out += (out.empty() ? "" : " and ") + std::to_string(v);
    return out;
}

// A container's position among its parent's children (0, 1, ...).
int position(const std::map<int, std::set<int>>& children, int parent, int child)
{
    const std::set<int>& kids = children.at(parent);
    return static_cast<int>(std::distance(kids.begin(), kids.find(child)));
}

}  // namespace

std::string QemuTopology::smp() const
{
    return "sockets=" + std::to_string(sockets) + ",dies=" + std::to_string(dies) + ",cores=" + std::to_string(cores) +
           ",threads=" + std::to_string(threads);
}

QemuFit fit_qemu_topology(const Machine& m)
{
    QemuFit fit;
    std::vector<std::string>& no = fit.refusals;

    std::set<int> capacities;
    for (const CpuTopo& c : m.cpus)
        capacities.insert(c.capacity);
    if (capacities.size() > 1)
        no.push_back("asymmetric CPU capacity (" + list(capacities) +
                     "): QEMU's x86 vCPUs all have one capacity, so the guest would build no SD_ASYM_CPUCAPACITY "
                     "domain and place as on a symmetric machine");
    if (m.asym_packing)
        no.push_back(
            "asymmetric packing (ITMT / ASYM_SMT priorities): QEMU gives the guest no CPPC highest_perf "
            "differences, so no SD_ASYM_PACKING domain");

    const auto llcs_per_package = children_of(m, &CpuTopo::package, &CpuTopo::llc);
    const auto cores_per_llc = children_of(m, &CpuTopo::llc, &CpuTopo::core);
    const auto cores_per_cluster = children_of(m, &CpuTopo::cluster, &CpuTopo::core);
    const auto threads_per_core = children_of(m, &CpuTopo::core, &CpuTopo::thread);
    const auto packages_per_node = children_of(m, &CpuTopo::node, &CpuTopo::package);

    std::set<int> biggest_cluster;
    for (const auto& [cluster, cores] : cores_per_cluster)
        if (cores.size() > 1)
            biggest_cluster.insert(static_cast<int>(cores.size()));
    if (!biggest_cluster.empty())
        no.push_back("clusters of " + list(biggest_cluster) +
                     " cores: QEMU 7.2's x86 vCPUs report an L2 of their own per core (-smp clusters= is arm-only "
                     "before QEMU 9.0), so the guest would build no CLS domain");

    std::set<int> dies_seen, cores_seen, threads_seen;
    const int dies = uniform_count(llcs_per_package, dies_seen);
    const int cores = uniform_count(cores_per_llc, cores_seen);
    const int threads = uniform_count(threads_per_core, threads_seen);
    if (dies < 0)
        no.push_back("packages with " + list(dies_seen) +
                     " LLCs: -smp gives every socket the same number of dies (one LLC each)");
    if (cores < 0)
        no.push_back("LLCs with " + list(cores_seen) + " cores: -smp gives every die the same number of cores");
    if (threads < 0)
        no.push_back("cores with " + list(threads_seen) +
                     " threads (a hybrid part): -smp gives every core the same number of threads");
    if (threads > kQemuMaxThreads)
        no.push_back("SMT-" + std::to_string(threads) + ": no x86 processor has more than " +
                     std::to_string(kQemuMaxThreads) + " threads per core, and the guest is an x86 kernel");
    if (m.nr_cpus() > kQemuMaxCpus)
        no.push_back(std::to_string(m.nr_cpus()) + " CPUs: QEMU's i440fx machine gives a guest at most " +
                     std::to_string(kQemuMaxCpus) + " vCPUs");
    for (int node = 0; node < m.nr_nodes(); ++node)
        if (!packages_per_node.count(node))
            no.push_back("node " + std::to_string(node) +
                         " has no CPUs: the model's domains are built from CPUs' nodes only");
    if (!no.empty())
        return fit;

    QemuTopology& t = fit.topology;
    t.sockets = m.nr_packages();
    t.dies = dies;
    t.cores = cores;
    t.threads = threads;
    t.qemu_cpu.resize(static_cast<std::size_t>(m.nr_cpus()));
    for (const CpuTopo& c : m.cpus) {
        const int die = position(llcs_per_package, c.package, c.llc);
        const int core = position(cores_per_llc, c.llc, c.core);
        t.qemu_cpu[static_cast<std::size_t>(c.cpu)] = ((c.package * dies + die) * cores + core) * threads + c.thread;
    }
    if (m.nr_nodes() > 1) {
        for (const auto& [node, packages] : packages_per_node)
            t.node_sockets.emplace_back(packages.begin(), packages.end());
        t.distance = m.node_distance;
    }
    return fit;
}

bool QemuTopology::renumbered() const
{
    for (std::size_t c = 0; c < qemu_cpu.size(); ++c)
        if (qemu_cpu[c] != static_cast<int>(c))
            return true;
    return false;
}

Machine numbered_as_qemu(const Machine& machine, const QemuTopology& topology)
{
    Machine out = machine;
    for (const CpuTopo& c : machine.cpus) {
        const int id = topology.qemu_cpu[static_cast<std::size_t>(c.cpu)];
        out.cpus[static_cast<std::size_t>(id)] = c;
        out.cpus[static_cast<std::size_t>(id)].cpu = id;
    }
    out.numbering = CpuNumbering::CoreMajor;
    return out;
}

std::string qemu_numbering(const QemuTopology& topology)
{
    if (!topology.renumbered())
        return "";
    std::string out;
    for (std::size_t c = 0; c < topology.qemu_cpu.size(); ++c)
        out += (out.empty() ? "" : " ") + std::to_string(c) + "->" + std::to_string(topology.qemu_cpu[c]);
    return out;
}

QemuTopology qemu_topology_for(const Machine& machine, const std::string& spec)
{
    QemuFit fit = fit_qemu_topology(machine);
    if (fit.fits())
        return fit.topology;
    std::vector<Diagnostic> why;
    for (const std::string& reason : fit.refusals)
        why.push_back({"--topology '" + spec + "'", 0, 0, "", "QEMU cannot give this machine: " + reason});
    throw InputError(why);
}

}  // namespace wb

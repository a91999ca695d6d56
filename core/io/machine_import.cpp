// SPDX-License-Identifier: Apache-2.0
//
// The assembly step both importers share (sysfs and lscpu -p describe the
// same facts): numbering, nesting checks and the common fall-backs.
#include "io/machine_import.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <utility>

namespace wb {

namespace import_detail {

namespace {

using Level = Fact ImportedCpu::*;

struct LevelInfo {
    Level member;
    const char* name;
};

constexpr LevelInfo kCore{&ImportedCpu::core, "core"};
constexpr LevelInfo kCluster{&ImportedCpu::cluster, "cluster"};
constexpr LevelInfo kLlc{&ImportedCpu::llc, "LLC"};
constexpr LevelInfo kPackage{&ImportedCpu::package, "package"};
constexpr LevelInfo kNode{&ImportedCpu::node, "node"};

std::string place(const Diagnostic& where)
{
    std::string out = where.file;
    if (where.line > 0)
        out += ':' + std::to_string(where.line);
    if (where.column > 0)
        out += ':' + std::to_string(where.column);
    return out;
}

// An x86 package holding several NUMA nodes (sub-NUMA clustering, AMD NPS) is
// no nested tree; the kernel copes by splitting the LLC per node (match_llc)
// and dropping the package level. We split both containers per node.
void split_by_node(std::vector<ImportedCpu>& cpus, LevelInfo level, std::set<std::string>& warned,
                   std::vector<std::string>& warnings)
{
    std::map<std::string, std::set<std::string>> nodes_of;
    for (const ImportedCpu& c : cpus)
        nodes_of[(c.*level.member).key].insert(c.node.key);
    for (ImportedCpu& c : cpus) {
        Fact& f = c.*level.member;
        const std::set<std::string>& nodes = nodes_of[f.key];
        if (nodes.size() < 2)
            continue;
        // An LLC that fell back to the package is split with it: one warning.
        if (warned.insert(f.key).second) {
            std::string list;
            for (const std::string& n : nodes)
                list += (list.empty() ? "" : n == *nodes.rbegin() ? " and " : ", ") + n;
            std::string what =
                f.key.rfind(level.name, 0) == 0 ? f.key : std::string("the ") + level.name + " of " + f.key;
            warnings.push_back(what + " (" + place(f.where) + ") spans " + list + ": it is split into one " +
                               level.name + " per node, as the kernel does for sub-NUMA clustering.");
        }
        f.key += " in " + c.node.key;
    }
}

// cpu_clustergroup_mask(): a cluster that covers the whole LLC adds nothing,
// so the kernel falls back to the SMT siblings.
void clip_clusters(std::vector<ImportedCpu>& cpus)
{
    std::map<std::string, std::set<CpuId>> llc_cpus, cluster_cpus;
    for (const ImportedCpu& c : cpus) {
        llc_cpus[c.llc.key].insert(c.id);
        cluster_cpus[c.cluster.key].insert(c.id);
    }
    for (ImportedCpu& c : cpus) {
        const std::set<CpuId>& llc = llc_cpus[c.llc.key];
        const std::set<CpuId>& cluster = cluster_cpus[c.cluster.key];
        if (cluster.size() > 1 && std::includes(cluster.begin(), cluster.end(), llc.begin(), llc.end()))
            c.cluster = {c.core.key, c.core.where};
    }
}

// Every container must lie inside one container of each level above it.
// Parents are tried from the top, so a core split across packages is
// reported as that rather than as whichever finer level the split shows
// first, and each CPU is reported once.
void check_nesting(const std::vector<ImportedCpu>& cpus, std::vector<Diagnostic>& errors)
{
    const LevelInfo levels[] = {kCore, kCluster, kLlc, kPackage, kNode};
    constexpr std::size_t n = std::size(levels);
    std::set<CpuId> reported;
    for (std::size_t child = 0; child + 1 < n; ++child) {
        for (std::size_t parent = n - 1; parent > child; --parent) {
            const LevelInfo& ch = levels[child];
            const LevelInfo& pa = levels[parent];
            std::map<std::string, const ImportedCpu*> first_of;
            for (const ImportedCpu& c : cpus) {
                const Fact& mine = c.*ch.member;
                const Fact& my_parent = c.*pa.member;
                auto [it, inserted] = first_of.try_emplace(mine.key, &c);
                const ImportedCpu& other = *it->second;
                const Fact& theirs = other.*pa.member;
                if (inserted || theirs.key == my_parent.key || !reported.insert(c.id).second)
                    continue;
                Diagnostic d = my_parent.where;
                d.message = "CPU " + std::to_string(c.id) + " shares a " + ch.name + " with CPU " +
                            std::to_string(other.id) + " (" + mine.key + "), but its " + pa.name + " is " +
                            my_parent.key + " and CPU " + std::to_string(other.id) + "'s is " + theirs.key + " (" +
                            place(theirs.where) + "); expected each " + ch.name + " inside one " + pa.name;
                errors.push_back(std::move(d));
            }
        }
    }
}

template <typename Member>
void number_by_first_appearance(const std::vector<ImportedCpu>& cpus, Level level, Machine& m, Member member)
{
    std::map<std::string, int> index;
    for (std::size_t i = 0; i < cpus.size(); ++i) {
        auto [it, inserted] = index.try_emplace((cpus[i].*level).key, static_cast<int>(index.size()));
        m.cpus[i].*member = it->second;
    }
}

}  // namespace

Assembled assemble(std::vector<ImportedCpu> cpus, std::vector<std::string>& warnings)
{
    std::sort(cpus.begin(), cpus.end(), [](const ImportedCpu& a, const ImportedCpu& b) { return a.id < b.id; });
    if (cpus.size() > static_cast<std::size_t>(kMaxCpus)) {
        Diagnostic d = cpus.front().core.where;
        d.line = d.column = 0;
        d.message =
            "found " + std::to_string(cpus.size()) + " online CPUs; a machine has at most " + std::to_string(kMaxCpus);
        throw InputError(d);
    }

    std::set<std::string> warned;
    split_by_node(cpus, kPackage, warned, warnings);
    split_by_node(cpus, kLlc, warned, warnings);
    clip_clusters(cpus);

    std::vector<Diagnostic> errors;
    check_nesting(cpus, errors);
    if (!errors.empty())
        throw InputError(std::move(errors));

    Assembled out;
    Machine& m = out.machine;
    m.cpus.resize(cpus.size());
    std::map<std::string, int> threads_seen;
    bool renumbered = false;
    for (std::size_t i = 0; i < cpus.size(); ++i) {
        CpuTopo& t = m.cpus[i];
        t.cpu = static_cast<CpuId>(i);
        t.capacity = cpus[i].capacity;
        t.thread = threads_seen[cpus[i].core.key]++;
        renumbered = renumbered || cpus[i].id != t.cpu;
    }
    number_by_first_appearance(cpus, kNode.member, m, &CpuTopo::node);
    number_by_first_appearance(cpus, kPackage.member, m, &CpuTopo::package);
    number_by_first_appearance(cpus, kLlc.member, m, &CpuTopo::llc);
    number_by_first_appearance(cpus, kCluster.member, m, &CpuTopo::cluster);
    number_by_first_appearance(cpus, kCore.member, m, &CpuTopo::core);

    for (const ImportedCpu& c : cpus)
        if (std::find(out.node_keys.begin(), out.node_keys.end(), c.node.key) == out.node_keys.end())
            out.node_keys.push_back(c.node.key);

    // The simulator's CPU ids index arrays, so they cannot have holes; say how
    // the kernel's numbers map, since a user will compare with their traces.
    if (renumbered) {
        CpuMask kernel_ids(cpus.back().id + 1);
        for (const ImportedCpu& c : cpus)
            kernel_ids.set(c.id);
        std::string example;
        for (std::size_t i = 0; i < cpus.size() && example.empty(); ++i)
            if (cpus[i].id != static_cast<CpuId>(i))
                example = "kernel CPU " + std::to_string(cpus[i].id) + " is CPU " + std::to_string(i);
        warnings.push_back("Only CPUs " + kernel_ids.to_cpulist() + " are online; the machine numbers them 0-" +
                           std::to_string(cpus.size() - 1) + " in the same order, so " + example + " here.");
    }
    return out;
}

void finish(ImportResult& result, const std::string& label)
{
    Machine& m = result.machine;
    // Machine files number containers depth-first; first appearance by CPU
    // id differs from that when ids interleave sockets.
    number_containers_depth_first(m);
    // Informative only: how the first core's threads are spread over the ids.
    std::vector<CpuId> first_core;
    for (const CpuTopo& c : m.cpus)
        if (c.core == m.cpus.front().core)
            first_core.push_back(c.cpu);
    bool adjacent = true;
    for (std::size_t i = 1; i < first_core.size(); ++i)
        adjacent = adjacent && first_core[i] == first_core[i - 1] + 1;
    m.numbering = adjacent ? CpuNumbering::CoreMajor : CpuNumbering::ThreadMajor;

    result.warnings.push_back(
        "The costs are the built-in defaults, not this machine's: sysfs and lscpu hold no latencies, so fill in "
        "the machine's costs as docs/costs.md describes.");

    std::vector<Diagnostic> errors;
    for (const TopologyProblem& p : validate(m)) {
        std::string what = p.field + ": " + p.message;
        if (p.cpu != kNoCpu)
            what = "CPU " + std::to_string(p.cpu) + ": " + what;
        errors.push_back({label, 0, 0, {}, "the imported machine is inconsistent: " + what});
    }
    if (!errors.empty())
        throw InputError(std::move(errors));
}

}  // namespace import_detail

}  // namespace wb

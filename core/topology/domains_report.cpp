// SPDX-License-Identifier: Apache-2.0
#include "topology/domains_report.h"

#include <algorithm>
#include <sstream>
#include <tuple>

#include "topology/machine.h"
#include "topology/sched_domains.h"

namespace wb {

namespace {

std::string join_flags(unsigned flags)
{
    std::string out;
    for (std::string_view name : sd_flag_names(flags)) {
        if (!out.empty())
            out += ' ';
        out += name;
    }
    return out;
}

std::string domain_label(const SchedDomains& d, int id)
{
    return id < 0 ? "none" : d.domain(id).name + " (" + d.domain(id).span.to_cpulist() + ")";
}

}  // namespace

std::string format_topology_tree(const Machine& m)
{
    std::ostringstream out;
    out << "Machine " << m.name << ": " << m.nr_cpus() << " CPUs, " << m.nr_nodes() << " node(s), " << m.nr_packages()
        << " package(s), " << m.nr_llcs() << " LLC(s), " << m.nr_cores() << " cores"
        << (m.has_smt() ? ", SMT" : ", no SMT") << ", arch " << arch_name(m.arch)
        << (m.asym_packing ? ", asym packing" : "") << "\n";
    if (!m.description.empty())
        out << "  " << m.description << "\n";

    // Containers appear in the order of their first CPU; CPU ids inside a
    // core are listed in thread order.
    int last_node = -1, last_package = -1, last_llc = -1, last_cluster = -1;
    std::vector<bool> core_done(static_cast<std::size_t>(m.nr_cores()), false);
    std::vector<int> cluster_cores(static_cast<std::size_t>(m.nr_clusters()), 0);
    {
        std::vector<bool> counted(static_cast<std::size_t>(m.nr_cores()), false);
        for (const CpuTopo& c : m.cpus)
            if (!counted[static_cast<std::size_t>(c.core)]) {
                counted[static_cast<std::size_t>(c.core)] = true;
                ++cluster_cores[static_cast<std::size_t>(c.cluster)];
            }
    }
    std::vector<CpuTopo> order = m.cpus;
    std::stable_sort(order.begin(), order.end(), [](const CpuTopo& a, const CpuTopo& b) {
        return std::tie(a.node, a.package, a.llc, a.cluster, a.core) <
               std::tie(b.node, b.package, b.llc, b.cluster, b.core);
    });
    for (const CpuTopo& c : order) {
        if (core_done[static_cast<std::size_t>(c.core)])
            continue;
        core_done[static_cast<std::size_t>(c.core)] = true;
        if (c.node != last_node) {
            out << "NUMANode L#" << c.node << " (CPUs " << m.node_mask(c.node).to_cpulist() << ")\n";
            last_node = c.node;
            last_package = -1;
        }
        if (c.package != last_package) {
            out << "  Package L#" << c.package << "\n";
            last_package = c.package;
            last_llc = -1;
        }
        if (c.llc != last_llc) {
            const CpuMask llc = m.llc_mask(c.cpu);
            out << "    LLC L#" << c.llc << " (" << llc.weight() << " CPUs: " << llc.to_cpulist() << ")\n";
            last_llc = c.llc;
            last_cluster = -1;
        }
        const bool show_cluster = cluster_cores[static_cast<std::size_t>(c.cluster)] > 1;
        if (show_cluster && c.cluster != last_cluster) {
            out << "      Cluster L#" << c.cluster << " (" << m.cluster_mask(c.cpu).to_cpulist() << ")\n";
            last_cluster = c.cluster;
        }
        out << (show_cluster ? "        " : "      ") << "Core L#" << c.core << ":";
        std::vector<const CpuTopo*> threads;
        for (const CpuTopo& t : m.cpus)
            if (t.core == c.core)
                threads.push_back(&t);
        std::stable_sort(threads.begin(), threads.end(), [](auto* a, auto* b) { return a->thread < b->thread; });
        for (const CpuTopo* t : threads) {
            out << " PU " << t->cpu;
            if (t->capacity != 1024 || t->speed != 1.0 || t->asym_prio != 0) {
                out << " (";
                const char* sep = "";
                if (t->capacity != 1024) {
                    out << "cap " << t->capacity;
                    sep = ", ";
                }
                if (t->speed != 1.0) {
                    out << sep << "speed " << t->speed;
                    sep = ", ";
                }
                if (t->asym_prio != 0)
                    out << sep << "prio " << t->asym_prio;
                out << ")";
            }
        }
        out << "\n";
    }
    if (m.nr_nodes() > 1) {
        out << "node distances:\n";
        for (int a = 0; a < m.nr_nodes(); ++a) {
            out << "  node" << a << ":";
            for (int dist : m.node_distance[static_cast<std::size_t>(a)])
                out << ' ' << dist;
            out << "\n";
        }
    }
    return out.str();
}

std::string format_cpu_domains(const SchedDomains& d, const CpuMask& cpus)
{
    std::ostringstream out;
    cpus.for_each([&](CpuId cpu) {
        const std::vector<int>& ids = d.domains_of(cpu);
        for (std::size_t i = 0; i < ids.size(); ++i) {
            const SchedDomain& sd = d.domain(ids[i]);
            const std::string p = "cpu" + std::to_string(cpu) + "/domain" + std::to_string(i) + "/";
            out << p << "name: " << sd.name << "\n";
            out << p << "span: " << sd.span.to_cpulist() << "\n";
            out << p << "flags: " << join_flags(sd.flags) << "\n";
            out << p << "groups:";
            for (int g : sd.groups)
                out << " {" << d.group(g).span.to_cpulist() << "}";
            out << "\n";
            out << p << "imbalance_pct: " << sd.imbalance_pct << "\n";
            out << p << "cache_nice_tries: " << sd.cache_nice_tries << "\n";
            out << p << "busy_factor: " << sd.busy_factor << "\n";
            out << p << "min_interval: " << sd.min_interval << "\n";
            out << p << "max_interval: " << sd.max_interval << "\n";
            if (sd.imb_numa_nr > 0)
                out << p << "imb_numa_nr: " << sd.imb_numa_nr << "\n";
            if (sd.numa_distance > 0)
                out << p << "numa_distance: " << sd.numa_distance << "\n";
        }
        const CpuShortcuts& s = d.shortcuts(cpu);
        const std::string p = "cpu" + std::to_string(cpu) + "/";
        out << p << "sd_llc: " << domain_label(d, s.sd_llc) << "\n";
        out << p << "sd_llc_size: " << s.sd_llc_size << "\n";
        out << p << "sd_llc_id: " << s.sd_llc_id << "\n";
        out << p << "sd_share_id: " << s.sd_share_id << "\n";
        out << p << "sd_numa: " << domain_label(d, s.sd_numa) << "\n";
        out << p << "sd_asym_packing: " << domain_label(d, s.sd_asym_packing) << "\n";
        out << p << "sd_asym_cpucapacity: " << domain_label(d, s.sd_asym_cpucapacity) << "\n";
    });
    out << "sched_smt_active: " << (d.sched_smt_active() ? "yes" : "no") << "\n";
    out << "sched_asym_cpucapacity: " << (d.sched_asym_cpucapacity() ? "yes" : "no") << "\n";
    out << "sched_cluster_active: " << (d.sched_cluster_active() ? "yes" : "no") << "\n";
    return out.str();
}

}  // namespace wb

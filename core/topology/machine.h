// SPDX-License-Identifier: Apache-2.0
//
// Machine: the hardware the simulated kernel runs on.
//
//   node (NUMA, with a distance matrix)
//    └ package (socket)
//       └ LLC (last-level cache domain: a CCX, a socket's L3, a DynamIQ L3)
//          └ cluster (CPUs sharing an L2 or LLC tags; one per core if none)
//             └ core
//                └ hardware thread = CPU, numbered as the kernel numbers it
//
// Every container has a machine-wide index (llc 5 is the sixth LLC of the
// machine), and each CPU records the index of its container at every level,
// so the masks the kernel's topology functions return (topology_sibling_cpumask,
// cpu_clustergroup_mask, cpu_coregroup_mask, cpumask_of_node) are one lookup.
//
// A Machine is built once (from a file, a synthetic spec or a sysfs import),
// checked by validate(), and then never changes during a run.
#pragma once

#include <string>
#include <vector>

#include "topology/costs.h"
#include "topology/cpumask.h"

namespace wb {

// Which architecture's sched-domain topology table the kernel would use. It
// decides the level names and which levels carry SD_ASYM_PACKING.
enum class Arch {
    Generic,  // default_topology[]: SMT, CLS, MC, PKG (arm64, riscv, ...)
    X86,      // x86_topology[]: ITMT adds SD_ASYM_PACKING above SMT when enabled
    PowerPC,  // powerpc_topology[]: SMT carries SD_ASYM_PACKING when asym_packing (Power7 ASYM_SMT)
};

std::string_view arch_name(Arch arch);
bool arch_by_name(std::string_view name, Arch& out);

// How CPU ids are handed out when a machine file leaves them implicit.
enum class CpuNumbering {
    CoreMajor,    // siblings adjacent: core0 = {0,1}, core1 = {2,3} (arm64, POWER, hybrid P-cores)
    ThreadMajor,  // first thread of every core, then the second ...: core0 = {0,N/2} (x86 servers)
};

struct IdleState {
    std::string name;  // as cpuidle names it: "WFI", "C1", "C6"
    double exit_latency_ns = 0;
    double target_residency_ns = 0;
    // The state watches the idle task's thread flags (x86 MWAIT on them, a
    // polling loop): a waker sets TIF_NEED_RESCHED and sends no IPI
    // (set_nr_if_polling()). HLT, I/O-port states and Arm's WFI do not.
    bool polls = false;
    friend bool operator==(const IdleState&, const IdleState&) = default;
};

// One hardware thread.
struct CpuTopo {
    CpuId cpu = kNoCpu;
    int node = 0, package = 0, llc = 0, cluster = 0, core = 0;  // machine-wide container indexes
    int thread = 0;                                             // position among its core's siblings, 0 = first
    int capacity = 1024;                                        // arch_scale_cpu_capacity(), 1..1024
    double speed = 1.0;  // work done per ns relative to nominal (1.0); may differ from capacity
    int asym_prio = 0;   // arch_asym_cpu_priority(): higher is preferred by SD_ASYM_PACKING
    friend bool operator==(const CpuTopo&, const CpuTopo&) = default;
};

struct Machine {
    std::string name;
    std::string description;
    std::string source;  // where the facts come from (datasheet, sysfs dump, paper)
    Arch arch = Arch::Generic;
    bool asym_packing = false;  // ITMT (x86) or ASYM_SMT (POWER7) active
    // NUMA levels further apart than this lose wake-affine and fork/exec
    // balancing. The kernel's default is 30; arch code changes it (AMD Zen: 32).
    int node_reclaim_distance = 30;
    CpuNumbering numbering = CpuNumbering::CoreMajor;  // as written in the file; informative

    std::vector<std::vector<int>> node_distance;  // node_distance[a][b], SLIT units (local = 10)
    std::vector<CpuTopo> cpus;                    // cpus[i].cpu == i
    std::vector<IdleState> idle_states;           // shallowest first
    CostModel costs;

    int nr_cpus() const { return static_cast<int>(cpus.size()); }
    int nr_nodes() const { return static_cast<int>(node_distance.size()); }
    int nr_packages() const;
    int nr_llcs() const;
    int nr_clusters() const;
    int nr_cores() const;
    bool has_smt() const;  // some core has more than one thread

    // The kernel's topology masks, as they would be read from sysfs.
    CpuMask all_cpus() const { return CpuMask::range(nr_cpus(), 0, nr_cpus() - 1); }
    CpuMask smt_mask(CpuId cpu) const;      // topology_sibling_cpumask
    CpuMask cluster_mask(CpuId cpu) const;  // topology_cluster_cpumask
    CpuMask llc_mask(CpuId cpu) const;      // cpu_coregroup_mask (LLC siblings)
    CpuMask package_mask(CpuId cpu) const;  // topology_core_cpumask
    CpuMask node_mask(int node) const;      // cpumask_of_node

    friend bool operator==(const Machine&, const Machine&) = default;
};

// Renumbers nodes, packages, LLCs, clusters and cores depth-first in tree
// order (node 0's packages first, ...), as a machine file numbers them. An
// importer numbering by first appearance on a machine whose CPU ids
// interleave sockets calls this before the machine is saved or compared.
void number_containers_depth_first(Machine& machine);

// One thing wrong with a machine. `cpu` names the hardware thread it is about
// (kNoCpu for machine-wide facts) and `field` the member ("capacity",
// "node_distance/1/0"), so a loader can map it back to a place in its file.
struct TopologyProblem {
    CpuId cpu = kNoCpu;
    std::string field;
    std::string message;
};

// Checks the invariants every consumer relies on: CPU ids 0..n-1 each once,
// at most kMaxCpus, containers nested (a core in one cluster, a cluster in
// one LLC ...), capacities in 1..1024, speeds positive, a square distance
// matrix with 10 on the diagonal and larger values off it. Returns every
// problem found, not only the first.
std::vector<TopologyProblem> validate(const Machine& machine);

}  // namespace wb

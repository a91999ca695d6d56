// SPDX-License-Identifier: Apache-2.0
//
// QemuTopology: a Machine as QEMU's x86 vCPUs can show it to a guest
// kernel, or the reasons it cannot.
//
// What the guest kernel sees comes from the CPUID leaves QEMU synthesises
// from -smp (checked by booting Debian's 6.1 and 6.12 kernels under QEMU 7.2
// with `-cpu max,vendor=GenuineIntel`):
//   threads  leaf 0xB's SMT level          -> topology_sibling_cpumask (SMT)
//   cores    leaf 0xB's core level          -> the package's cores
//   dies     leaf 0x1F; leaf 4 reports L3 shared by one die's threads
//                                           -> cpu_llc_shared_mask (MC = LLC)
//   sockets  the package                    -> topology_core_cpumask
// L2 is per core in QEMU 7.2, so no cluster (CLS) of several cores can be
// made (-smp clusters= is arm-only before QEMU 9.0); -numa assigns whole
// sockets to nodes, and -numa dist gives the SLIT the NUMA levels are built
// from. QEMU numbers vCPUs socket by socket, then die, core and thread.
#pragma once

#include <string>
#include <vector>

namespace wb {

struct Machine;

struct QemuTopology {
    int sockets = 1;                             // -smp counts, each per parent as -smp takes them
    int dies = 1;                                // per socket: one per LLC
    int cores = 1;                               // per die
    int threads = 1;                             // per core
    std::vector<std::vector<int>> node_sockets;  // node -> its sockets; empty for one node (no -numa at all)
    std::vector<std::vector<int>> distance;      // node_distance, SLIT units
    // qemu_cpu[c]: the vCPU number QEMU gives the machine's CPU c. QEMU
    // numbers vCPUs socket by socket, then die, core and thread
    // (core-major); a machine numbered otherwise (x86 servers number the
    // first thread of every core first) is booted renumbered.
    std::vector<int> qemu_cpu;

    int cpus() const { return sockets * dies * cores * threads; }
    bool renumbered() const;
    int nodes() const { return static_cast<int>(node_sockets.size()); }
    // "sockets=2,dies=1,cores=2,threads=2" as -smp takes them.
    std::string smp() const;
};

// The most vCPUs the i440fx machine gives a guest without an IOMMU (xAPIC ids).
inline constexpr int kQemuMaxCpus = 255;

// The most SMT threads per core x86 is given here: Intel and AMD parts have
// two; Xeon Phi had four. Beyond that QEMU would hand the guest a topology no
// x86 processor has, which is not a check of the kernel on this machine.
inline constexpr int kQemuMaxThreads = 4;

struct QemuFit {
    QemuTopology topology;              // valid when refusals is empty
    std::vector<std::string> refusals;  // each a sentence: what the machine has and why QEMU cannot give it
    bool fits() const { return refusals.empty(); }
};

// Every reason `machine` cannot be booted as it is, not only the first.
QemuFit fit_qemu_topology(const Machine& machine);

// The topology, or an InputError with one diagnostic per reason, naming
// `spec` (the --topology given).
QemuTopology qemu_topology_for(const Machine& machine, const std::string& spec);

// `machine` with its CPUs numbered as QEMU numbers them (topology.qemu_cpu):
// the numbers the guest's trace and domains use. The same machine when it
// is already numbered so.
Machine numbered_as_qemu(const Machine& machine, const QemuTopology& topology);

// "0->0 1->2 2->4 ..." for a renumbered machine, "" otherwise.
std::string qemu_numbering(const QemuTopology& topology);

}  // namespace wb

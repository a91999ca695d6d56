// SPDX-License-Identifier: Apache-2.0
//
// Importing a real machine from the kernel's own description of it, the
// per-CPU topology, cache and capacity files under /sys/devices/system/cpu
// and the NUMA nodes under /sys/devices/system/node, so that a user can run
// the simulator on the machine in front of them (or on a copied tree).
//
// Only the topology is imported. The costs stay at their defaults, and a
// warning says so, because sysfs holds no latencies.
#pragma once

#include <string>
#include <vector>

#include "io/input_error.h"
#include "topology/machine.h"

namespace wb {

struct ImportResult {
    Machine machine;                    // validated (wb::validate() returns nothing)
    std::vector<std::string> warnings;  // fall-backs taken, each a sentence naming the path that was missing
};

// Reads ROOT/sys/devices/system/cpu/cpu*/topology/, cpu*/cache/index*/,
// cpu*/cpu_capacity and ROOT/sys/devices/system/node/, plus ROOT/proc/cpuinfo
// (architecture) and ROOT/etc/hostname (name). root "" or "/" means the live
// machine. Only online CPUs are imported; if the kernel's ids have holes the
// machine numbers them 0..n-1 and a warning gives the mapping. Throws
// InputError (file = the path at fault) when the tree cannot give a machine:
// no cpu directories, unparsable files, contradicting masks (a core split
// across two LLCs ...).
ImportResult import_sysfs(const std::string& root);

// The assembly step both importers share: lscpu -p is a digest of the same
// sysfs files, so it ends in the same checks and numbering.
namespace import_detail {

// What an importer learnt about one online CPU. For each container level a
// key (CPUs with equal keys share the container; the text is opaque) and
// where it was read, so that a contradiction can name the file at fault.
struct Fact {
    std::string key;
    Diagnostic where;  // file, line, column; message unused
};

struct ImportedCpu {
    CpuId id = kNoCpu;  // the kernel's CPU number
    Fact node, package, llc, cluster, core;
    int capacity = 1024;
};

struct Assembled {
    Machine machine;                     // cpus filled; node_distance still empty
    std::vector<std::string> node_keys;  // node_keys[i] is the key of machine node i
};

// Numbers CPUs, threads and containers (machine-wide, in order of first
// appearance by ascending CPU id) and checks that every container sits in one
// container of the level above. A package or LLC that spans NUMA nodes is split
// per node, as x86 does for sub-NUMA clustering; a cluster that covers its whole
// LLC becomes the core, as cpu_clustergroup_mask() does. Throws InputError with
// one diagnostic per contradiction.
Assembled assemble(std::vector<ImportedCpu> cpus, std::vector<std::string>& warnings);

// The checks and defaults common to both importers once node_distance is set:
// numbering, the costs warning, and validate(), whose problems become
// diagnostics against `label`.
void finish(ImportResult& result, const std::string& label);

}  // namespace import_detail

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// What an import produces, and the assembly step the sysfs and lscpu
// importers share.
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

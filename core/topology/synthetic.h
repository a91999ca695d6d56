// SPDX-License-Identifier: Apache-2.0
//
// Synthetic machines for quick experiments, in an hwloc-like one-liner:
//
//   synthetic:node=2,llc=4,core=8,smt=2
//
// Counts are per parent: 2 nodes, 4 LLCs per node, 8 cores per LLC, 2 threads
// per core. Keys: node, pkg (packages per node), llc (per package), cluster
// (per LLC; default one per core), core (per cluster, or per LLC without
// clusters), smt (threads per core); arch=generic|x86|powerpc,
// numbering=core-major|thread-major, distance=N (remote node distance, default
// 20), asym_packing=0|1. Asymmetric machines give capacities core by core:
// capacity=446x4/871x3/1024 (4 cores at 446, 3 at 871, 1 at 1024); the
// counts must add up to the number of cores. smt_speed=1/0.9 sets the speed of
// thread 0, 1, ... of every core; asym_prio the same way for priorities.
#pragma once

#include <string_view>

#include "topology/machine.h"

namespace wb {

inline constexpr std::string_view kSyntheticPrefix = "synthetic:";

// Parses `spec` (with or without the "synthetic:" prefix). Throws InputError
// naming the item at fault and its column in the spec.
Machine parse_synthetic(std::string_view spec);

}  // namespace wb

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

#include "io/machine_import.h"

namespace wb {

// Reads ROOT/sys/devices/system/cpu/cpu*/topology/, cpu*/cache/index*/,
// cpu*/cpu_capacity and ROOT/sys/devices/system/node/, plus ROOT/proc/cpuinfo
// (architecture) and ROOT/etc/hostname (name). root "" or "/" means the live
// machine. Only online CPUs are imported; if the kernel's ids have holes the
// machine numbers them 0..n-1 and a warning gives the mapping. Throws
// InputError (file = the path at fault) when the tree cannot give a machine:
// no cpu directories, unparsable files, contradicting masks (a core split
// across two LLCs ...).
ImportResult import_sysfs(const std::string& root);

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// Plain-text views of a machine for `wakesim topology show`: an lstopo-like
// tree, and each CPU's sched domains in the layout of the kernel's
// /sys/kernel/debug/sched/domains/cpuN/domainM/ files, one "path: value" per
// line, so the output can be grepped and compared with a real machine.
#pragma once

#include <string>

#include "topology/cpumask.h"

namespace wb {

struct Machine;
class SchedDomains;

std::string format_topology_tree(const Machine& machine);

// The domains of every CPU in `cpus`, followed by the CPU's shortcuts
// (sd_llc_size, sd_llc_id, sd_share_id, ...) and the static keys.
std::string format_cpu_domains(const SchedDomains& domains, const CpuMask& cpus);

}  // namespace wb

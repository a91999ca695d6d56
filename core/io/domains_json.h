// SPDX-License-Identifier: Apache-2.0
//
// The JSON form of `wakesim topology show --json`: the machine's CPUs and,
// per CPU, its sched domains (name, flags by name, span as a cpulist, groups,
// sd_init parameters) and shortcuts, the same facts as the text form.
#pragma once

#include <string>

#include "topology/cpumask.h"

namespace wb {

struct Machine;
class SchedDomains;

std::string domains_to_json(const Machine& machine, const SchedDomains& domains, const CpuMask& cpus);

}  // namespace wb

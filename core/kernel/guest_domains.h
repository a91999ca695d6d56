// SPDX-License-Identifier: Apache-2.0
//
// The sched domains a guest kernel built, read from what its /init sends:
//   domains    "cpuN/domainM NAME FLAG FLAG ..." per domain, from
//              /sys/kernel/debug/sched/domains/cpuN/domainM/{name,flags}
//              (present when the kernel runs with sched_verbose)
//   schedstat  /proc/schedstat, whose "domainM [NAME] MASK ..." lines give
//              each domain's span as a hex cpumask (the name since
//              schedstat version 17)
// and compared with the model's for the same machine, by span and by what
// the flags mean: kernels before 6.7 call the package level DIE (now PKG)
// and before 6.10 say SD_SHARE_PKG_RESOURCES for SD_SHARE_LLC; SD_OVERLAP,
// which marks NUMA levels built from overlapping groups, is not one of the
// model's flags (sd_flags.h) and is expected exactly on its NUMA levels.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "topology/cpumask.h"

namespace wb {

class SchedDomains;

struct GuestDomain {
    std::string name;         // as the model names it: DIE is read as PKG; "" when the kernel did not say
    std::string kernel_name;  // as the kernel printed it
    unsigned flags = 0;       // the model's SD_* bits
    bool overlap = false;     // SD_OVERLAP
    std::vector<std::string> unknown_flags;  // names neither the model nor the translations know
    bool flags_known = false;                // the debugfs line was there
    CpuMask span;
};

struct GuestDomains {
    std::vector<std::vector<GuestDomain>> per_cpu;  // bottom-up, as for_each_domain
    bool from_debugfs = false;                      // names and flags known; else only the spans of /proc/schedstat
};

// `nr_cpus` is the machine's; a CPU or span beyond it is a KernelCheckError.
GuestDomains parse_guest_domains(std::string_view debugfs_lines, std::string_view schedstat, int nr_cpus);

// "0000000f" or "00000000,000000ff" (%*pb, 32 bits a group): the CPUs set.
CpuMask parse_hex_cpumask(std::string_view text, int nr_cpus);

struct DomainDifference {
    CpuId cpu = kNoCpu;
    int level = 0;     // position in the CPU's chain
    std::string what;  // "guest MC 0-3, model PKG 0-7" or "flags: guest lacks SD_SHARE_LLC"
};

// Every difference between the guest's domains and the model's, CPU by CPU
// and level by level.
std::vector<DomainDifference> compare_domains(const GuestDomains& guest, const SchedDomains& model);

}  // namespace wb

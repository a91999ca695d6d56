// SPDX-License-Identifier: Apache-2.0
//
// Sched-domain flags, with the kernel's names and bit values
// (include/linux/sched/sd_flags.h as of v7.x), and their metaflags: which
// flags must hold from the base domain up (SHARED_CHILD) and which only mean
// something when a domain has two or more groups (NEEDS_GROUPS); the
// degeneration rules and highest_flag_domain() read those.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace wb {

inline constexpr unsigned SD_BALANCE_NEWIDLE = 0x0001;
inline constexpr unsigned SD_BALANCE_EXEC = 0x0002;
inline constexpr unsigned SD_BALANCE_FORK = 0x0004;
inline constexpr unsigned SD_BALANCE_WAKE = 0x0008;
inline constexpr unsigned SD_WAKE_AFFINE = 0x0010;
inline constexpr unsigned SD_ASYM_CPUCAPACITY = 0x0020;
inline constexpr unsigned SD_ASYM_CPUCAPACITY_FULL = 0x0040;
inline constexpr unsigned SD_SHARE_CPUCAPACITY = 0x0080;
inline constexpr unsigned SD_CLUSTER = 0x0100;
inline constexpr unsigned SD_SHARE_LLC = 0x0200;
inline constexpr unsigned SD_SERIALIZE = 0x0400;
inline constexpr unsigned SD_ASYM_PACKING = 0x0800;
inline constexpr unsigned SD_PREFER_SIBLING = 0x1000;
inline constexpr unsigned SD_NUMA = 0x2000;

// Flags set from the base domain upwards: once a domain lacks one, no parent has it.
inline constexpr unsigned SD_SHARED_CHILD_MASK = SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK |
                                                 SD_BALANCE_WAKE | SD_WAKE_AFFINE | SD_SHARE_CPUCAPACITY | SD_SHARE_LLC;

// Flags that only matter in a domain with at least two groups.
inline constexpr unsigned SD_DEGENERATE_GROUPS_MASK = SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK |
                                                      SD_BALANCE_WAKE | SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL |
                                                      SD_SHARE_CPUCAPACITY | SD_CLUSTER | SD_SHARE_LLC | SD_SERIALIZE |
                                                      SD_ASYM_PACKING | SD_PREFER_SIBLING | SD_NUMA;

// The flags an architecture's topology table may set; the rest are behaviour.
inline constexpr unsigned TOPOLOGY_SD_FLAGS =
    SD_SHARE_CPUCAPACITY | SD_CLUSTER | SD_SHARE_LLC | SD_NUMA | SD_ASYM_PACKING;

// Wake flags (WF_*) reuse the SD_BALANCE_* bits for exec, fork and wakeup, so
// select_task_rq_fair can mask one with the other, as the kernel asserts.
inline constexpr unsigned WF_EXEC = 0x02;
inline constexpr unsigned WF_FORK = 0x04;
inline constexpr unsigned WF_TTWU = 0x08;
inline constexpr unsigned WF_SYNC = 0x10;
inline constexpr unsigned WF_MIGRATED = 0x20;
inline constexpr unsigned WF_CURRENT_CPU = 0x40;
inline constexpr unsigned WF_RQ_SELECTED = 0x80;
static_assert(WF_EXEC == SD_BALANCE_EXEC && WF_FORK == SD_BALANCE_FORK && WF_TTWU == SD_BALANCE_WAKE);

// {"SD_BALANCE_NEWIDLE", ...} in bit order, as /sys/kernel/debug/sched/domains prints them.
std::vector<std::string_view> sd_flag_names(unsigned flags);

// The flag called `name` (with or without the "SD_" prefix); 0 if none.
unsigned sd_flag_by_name(std::string_view name);

}  // namespace wb

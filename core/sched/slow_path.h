// SPDX-License-Identifier: Apache-2.0
//
// The placement slow path (kernel/sched/fair.c sched_balance_find_dst_cpu()
// and friends, v7.3 merge window; wakeup-path.md §8): used for fork and
// exec, and for wakeups only if some domain carried SD_BALANCE_WAKE (none
// does by default). It descends the domain tree from the highest level
// carrying the balance flag, at each level picking the idlest group and the
// idlest CPU in it.
#pragma once

#include <array>
#include <string_view>

#include "sched/decision.h"
#include "sched/sched_state.h"

namespace wb {

// enum group_type, least busy first: the order is what the comparisons use.
enum class GroupType { HasSpare, FullyBusy, MisfitTask, SmtBalance, AsymPacking, Imbalanced, LlcBalance, Overloaded };

inline constexpr std::array<std::string_view, 8> kGroupTypeNames{
    "has_spare", "fully_busy", "misfit_task", "smt_balance", "asym_packing", "imbalanced", "llc_balance", "overloaded"};

inline std::string_view group_type_name(GroupType t)
{
    return kGroupTypeNames[static_cast<std::size_t>(t)];
}

// struct sg_lb_stats as update_sg_wakeup_stats() fills it: the group as it
// would be without p.
struct WakeupGroupStats {
    unsigned long group_load = 0;
    unsigned long group_util = 0;
    unsigned long group_runnable = 0;
    unsigned long group_capacity = 0;  // sum of capacity_of()
    unsigned long max_capacity = 0;    // largest capacity_of() in the group
    unsigned long avg_load = 0;        // load x 1024 / capacity; only for fully_busy and overloaded
    unsigned int sum_nr_running = 0;
    unsigned int idle_cpus = 0;
    unsigned int group_weight = 0;
    bool misfit = false;  // asym: p fits no CPU of the group
    GroupType group_type = GroupType::HasSpare;
};

// sched_balance_find_dst_cpu(): the CPU for p, starting at domain `sd` of
// `cpu` (the waker / forking / exec'ing CPU). sd_flag is SD_BALANCE_FORK,
// _EXEC or _WAKE. Returns prev if p may run nowhere in sd.
CpuId sched_balance_find_dst_cpu(const SchedState& s, int sd, TaskId p, CpuId cpu, CpuId prev, unsigned sd_flag,
                                 DecisionRecord* rec);

// update_sg_wakeup_stats(): statistics of group `group` of domain `sd`
// without p's contribution. p_avg is p's PELT signals as the slow path sees
// them (synced to its runqueue, except for a new task).
WakeupGroupStats update_sg_wakeup_stats(const SchedState& s, int sd, int group, TaskId p, const SchedAvg& p_avg);

// sched_balance_find_dst_group(): the idlest group of `sd` for p if moving
// there beats staying in this_cpu's group, else -1 (stay).
int sched_balance_find_dst_group(const SchedState& s, int sd, TaskId p, const SchedAvg& p_avg, CpuId this_cpu,
                                 DecisionRecord* rec);

// sched_balance_find_dst_group_cpu(): in group `group`, a SCHED_IDLE-only
// CPU at once, else the idle CPU in the shallowest idle state (most recent
// idle_stamp on ties), else the least loaded CPU (this_cpu if none is less).
CpuId sched_balance_find_dst_group_cpu(const SchedState& s, int group, TaskId p, CpuId this_cpu, DecisionRecord* rec);

}  // namespace wb

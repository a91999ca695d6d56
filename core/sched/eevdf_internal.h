// SPDX-License-Identifier: Apache-2.0
//
// Private to core/sched/eevdf_*.cpp: the helpers that the fair runqueue's
// files (queue, pick, PELT glue) share. Not part of the public interface;
// include sched/eevdf.h instead.
//
// The fair runqueue follows kernel/sched/fair.c (v7.3 merge window, flat
// EEVDF tree); function names and the order of their steps follow the
// kernel's; the reference is ../shared/reference/wakeup-path.md §10, §11, §13.
//
// Where we differ, and why (docs/model.md lists these):
//  - The tree is a vector kept in the rb-tree's in-order (deadline, equal
//    deadlines in insertion order); a linear scan for the first eligible
//    entity returns exactly what the augmented-tree search returns.
//  - No cgroups: an entity's effective weight is its own, so the flat tree's
//    reweighting of curr at every tick and pick is a no-op and left out.
//  - PELT removal on migration is applied at once to the old runqueue (the
//    kernel queues it in cfs_rq->removed and subtracts it at that runqueue's
//    next update); the values subtracted are the same.
//  - Only the fair class exists, so rq.nr_running counts fair tasks only,
//    a fair wakee always preempts the idle task, and the CPU's time is all
//    clock_task (no IRQ or steal time).
//  - Invariance scales running time in PELT instead of clock_pelt (pelt.cpp).
//  - Tasks keep load_sum weighted by their weight (the kernel keeps it
//    unweighted and multiplies when averaging); the averages agree up to
//    the rounding of one decay.
//  - Bandwidth control, throttling, HRTICK, NUMA balancing, schedstats,
//    misfit and over-utilisation are not modelled here.
#pragma once

#include <cstdint>

#include "sched/eevdf.h"

namespace wb::eevdf_detail {

__extension__ using i128 = __int128;
__extension__ using u128 = unsigned __int128;

// update_load_avg() actions.
inline constexpr unsigned UPDATE_TG = 0x01;  // kept for symmetry with the kernel's calls; no task groups here
inline constexpr unsigned DO_ATTACH = 0x04;
inline constexpr unsigned DO_DETACH = 0x08;
inline constexpr unsigned UPDATE_UTIL_EST = 0x10;

inline Task& task_of(SchedState& s, TaskId id)
{
    return s.task(id);
}
inline SchedEntity& se_of(SchedState& s, TaskId id)
{
    return s.task(id).se;
}
inline const SchedEntity& se_of(const SchedState& s, TaskId id)
{
    return s.task(id).se;
}

inline bool is_idle_policy(const Task& p)
{
    return p.policy == SchedPolicy::Idle;
}

inline void clear_buddies(CfsRq& cfs, TaskId id)
{
    if (cfs.next == id)
        cfs.next = kNoTask;
}

// Defined in eevdf_queue.cpp.
const SchedEntity* queued_curr(const SchedState& s, const CfsRq& cfs);
bool vruntime_eligible(const SchedState& s, const CfsRq& cfs, std::int64_t vruntime);
void enqueue_tree(SchedState& s, CfsRq& cfs, TaskId id);
void dequeue_tree(SchedState& s, CfsRq& cfs, TaskId id);

// Defined in eevdf_pelt.cpp.
void update_load_avg(SchedState& s, CpuId cpu, TaskId id, unsigned flags);

}  // namespace wb::eevdf_detail

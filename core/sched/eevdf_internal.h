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
//  - The tree is our own augmented red-black tree (eevdf_tree.h), with the
//    kernel's order and subtree values; its slice values are kept exact
//    (see eevdf_tree.h on the kernel's max_slice fixes).
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
#include "sched/eevdf_tree.h"

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

// 64-bit kernels keep weights in 22.10 fixed point (scale_load); the EEVDF
// sums use that resolution, which decides how V rounds.
inline constexpr unsigned kLoadShift = 10;

inline std::uint64_t scaled_weight(const SchedEntity& se)
{
    return static_cast<std::uint64_t>(se.weight) << kLoadShift;
}

inline std::int64_t entity_key(const CfsRq& cfs, const SchedEntity& se)
{
    return se.vruntime - cfs.zero_vruntime;
}

inline void sum_w_vruntime_add(CfsRq& cfs, const SchedEntity& se)
{
    const auto w = scaled_weight(se);
    cfs.sum_w_vruntime += entity_key(cfs, se) * static_cast<std::int64_t>(w);
    cfs.sum_weight += w;
}

inline void sum_w_vruntime_sub(CfsRq& cfs, const SchedEntity& se)
{
    const auto w = scaled_weight(se);
    cfs.sum_w_vruntime -= entity_key(cfs, se) * static_cast<std::int64_t>(w);
    cfs.sum_weight -= w;
}

// Defined in eevdf_queue.cpp.
const SchedEntity* queued_curr(const SchedState& s, const CfsRq& cfs);
bool vruntime_eligible(const SchedState& s, const CfsRq& cfs, std::int64_t vruntime);

// vruntime_eligible() as a predicate for several vruntimes against one V
// (the pick's descent of the tree): the weighted sum and the load, with
// curr's share, are taken once. vruntime <= V is tested exactly,
// cross-multiplied, not against the rounded V: (v - v0) * W <= sum. The
// product can exceed 64 bits.
struct VruntimeEligible {
    std::int64_t zero_vruntime;
    std::int64_t avg;
    std::int64_t load;

    VruntimeEligible(const SchedState& s, const CfsRq& cfs)
        : zero_vruntime(cfs.zero_vruntime), avg(cfs.sum_w_vruntime), load(static_cast<std::int64_t>(cfs.sum_weight))
    {
        if (const SchedEntity* curr = queued_curr(s, cfs)) {
            const auto w = static_cast<std::int64_t>(scaled_weight(*curr));
            avg += entity_key(cfs, *curr) * w;
            load += w;
        }
    }
    bool operator()(std::int64_t vruntime) const
    {
        const std::int64_t key = vruntime - zero_vruntime;
        return static_cast<i128>(avg) >= static_cast<i128>(key) * load;
    }
};

// __enqueue_entity / __dequeue_entity: the tree (eevdf_tree.h) and the
// sums. curr is never in the tree. Inline for the common case, an entity
// alone in the tree (a CPU's only waiting task, or the task just woken on
// an idle CPU); the tree's own insert and erase, O(log n), are out of line.
[[gnu::always_inline]] inline void enqueue_tree(SchedState& s, CfsRq& cfs, TaskId id)
{
    SchedEntity& se = se_of(s, id);
    Timeline& tl = cfs.tasks_timeline;
    if (tl.empty()) {
        se.run_node = RunNode{{kNoTask, kNoTask}, kNoTask, false, se.vruntime, se.slice, se.slice};
        tl.root = id;
        tl.leftmost = id;
    } else {
        timeline_insert(s.tasks, tl, id);
    }
    sum_w_vruntime_add(cfs, se);
}

[[gnu::always_inline]] inline void dequeue_tree(SchedState& s, CfsRq& cfs, TaskId id)
{
    Timeline& tl = cfs.tasks_timeline;
    if (timeline_is_only(s.tasks, tl, id))
        timeline_erase_only(tl);
    else
        timeline_erase(s.tasks, tl, id);
    sum_w_vruntime_sub(cfs, se_of(s, id));
}

// RUN_TO_PARITY: curr is inside the slice it was promised.
inline bool protect_slice(const SchedEntity& se)
{
    return se.vruntime < se.vprot;
}

// update_deadline() once curr has reached its virtual deadline: it has had
// its request; the next one starts where it is. Defined in eevdf_pick.cpp,
// out of line, so that the charge of a run that ends before its deadline
// (most) saves no registers for it.
void renew_deadline(SchedState& s, CpuId cpu, SchedEntity& se);

// update_curr()'s charge of curr (not kNoTask) for its run since
// exec_start. Inline here for dequeue_task_fair(), which charges the task
// going to sleep every time; update_curr() calls it out of line.
// charge_curr_se() is the same with curr's entity at hand.
[[gnu::always_inline]] inline bool charge_curr_se(SchedState& s, CpuId cpu, CfsRq& cfs, SchedEntity& se)
{
    const std::int64_t now = s.now.ns();
    const std::int64_t delta = now - static_cast<std::int64_t>(se.exec_start);
    if (delta <= 0)
        return false;
    se.exec_start = static_cast<std::uint64_t>(now);
    se.sum_exec_runtime += static_cast<std::uint64_t>(delta);
    se.vruntime += static_cast<std::int64_t>(calc_delta_fair(static_cast<std::uint64_t>(delta), se));
    // update_deadline()
    const bool resched = se.vruntime >= se.deadline;
    if (resched)
        renew_deadline(s, cpu, se);

    if (cfs.h_nr_queued == 1)
        return false;
    if (resched || !protect_slice(se)) {
        cfs.need_resched = true;
        clear_buddies(cfs, cfs.curr);
        return true;
    }
    return false;
}

[[gnu::always_inline]] inline bool charge_curr_of(SchedState& s, CpuId cpu, CfsRq& cfs)
{
    return charge_curr_se(s, cpu, cfs, se_of(s, cfs.curr));
}

// clock_task in PELT's terms: simulated time, one period ahead
// (kPeltClockOffset, pelt.h).
inline std::uint64_t pelt_now(const SchedState& s)
{
    return static_cast<std::uint64_t>(s.now.ns()) + kPeltClockOffset;
}

// rq_clock_pelt() of rq at now, the time its PELT signals and its tasks'
// are updated to (pelt.h). On a CPU at full capacity it is pelt_now().
[[gnu::always_inline]] inline std::uint64_t rq_clock_pelt(const SchedState& s, Rq& rq)
{
    return rq_clock_pelt(rq.pelt_clock, pelt_now(s), rq.curr == kNoTask, rq.cfs.avg.util_sum);
}

// Defined in eevdf_pelt.cpp: update_load_avg()'s rare actions.
void attach_entity_load_avg(CfsRq& cfs, SchedEntity& se);
void detach_entity_load_avg(CfsRq& cfs, const SchedEntity& se);

// update_load_avg(): brings the task and its runqueue to now with the state
// they had since their last update, then applies the attach / detach /
// util_est action. Always called before the state changes. Inline: a pipe
// wakeup runs it three times, and inside each caller the flags are known
// and the runqueue and entity already at hand, which leaves little more
// than the two updates themselves. The task's state is the caller's to
// pass, as each knows it from where it stands (an enqueued task was not
// queued, a dequeued one was): `load` its weight while queued, 0 when not;
// `runnable` 1 when queued and not delayed (a delayed entity still weighs
// on the queue but will be dequeued the moment it is picked); `running` 1
// when it is cfs.curr. Constants there fold the update's tests away.
struct EntityPeltState {
    unsigned long load;
    unsigned long runnable;
    int running;
};

//
// update_load_avg_as() takes the runqueue's `running` too (1 while a fair
// task has been cfs.curr since its last update), for callers that know it
// as a constant, which then folds the runqueue update's test away.
[[gnu::always_inline]] inline void update_load_avg_as(SchedState& s, CpuId cpu, TaskId id, EntityPeltState state,
                                                      int cfs_running, unsigned flags)
{
    Rq& rq = s.rq(cpu);
    CfsRq& cfs = rq.cfs;
    SchedEntity& se = se_of(s, id);
    const std::uint64_t now = rq_clock_pelt(s, rq);

    if (se.avg.last_update_time) {
        const bool changed = update_sched_avg(se.avg, now, state.load, state.runnable, state.running);
        if (changed && s.feats(Feat::UTIL_EST))
            se.util_avg_unchanged = false;
    }
    update_sched_avg(cfs.avg, now, static_cast<unsigned long>(cfs.load_weight), cfs.h_nr_runnable, cfs_running);

    if (!se.avg.last_update_time && (flags & DO_ATTACH))
        attach_entity_load_avg(cfs, se);
    else if (flags & DO_DETACH)
        detach_entity_load_avg(cfs, se);

    if ((flags & UPDATE_UTIL_EST) && s.feats(Feat::UTIL_EST) && !se.util_avg_unchanged) {
        util_est_update(se.avg);
        se.util_avg_unchanged = true;
    }
}

[[gnu::always_inline]] inline void update_load_avg(SchedState& s, CpuId cpu, TaskId id, EntityPeltState state,
                                                   unsigned flags)
{
    update_load_avg_as(s, cpu, id, state, s.rq(cpu).cfs.curr != kNoTask ? 1 : 0, flags);
}

}  // namespace wb::eevdf_detail

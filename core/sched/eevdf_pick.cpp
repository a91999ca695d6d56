// SPDX-License-Identifier: Apache-2.0
//
// The EEVDF fair runqueue's pick and preemption: pick_eevdf and
// pick_next_task_fair, set_next/put_prev, update_curr and the tick,
// run-to-parity slice protection, buddies, wakeup preemption, and
// fair_resched_time. Where the model differs from the kernel is noted in
// eevdf_internal.h.
#include <algorithm>
#include <limits>

#include "sched/eevdf.h"
#include "sched/eevdf_internal.h"
#include "topology/sd_flags.h"

namespace wb {

using namespace eevdf_detail;

namespace {

// The vruntime past which curr stops being eligible: the average of the
// others, since curr's own weight pulls V towards it.
std::int64_t ineligible_vruntime(const CfsRq& cfs)
{
    std::int64_t delta = 0;
    if (const auto weight = static_cast<std::int64_t>(cfs.sum_weight)) {
        std::int64_t runtime = cfs.sum_w_vruntime;
        if (runtime < 0)
            runtime -= weight - 1;
        delta = runtime / weight;
    }
    return cfs.zero_vruntime + delta + 1;
}

// The shortest slice among the queued entities: curr's and the tree's,
// which its root keeps.
std::uint64_t cfs_rq_min_slice(const SchedState& s, const CfsRq& cfs)
{
    std::uint64_t slice = std::numeric_limits<std::uint64_t>::max();
    if (const SchedEntity* curr = queued_curr(s, cfs))
        slice = curr->slice;
    if (!cfs.tasks_timeline.empty())
        slice = std::min(slice, timeline_min_slice(s.tasks, cfs.tasks_timeline));
    return slice;
}

void cancel_protect_slice(SchedEntity& se)
{
    if (protect_slice(se))
        se.vprot = se.vruntime;
}

// set_protect_slice(): how far curr may run before the pick looks again.
// With RUN_TO_PARITY the shortest queued slice bounds it, so a short-slice
// task is not kept waiting a whole long slice; without it, the normalized
// base slice does.
void set_protect_slice(SchedState& s, CfsRq& cfs, SchedEntity& se)
{
    std::uint64_t slice = static_cast<std::uint64_t>(s.tunables.base_slice_normalized);
    std::int64_t vprot = se.deadline;
    if (s.feats(Feat::RUN_TO_PARITY)) {
        // Alone on its CPU, se's own slice is the shortest: up to its deadline.
        if (cfs.tasks_timeline.empty()) {
            se.vprot = vprot;
            return;
        }
        slice = cfs_rq_min_slice(s, cfs);
    }
    slice = std::min(slice, se.slice);
    if (slice != se.slice) {
        if (s.feats(Feat::PREEMPT_SHORT))
            vprot = std::min(vprot, ineligible_vruntime(cfs));
        else
            vprot = std::min(vprot, se.vruntime + static_cast<std::int64_t>(calc_delta_fair(slice, se)));
    }
    se.vprot = vprot;
}

// A wakee that did not preempt may still shorten curr's protection: a
// shorter slice now queued bounds it from here on.
void update_protect_slice(SchedState& s, CpuId cpu, SchedEntity& se)
{
    CfsRq& cfs = s.rq(cpu).cfs;
    const std::uint64_t slice = cfs_rq_min_slice(s, cfs);
    const std::int64_t runtime = std::min(se.vruntime, avg_vruntime(s, cpu));
    se.vprot = std::min(se.vprot, runtime + static_cast<std::int64_t>(calc_delta_fair(slice, se)));
}

void set_next_buddy(SchedState& s, CfsRq& cfs, TaskId id)
{
    const Task& p = task_of(s, id);
    if (!p.se.on_rq || p.se.sched_delayed || is_idle_policy(p))
        return;
    cfs.next = id;
}

void put_prev_task_fair(SchedState& s, CpuId cpu, TaskId prev)
{
    CfsRq& cfs = s.rq(cpu).cfs;
    SchedEntity& se = se_of(s, prev);
    if (se.on_rq) {
        update_curr(s, cpu);
        update_load_avg(s, cpu, prev, {se.weight, se.sched_delayed ? 0UL : 1UL, 1}, 0);
    }
    cfs.curr = kNoTask;
    if (se.on_rq)
        enqueue_tree(s, cfs, prev);
}

// set_next_task_fair() in general. Out of line, so that the common switch
// below saves no registers for this one's rare calls.
[[gnu::noinline]] TaskId set_next_task_fair_general(SchedState& s, CpuId cpu, TaskId next)
{
    CfsRq& cfs = s.rq(cpu).cfs;
    SchedEntity& se = se_of(s, next);
    clear_buddies(cfs, next);
    if (se.on_rq) {
        dequeue_tree(s, cfs, next);
        // Runnable, as the pick never hands over a delayed entity, and not
        // yet curr; nor is any other task (both callers have none or have
        // put it back), so the runqueue was not running either.
        update_load_avg_as(s, cpu, next, {se.weight, 1, 0}, 0, UPDATE_TG);
    }
    se.exec_start = static_cast<std::uint64_t>(s.now.ns());
    cfs.curr = next;
    se.prev_sum_exec_runtime = se.sum_exec_runtime;
    if (se.on_rq)
        set_protect_slice(s, cfs, se);
    return next;
}

// Less than one 1024-ns PELT unit since the last update (and not in the
// future): update_sched_avg() would change nothing. A detached entity
// (last_update_time 0) is the PELT clock's offset away, never this close.
inline bool pelt_unit_not_reached(const SchedAvg& sa, std::uint64_t now)
{
    return now - sa.last_update_time < 1024;
}

// set_next_task_fair() of next, queued and alone in the tree, if it was
// woken less than a PELT unit ago onto a runqueue updated as recently: the
// general case's PELT update then changes nothing and, with RUN_TO_PARITY,
// protection runs to the deadline. Tests before it writes; false if it
// did not apply. Inline in both callers, which save no registers for it.
[[gnu::always_inline]] inline bool set_next_lone_entity(SchedState& s, Rq& rq, SchedEntity& se, TaskId next)
{
    CfsRq& cfs = rq.cfs;
    const std::uint64_t now = rq_clock_pelt(s, rq);
    if (!pelt_unit_not_reached(se.avg, now) || !pelt_unit_not_reached(cfs.avg, now) || !s.feats(Feat::RUN_TO_PARITY))
        return false;
    clear_buddies(cfs, next);
    timeline_erase_only(cfs.tasks_timeline);
    sum_w_vruntime_sub(cfs, se);
    se.exec_start = static_cast<std::uint64_t>(s.now.ns());
    cfs.curr = next;
    se.prev_sum_exec_runtime = se.sum_exec_runtime;
    se.vprot = se.deadline;
    return true;
}

// Returns next, so that a caller can end with a tail call to it.
TaskId set_next_task_fair(SchedState& s, CpuId cpu, TaskId next)
{
    Rq& rq = s.rq(cpu);
    CfsRq& cfs = rq.cfs;
    SchedEntity& se = se_of(s, next);
    if (se.on_rq && timeline_is_only(s.tasks, cfs.tasks_timeline, next) && set_next_lone_entity(s, rq, se, next))
        return next;
    return set_next_task_fair_general(s, cpu, next);
}

// pick_next_entity(): a delayed entity that comes up is dequeued for good
// instead of run; the caller picks again.
TaskId pick_next_entity(SchedState& s, CpuId cpu, bool protect)
{
    const TaskId id = pick_eevdf(s, cpu, protect);
    if (id != kNoTask && se_of(s, id).sched_delayed) {
        dequeue_task_fair(s, cpu, id, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
        return kNoTask;
    }
    return id;
}

enum class PreemptAction { None, Short, Pick, Resched };

bool set_preempt_buddy(SchedState& s, CfsRq& cfs, TaskId wakee)
{
    // An existing buddy with an earlier deadline is kept: obeying deadlines
    // is more in line with EEVDF than guessing at cache warmth.
    if (cfs.next != kNoTask && se_of(s, cfs.next).deadline < se_of(s, wakee).deadline)
        return false;
    set_next_buddy(s, cfs, wakee);
    return true;
}

bool set_short_buddy(SchedState& s, CfsRq& cfs, TaskId wakee)
{
    if (cfs.next != kNoTask && se_of(s, cfs.next).slice < se_of(s, wakee).slice)
        return false;
    set_next_buddy(s, cfs, wakee);
    return true;
}

// preempt_sync() (§11.4): WF_SYNC says the waker will sleep soon, but it is
// only a hint; let the waker run a little first (less when the selector
// chose to stack the two). As in the kernel, this runs after update_curr()
// has moved exec_start to now, so `ran` is 0 and only a zero threshold
// (migration_cost 0) lets a sync wakeup preempt here.
PreemptAction preempt_sync(const SchedState& s, unsigned wake_flags, const SchedEntity& pse, const SchedEntity& se)
{
    auto threshold = static_cast<std::uint64_t>(s.tunables.migration_cost);
    const std::int64_t ran = std::max<std::int64_t>(0, s.now.ns() - static_cast<std::int64_t>(se.exec_start));
    if (wake_flags & WF_RQ_SELECTED)
        threshold >>= 2;
    if (pse.deadline < se.deadline && static_cast<std::uint64_t>(ran) >= threshold)
        return PreemptAction::Resched;
    return PreemptAction::None;
}

}  // namespace

namespace {

// pick_eevdf() among two or more queued entities. Out of line, so that the
// common pick of a CPU's only task (one entity: nothing to choose, no
// eligibility test) is a few inline instructions.
[[gnu::hot, gnu::noinline]] TaskId pick_eevdf_among(const SchedState& s, CpuId cpu, const CfsRq& cfs, bool protect)
{
    TaskId curr = cfs.curr;
    const TaskId first = cfs.tasks_timeline.leftmost;

    // The next buddy changes latency, not fairness: it must be eligible.
    if (s.feats(Feat::PICK_BUDDY) && protect && cfs.next != kNoTask && entity_eligible(s, cpu, cfs.next))
        return cfs.next;

    if (curr != kNoTask && (!se_of(s, curr).on_rq || !entity_eligible(s, cpu, curr)))
        curr = kNoTask;
    if (curr != kNoTask && protect && protect_slice(se_of(s, curr)))
        return curr;

    // The earliest deadline among the eligible entities: one descent of
    // the tree, pruned by each subtree's smallest vruntime.
    TaskId best = timeline_first_eligible(s.tasks, cfs.tasks_timeline, VruntimeEligible(s, cfs));
    if (best == kNoTask || (curr != kNoTask && se_of(s, curr).deadline < se_of(s, best).deadline))
        best = curr;
    // Some entity is always at or below the weighted average; this only
    // guards against a queue whose sole eligible member is curr off the rq.
    if (best == kNoTask)
        best = first;
    return best;
}

}  // namespace

[[gnu::hot]] TaskId pick_eevdf(const SchedState& s, CpuId cpu, bool protect)
{
    const CfsRq& cfs = s.rq(cpu).cfs;
    if (!cfs.h_nr_queued)
        return kNoTask;
    if (cfs.h_nr_queued > 1)
        return pick_eevdf_among(s, cpu, cfs, protect);
    // One entity: nothing to choose, skip the eligibility tests.
    if (cfs.curr != kNoTask && se_of(s, cfs.curr).on_rq)
        return cfs.curr;
    return cfs.tasks_timeline.leftmost;
}

namespace {

// pick_next_task_fair() with something to choose or charge. Out of line, so
// that the common picks (an empty queue, an idle CPU's only entity) return
// before this part's register saves.
[[gnu::hot, gnu::noinline]] TaskId pick_next_task_queued(SchedState& s, Rq& rq, CpuId cpu)
{
    CfsRq& cfs = rq.cfs;
    TaskId next = kNoTask;
    while (cfs.h_nr_queued) {
        if (cfs.curr != kNoTask && se_of(s, cfs.curr).on_rq)
            update_curr(s, cpu);
        next = pick_next_entity(s, cpu, true);
        if (next != kNoTask)
            break;
    }

    const TaskId prev = cfs.curr;
    if (next == kNoTask || next != prev) {
        if (prev != kNoTask) {
            put_prev_task_fair(s, cpu, prev);
            Task& p = task_of(s, prev);
            if (p.se.on_rq && !p.se.sched_delayed && p.state == TaskState::Running)
                p.state = TaskState::Runnable;
        }
        if (next != kNoTask)
            set_next_task_fair(s, cpu, next);
    }
    cfs.need_resched = false;
    if (next != kNoTask)
        task_of(s, next).state = TaskState::Running;
    rq.curr = next;
    return next;
}

}  // namespace

[[gnu::hot]] TaskId pick_next_task_fair(SchedState& s, CpuId cpu)
{
    Rq& rq = s.rq(cpu);
    CfsRq& cfs = rq.cfs;
    // __schedule()'s update_rq_clock(): the PELT clock is brought to now
    // under what ran until now (a task, or the idle task), before rq.curr
    // changes below; every later read in this pick is at the same instant.
    rq_clock_pelt(s, rq);

    // Nothing queued (a CPU whose last task just went to sleep): prev, if
    // any, is off the queue, as a queued curr counts in h_nr_queued, so
    // put_prev_task_fair() only clears curr.
    if (!cfs.h_nr_queued) {
        cfs.curr = kNoTask;
        cfs.need_resched = false;
        rq.curr = kNoTask;
        return kNoTask;
    }

    // An idle CPU with one entity queued, the task just woken there:
    // nothing to charge, nothing to choose, no one to put back. Unless it
    // is delayed, the general pick would take it the same way. The switch's
    // own state is set first, as set_next_task_fair() reads none of it, so
    // that the function ends in a tail call with no registers to save.
    if (cfs.curr == kNoTask && cfs.h_nr_queued == 1) {
        const TaskId only = cfs.tasks_timeline.leftmost;
        Task& p = task_of(s, only);
        if (!p.se.sched_delayed) {
            cfs.need_resched = false;
            p.state = TaskState::Running;
            rq.curr = only;
            // Queued with no curr, it is the tree's only entity.
            if (set_next_lone_entity(s, rq, p.se, only))
                return only;
            return set_next_task_fair_general(s, cpu, only);
        }
    }
    return pick_next_task_queued(s, rq, cpu);
}

namespace eevdf_detail {

[[gnu::hot, gnu::noinline]] void renew_deadline(SchedState& s, CpuId cpu, SchedEntity& se)
{
    if (!se.custom_slice)
        se.slice = static_cast<std::uint64_t>(s.base_slice());
    se.deadline = se.vruntime + static_cast<std::int64_t>(calc_delta_fair(se.slice, se));
    avg_vruntime(s, cpu);
}

}  // namespace eevdf_detail

namespace {

// update_curr() with a task to charge. Not inlined into it, so that the
// call with nothing running (every enqueue on an idle CPU) returns before
// this part's register saves.
[[gnu::hot, gnu::noinline]] bool charge_curr(SchedState& s, CpuId cpu, CfsRq& cfs)
{
    return charge_curr_of(s, cpu, cfs);
}

}  // namespace

[[gnu::hot]] bool update_curr(SchedState& s, CpuId cpu)
{
    CfsRq& cfs = s.rq(cpu).cfs;
    if (cfs.curr == kNoTask)
        return false;
    return charge_curr(s, cpu, cfs);
}

bool task_tick_fair(SchedState& s, CpuId cpu)
{
    CfsRq& cfs = s.rq(cpu).cfs;
    if (cfs.curr == kNoTask || !se_of(s, cfs.curr).on_rq)
        return cfs.need_resched;
    update_curr(s, cpu);
    const SchedEntity& se = se_of(s, cfs.curr);
    update_load_avg(s, cpu, cfs.curr, {se.weight, se.sched_delayed ? 0UL : 1UL, 1}, UPDATE_TG);
    return cfs.need_resched;
}

bool wakeup_preempt_fair(SchedState& s, CpuId cpu, TaskId wakee, unsigned wake_flags)
{
    Rq& rq = s.rq(cpu);
    CfsRq& cfs = rq.cfs;
    if (rq.curr == kNoTask) {
        // core.c: a task of a higher class than the running one (idle)
        // always preempts it.
        cfs.need_resched = true;
        return true;
    }
    const TaskId curr = rq.curr;
    if (curr == wakee)
        return false;
    // Without PREEMPT_SHORT a pending reschedule settles it; with it, a
    // shorter-slice wakee must still get its chance to be the next pick.
    if (!s.feats(Feat::PREEMPT_SHORT) && cfs.need_resched)
        return false;
    if (!s.feats(Feat::WAKEUP_PREEMPTION))
        return false;

    const Task& p = task_of(s, wakee);
    SchedEntity& se = se_of(s, curr);
    const SchedEntity& pse = p.se;
    const bool cse_is_idle = is_idle_policy(task_of(s, curr));
    const bool pse_is_idle = is_idle_policy(p);

    PreemptAction action = PreemptAction::Pick;
    bool skip_update = false;
    const bool preempt = [&] {
        // A normal task preempts a SCHED_IDLE one, never the reverse.
        if (cse_is_idle && !pse_is_idle)
            return true;
        update_curr(s, cpu);
        if (cse_is_idle != pse_is_idle || p.policy != SchedPolicy::Normal || pse.sched_delayed)
            return false;
        if (s.feats(Feat::PREEMPT_SHORT) && pse.slice < se.slice) {
            action = PreemptAction::Short;  // ignore curr's protection
        } else {
            // A child rarely shares data with its parent once it execs.
            if (wake_flags & WF_FORK)
                return false;
            if (s.feats(Feat::NEXT_BUDDY) && set_preempt_buddy(s, cfs, wakee) && (wake_flags & WF_SYNC))
                action = preempt_sync(s, wake_flags, pse, se);
            if (action == PreemptAction::None) {
                skip_update = true;
                return false;
            }
            if (action == PreemptAction::Resched)
                return true;
        }
        while (cfs.h_nr_queued) {
            const TaskId nse = pick_next_entity(s, cpu, action != PreemptAction::Short);
            if (nse == kNoTask)
                continue;  // a delayed entity was dequeued; look again
            if (nse == wakee)
                return true;
            break;
        }
        return action == PreemptAction::Short && entity_eligible(s, cpu, wakee);
    }();

    if (preempt) {
        cancel_protect_slice(se);
        if (action == PreemptAction::Short)
            set_short_buddy(s, cfs, wakee);
        cfs.need_resched = true;
        return true;
    }
    if (!skip_update && s.feats(Feat::RUN_TO_PARITY) && se.on_rq)
        update_protect_slice(s, cpu, se);
    return false;
}

// --- Helpers --------------------------------------------------------------------------------

Time fair_resched_time(const SchedState& s, CpuId cpu)
{
    const CfsRq& cfs = s.rq(cpu).cfs;
    if (cfs.curr == kNoTask || cfs.h_nr_queued <= 1)
        return Time::max();
    const SchedEntity& se = se_of(s, cfs.curr);
    if (!se.on_rq)
        return Time::max();
    const std::int64_t target = protect_slice(se) ? std::min(se.deadline, se.vprot) : se.vruntime;
    const std::int64_t dv = target - se.vruntime;
    if (dv <= 0)  // already unprotected: any further run asks for the CPU back
        return Time::ns(std::max<std::int64_t>(s.now.ns(), static_cast<std::int64_t>(se.exec_start) + 1));
    // The shortest run whose calc_delta_fair() reaches dv.
    auto run = static_cast<std::uint64_t>((static_cast<u128>(dv) * se.weight + kNice0Load - 1) / kNice0Load);
    while (run > 1 && calc_delta_fair(run - 1, se) >= static_cast<std::uint64_t>(dv))
        --run;
    while (calc_delta_fair(run, se) < static_cast<std::uint64_t>(dv))
        ++run;
    return Time::ns(static_cast<std::int64_t>(se.exec_start + run));
}

}  // namespace wb

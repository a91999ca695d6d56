// SPDX-License-Identifier: Apache-2.0
//
// The EEVDF fair runqueue's queue: nice-to-weight tables and calc_delta_fair,
// the weighted average vruntime V, eligibility, lag and place_entity, the
// deadline-sorted tree, enqueue/dequeue (with delayed dequeue), and the
// runqueue invariant check. Where the model differs from the kernel is noted
// in eevdf_internal.h.
#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <stdexcept>

#include "sched/eevdf.h"
#include "sched/eevdf_internal.h"

namespace wb {

using namespace eevdf_detail;

namespace {

constexpr std::uint32_t kWmultConst = 0xffffffffu;
constexpr std::uint32_t kWmultIdlePrio = 1431655765u;

// nice -20 .. 19: each step is ~10% of CPU, so weights grow by ~1.25.
constexpr std::array<unsigned long, 40> kPrioToWeight = {
    88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916, 9548, 7620, 6100, 4904,
    3906,  3121,  2501,  1991,  1586,  1277,  1024,  820,   655,   526,   423,  335,  272,  215,
    172,   137,   110,   87,    70,    56,    45,    36,    29,    23,    18,   15,
};

// 2^32 / weight, as the kernel tabulates it (some entries round, some truncate).
constexpr std::array<std::uint32_t, 40> kPrioToWmult = {
    48388,    59856,    76040,    92818,    118348,   147320,    184698,    229616,    287308,    360437,
    449829,   563644,   704093,   875809,   1099582,  1376151,   1717300,   2157191,   2708050,   3363326,
    4194304,  5237765,  6557202,  8165337,  10153587, 12820798,  15790321,  19976592,  24970740,  31350126,
    39045157, 49367440, 61356676, 76695844, 95443717, 119304647, 148102320, 186737708, 238609294, 286331153,
};

std::uint32_t inv_weight(unsigned long weight)
{
    for (std::size_t i = 0; i < kPrioToWeight.size(); ++i)
        if (kPrioToWeight[i] == weight)
            return kPrioToWmult[i];
    if (weight == kWeightIdlePrio)
        return kWmultIdlePrio;
    return weight ? kWmultConst / static_cast<std::uint32_t>(weight) : kWmultConst;
}

// __calc_delta(delta, weight, lw): delta * weight / lw.weight with 32-bit
// fixed-point inverses, keeping as many bits as fit.
std::uint64_t calc_delta(std::uint64_t delta, std::uint64_t weight, std::uint32_t inv)
{
    std::uint64_t fact = weight;
    int shift = 32;
    if (const auto hi = static_cast<std::uint32_t>(fact >> 32)) {
        const int fs = std::bit_width(hi);
        shift -= fs;
        fact >>= fs;
    }
    fact = static_cast<std::uint64_t>(static_cast<std::uint32_t>(fact)) * inv;
    if (const auto hi = static_cast<std::uint32_t>(fact >> 32)) {
        const int fs = std::bit_width(hi);
        shift -= fs;
        fact >>= fs;
    }
    return static_cast<std::uint64_t>((static_cast<u128>(delta) * static_cast<std::uint32_t>(fact)) >> shift);
}

// Moving the origin by d shifts every key by -d; the sum follows without
// visiting the queue.
void update_zero_vruntime(CfsRq& cfs, std::int64_t delta)
{
    cfs.sum_w_vruntime -= static_cast<std::int64_t>(cfs.sum_weight) * delta;
    cfs.zero_vruntime += delta;
}

// V - zero_vruntime with entities in the tree: the weighted average.
// Negative sums are rounded down, not towards zero, so an entity sitting
// exactly at V always tests eligible. Out of line for its division.
[[gnu::hot, gnu::noinline]] std::int64_t weighted_avg_vruntime_delta(const SchedState& s, const CfsRq& cfs)
{
    auto weight = static_cast<std::int64_t>(cfs.sum_weight);
    std::int64_t runtime = cfs.sum_w_vruntime;
    if (const SchedEntity* curr = queued_curr(s, cfs)) {
        const auto w = static_cast<std::int64_t>(scaled_weight(*curr));
        runtime += entity_key(cfs, *curr) * w;
        weight += w;
    }
    if (runtime < 0)
        runtime -= weight - 1;
    return runtime / weight;
}

// V - zero_vruntime. Inline for the common case of an empty tree (a CPU with
// one task or none), where V is curr's vruntime or the origin itself.
[[gnu::always_inline]] inline std::int64_t avg_vruntime_delta(const SchedState& s, const CfsRq& cfs)
{
    if (cfs.sum_weight)
        return weighted_avg_vruntime_delta(s, cfs);
    const SchedEntity* curr = queued_curr(s, cfs);
    return curr ? curr->vruntime - cfs.zero_vruntime : 0;
}

// avg_vruntime() for the callers in this file, which have cfs at hand:
// inline, as it is a few instructions and they run at every enqueue and
// dequeue.
[[gnu::always_inline]] inline std::int64_t rebase_avg_vruntime(const SchedState& s, CfsRq& cfs)
{
    if (cfs.sum_weight) {
        update_zero_vruntime(cfs, weighted_avg_vruntime_delta(s, cfs));
        return cfs.zero_vruntime;
    }
    // An empty tree has no sum for the move to shift: only the origin moves,
    // to curr or nowhere.
    if (const SchedEntity* curr = queued_curr(s, cfs))
        cfs.zero_vruntime = curr->vruntime;
    return cfs.zero_vruntime;
}

// The longest slice among the queued entities: curr's and the tree's,
// which its root keeps.
std::uint64_t cfs_rq_max_slice(const SchedState& s, const CfsRq& cfs)
{
    std::uint64_t slice = 0;
    if (const SchedEntity* curr = queued_curr(s, cfs))
        slice = curr->slice;
    return std::max(slice, timeline_max_slice(s.tasks, cfs.tasks_timeline));
}

// Lag is bounded by what the queue can pay back: the longest slice plus a
// tick, as virtual time of this entity. Out of line: the callers reach it
// only for an entity away from V, and its division would otherwise cost
// them register saves on every call.
[[gnu::hot, gnu::noinline]] std::int64_t entity_lag(const SchedState& s, const CfsRq& cfs, const SchedEntity& se,
                                                    std::int64_t avruntime)
{
    const std::uint64_t max_slice = cfs_rq_max_slice(s, cfs) + static_cast<std::uint64_t>(s.tick_nsec);
    const auto limit = static_cast<std::int64_t>(calc_delta_fair(max_slice, se));
    return std::clamp(avruntime - se.vruntime, -limit, limit);
}

// update_entity_lag() with the runqueue and entity at hand; inline in its
// hot callers (the sleep dequeue).
[[gnu::always_inline]] inline bool update_entity_lag_of(SchedState& s, CfsRq& cfs, SchedEntity& se)
{
    const std::int64_t avruntime = rebase_avg_vruntime(s, cfs);
    // An entity at V (a CPU's only entity always is) has no lag to clamp.
    std::int64_t vlag = avruntime == se.vruntime ? 0 : entity_lag(s, cfs, se, avruntime);
    if (se.sched_delayed) {
        // It was delayed because its lag was negative; waiting must not make
        // that debt grow, nor (DELAY_ZERO) turn it into credit.
        vlag = std::max(vlag, se.vlag);
        if (s.feats(Feat::DELAY_ZERO))
            vlag = std::min<std::int64_t>(vlag, 0);
    }
    se.vlag = vlag;
    return avruntime - vlag != se.vruntime;
}

// PLACE_LAG's inflation of se's lag on a queue with others on it: joining
// moves V towards se by w * vlag / (W + w), which would eat into the lag se
// is owed; inflated, se sits exactly vlag behind the new V after placement.
// Returns the inflated lag. Out of line for its 128-bit division, which
// would cost place_entity() six register saves at every call.
[[gnu::hot, gnu::noinline]] std::int64_t place_lag(const SchedState& s, CfsRq& cfs, const SchedEntity& se)
{
    std::int64_t load = static_cast<std::int64_t>(cfs.sum_weight);
    if (const SchedEntity* curr = queued_curr(s, cfs))
        load += static_cast<std::int64_t>(scaled_weight(*curr));
    const auto weight = static_cast<std::int64_t>(scaled_weight(se));
    const i128 inflated = static_cast<i128>(se.vlag) * (load + weight);
    if (!load)
        load = 1;
    const auto lag = static_cast<std::int64_t>(inflated / load);
    // A heavy entity drags V to itself: move the origin there now to keep
    // weight x key products small. (se is not in the sums, so the order
    // against its placement does not matter.)
    if (weight > load)
        update_zero_vruntime(cfs, -lag);
    return lag;
}

// place_entity() with the runqueue and entity at hand; inline in
// enqueue_task_fair().
[[gnu::always_inline]] inline void place_entity_on(SchedState& s, CfsRq& cfs, SchedEntity& se, unsigned flags)
{
    const std::int64_t vruntime = rebase_avg_vruntime(s, cfs);
    std::int64_t lag = 0;

    if (!se.custom_slice)
        se.slice = static_cast<std::uint64_t>(s.base_slice());
    auto vslice = static_cast<std::int64_t>(calc_delta_fair(se.slice, se));

    // Each test below puts the entity's or the flags' (usually false) part
    // before the feature's, which must be loaded.
    if (cfs.h_nr_queued && se.vlag && s.feats(Feat::PLACE_LAG))
        lag = place_lag(s, cfs, se);
    se.vruntime = vruntime - lag;

    if (se.rel_deadline && s.feats(Feat::PLACE_REL_DEADLINE)) {
        se.deadline += se.vruntime;
        se.rel_deadline = false;
        return;
    }
    // A new task joins tasks that are, on average, halfway through their
    // slices; half a slice lets it ease in without jumping the queue.
    if ((flags & ENQUEUE_INITIAL) && s.feats(Feat::PLACE_DEADLINE_INITIAL))
        vslice /= 2;
    se.deadline = se.vruntime + vslice;
}

void util_est_enqueue(SchedState& s, CfsRq& cfs, const SchedEntity& se)
{
    if (s.feats(Feat::UTIL_EST))
        cfs.avg.util_est += se.avg.util_est;
}

void util_est_dequeue(SchedState& s, CfsRq& cfs, const SchedEntity& se)
{
    if (s.feats(Feat::UTIL_EST))
        cfs.avg.util_est -= std::min(cfs.avg.util_est, se.avg.util_est);
}

// --- Entity enqueue / dequeue --------------------------------------------------

void set_delayed(CfsRq& cfs, SchedEntity& se)
{
    se.sched_delayed = true;
    --cfs.h_nr_runnable;
}

void clear_delayed(CfsRq& cfs, SchedEntity& se)
{
    se.sched_delayed = false;
    ++cfs.h_nr_runnable;
}

// requeue_delayed_entity(): a delayed entity woken in place. It stays where
// it is unless its lag had to be clamped, in which case it is placed anew
// at the clamped lag.
void requeue_delayed_entity(SchedState& s, CpuId cpu, TaskId id)
{
    CfsRq& cfs = s.rq(cpu).cfs;
    SchedEntity& se = se_of(s, id);
    if (update_entity_lag(s, cpu, id)) {
        --cfs.h_nr_queued;  // place_entity() looks at the others
        if (id != cfs.curr)
            dequeue_tree(s, cfs, id);
        place_entity(s, cpu, id, 0);
        if (id != cfs.curr)
            enqueue_tree(s, cfs, id);
        ++cfs.h_nr_queued;
    }
    update_load_avg(s, cpu, id, {se.weight, 0, cfs.curr == id ? 1 : 0}, 0);
    clear_delayed(cfs, se);
}

// The misuse errors of enqueue_task_fair() and dequeue_task_fair(), out of
// line: built inline, their message strings cost the hot callers a stack
// frame and register saves at every call.
[[noreturn, gnu::cold, gnu::noinline]] void throw_bad_enqueue(const SchedState& s, CpuId cpu, TaskId pid)
{
    const Task& p = s.task(pid);
    if (p.cpu != cpu)
        throw std::logic_error("enqueue_task_fair: task " + std::to_string(pid) + " belongs to CPU " +
                               std::to_string(p.cpu) + ", not " + std::to_string(cpu) + "; set_task_cpu() it first");
    throw std::logic_error("enqueue_task_fair: task " + std::to_string(pid) + " is already queued on CPU " +
                           std::to_string(cpu));
}

[[noreturn, gnu::cold, gnu::noinline]] void throw_bad_dequeue(CpuId cpu, TaskId pid)
{
    throw std::logic_error("dequeue_task_fair: task " + std::to_string(pid) + " is not queued on CPU " +
                           std::to_string(cpu));
}

bool fail(std::string* why, std::string text)
{
    if (why)
        *why = std::move(text);
    return false;
}

}  // namespace

namespace eevdf_detail {

// curr counts towards V only while it is queued: a task that has just gone
// to sleep stays cfs.curr until the switch but no longer competes.
[[gnu::hot]] const SchedEntity* queued_curr(const SchedState& s, const CfsRq& cfs)
{
    if (cfs.curr == kNoTask)
        return nullptr;
    const SchedEntity& se = se_of(s, cfs.curr);
    return se.on_rq ? &se : nullptr;
}

bool vruntime_eligible(const SchedState& s, const CfsRq& cfs, std::int64_t vruntime)
{
    return VruntimeEligible(s, cfs)(vruntime);
}

}  // namespace eevdf_detail

// --- Weights ------------------------------------------------------------------

unsigned long sched_prio_to_weight(int nice)
{
    return kPrioToWeight[static_cast<std::size_t>(std::clamp(nice, -20, 19) + 20)];
}

unsigned long task_load_weight(const Task& p)
{
    return p.policy == SchedPolicy::Idle ? kWeightIdlePrio : sched_prio_to_weight(p.nice);
}

void set_load_weight(Task& p)
{
    p.se.weight = task_load_weight(p);
}

[[gnu::hot]] std::uint64_t calc_delta_fair_weighted(std::uint64_t delta, const SchedEntity& se)
{
    return calc_delta(delta, kNice0Load, inv_weight(se.weight));
}

// --- EEVDF queue state -----------------------------------------------------------

[[gnu::hot]] std::int64_t avg_vruntime(SchedState& s, CpuId cpu)
{
    return rebase_avg_vruntime(s, s.rq(cpu).cfs);
}

std::int64_t cfs_avg_vruntime(const SchedState& s, CpuId cpu)
{
    const CfsRq& cfs = s.rq(cpu).cfs;
    return cfs.zero_vruntime + avg_vruntime_delta(s, cfs);
}

bool entity_eligible(const SchedState& s, CpuId cpu, TaskId p)
{
    return vruntime_eligible(s, s.rq(cpu).cfs, se_of(s, p).vruntime);
}

[[gnu::hot]] bool update_entity_lag(SchedState& s, CpuId cpu, TaskId p)
{
    return update_entity_lag_of(s, s.rq(cpu).cfs, se_of(s, p));
}

[[gnu::hot]] void place_entity(SchedState& s, CpuId cpu, TaskId p, unsigned flags)
{
    place_entity_on(s, s.rq(cpu).cfs, se_of(s, p), flags);
}

// --- Runqueue operations ------------------------------------------------------------

namespace {

// enqueue_task_fair()'s rare cases, out of line so that the common one (a
// task woken onto a queue it is not curr of) saves no registers for them:
// a delayed entity woken in place (any enqueue of one is a wakeup in place,
// ttwu_runnable), and curr re-enqueued after a dequeue that was not a
// switch (a change of its parameters), placed before its runtime moves V.
[[gnu::noinline]] void enqueue_delayed_or_curr(SchedState& s, Rq& rq, CpuId cpu, TaskId pid, unsigned flags)
{
    CfsRq& cfs = rq.cfs;
    Task& p = task_of(s, pid);
    SchedEntity& se = p.se;

    util_est_enqueue(s, cfs, se);
    update_curr(s, cpu);

    if (se.sched_delayed || (flags & ENQUEUE_DELAYED)) {
        requeue_delayed_entity(s, cpu, pid);
        return;
    }

    place_entity_on(s, cfs, se, flags);
    update_load_avg(s, cpu, pid, {0, 0, 0}, UPDATE_TG | DO_ATTACH);
    cfs.load_weight += se.weight;
    if (flags & ENQUEUE_MIGRATED)
        se.exec_start = 0;
    se.on_rq = true;
    ++cfs.h_nr_runnable;
    ++cfs.h_nr_queued;
    if (is_idle_policy(p))
        ++cfs.h_nr_idle;
    ++rq.nr_running;
}

}  // namespace

[[gnu::hot]] void enqueue_task_fair(SchedState& s, CpuId cpu, TaskId pid, unsigned flags)
{
    Rq& rq = s.rq(cpu);
    CfsRq& cfs = rq.cfs;
    Task& p = task_of(s, pid);
    SchedEntity& se = p.se;

    if (p.cpu == kNoCpu)
        p.cpu = p.wake_cpu = cpu;
    if (p.cpu != cpu || (se.on_rq && !se.sched_delayed))
        throw_bad_enqueue(s, cpu, pid);
    if (se.sched_delayed || (flags & ENQUEUE_DELAYED) || cfs.curr == pid) {
        enqueue_delayed_or_curr(s, rq, cpu, pid, flags);
        return;
    }

    util_est_enqueue(s, cfs, se);
    update_curr(s, cpu);

    // enqueue_entity(): PELT first, with the counts as they were (p not
    // queued yet: no load of its own).
    update_load_avg(s, cpu, pid, {0, 0, 0}, UPDATE_TG | DO_ATTACH);
    cfs.load_weight += se.weight;
    if (flags & ENQUEUE_MIGRATED)
        se.exec_start = 0;  // no longer cache hot anywhere
    se.on_rq = true;

    place_entity_on(s, cfs, se, flags);
    enqueue_tree(s, cfs, pid);
    ++cfs.h_nr_runnable;
    ++cfs.h_nr_queued;
    if (is_idle_policy(p))
        ++cfs.h_nr_idle;
    ++rq.nr_running;
}

namespace {

// __block_task(): the sleep's dequeue is complete, and a task asleep in
// io_schedule() counts in this runqueue's nr_iowait until its wakeup.
inline void block_task(Rq& rq, const Task& p)
{
    if (p.in_iowait) [[unlikely]]
        ++rq.nr_iowait;
}

// dequeue_task_fair() in general: finishing a delayed entity's dequeue, a
// migration, a dequeue that is not a sleep. Out of line, so that the
// common case, a task going to sleep, is a lean body of its own.
[[gnu::noinline]] bool dequeue_task_fair_general(SchedState& s, Rq& rq, CpuId cpu, TaskId pid, unsigned flags)
{
    CfsRq& cfs = rq.cfs;
    Task& p = task_of(s, pid);
    SchedEntity& se = p.se;

    // A delayed entity has already slept; whatever takes it off now
    // finishes that sleep.
    if (se.sched_delayed) {
        flags = (flags & DEQUEUE_MIGRATING) | DEQUEUE_SLEEP | DEQUEUE_DELAYED;
        cfs.delayed_dequeued.push_back(pid);
    }
    const bool sleep = flags & DEQUEUE_SLEEP;
    const bool delayed = flags & DEQUEUE_DELAYED;

    if (!se.sched_delayed)
        util_est_dequeue(s, cfs, se);
    clear_buddies(cfs, pid);
    if (cfs.curr != kNoTask)  // update_curr()
        charge_curr_of(s, cpu, cfs);
    const bool lag_clamped = update_entity_lag_of(s, cfs, se);

    // DELAY_DEQUEUE: a sleeper that has received more than its share stays
    // queued, competing, until it is eligible again and picked, so that a
    // short sleep cannot shed the debt. Eligible means lag >= 0, and the lag
    // just stored is V - vruntime unless clamped (p is not delayed here): V
    // is the weighted average rounded down, and for an integer vruntime
    // floor(avg) >= vruntime exactly when avg >= vruntime, which is what
    // entity_eligible() tests.
    if ((flags & (DEQUEUE_SLEEP | DEQUEUE_DELAYED | DEQUEUE_SPECIAL)) == DEQUEUE_SLEEP &&
        s.feats(Feat::DELAY_DEQUEUE) && !(lag_clamped ? entity_eligible(s, cpu, pid) : se.vlag >= 0)) {
        update_load_avg(s, cpu, pid, {se.weight, 1, cfs.curr == pid ? 1 : 0}, UPDATE_UTIL_EST);
        set_delayed(cfs, se);
        return false;
    }

    // dequeue_entity()
    unsigned action = UPDATE_TG;
    if (flags & DEQUEUE_MIGRATING)
        action |= DO_DETACH;
    if (sleep && !delayed)
        action |= UPDATE_UTIL_EST;
    update_load_avg(s, cpu, pid, {se.weight, se.sched_delayed ? 0UL : 1UL, cfs.curr == pid ? 1 : 0}, action);
    se.on_rq = false;
    cfs.load_weight -= se.weight;

    if (sleep || delayed || !se.sched_delayed)
        --cfs.h_nr_runnable;
    --cfs.h_nr_queued;
    if (is_idle_policy(p))
        --cfs.h_nr_idle;

    // Moving, not sleeping: keep the deadline relative to vruntime so the
    // task resumes its request where it left it.
    if (!sleep && s.feats(Feat::PLACE_REL_DEADLINE)) {
        se.deadline -= se.vruntime;
        se.rel_deadline = true;
    }
    if (pid != cfs.curr)
        dequeue_tree(s, cfs, pid);
    --rq.nr_running;

    if (delayed)
        clear_delayed(cfs, se);
    if (sleep)
        block_task(rq, p);
    return true;
}

}  // namespace

[[gnu::hot]] bool dequeue_task_fair(SchedState& s, CpuId cpu, TaskId pid, unsigned flags)
{
    Rq& rq = s.rq(cpu);
    CfsRq& cfs = rq.cfs;
    Task& p = task_of(s, pid);
    SchedEntity& se = p.se;

    if (p.cpu != cpu || !se.on_rq)
        throw_bad_dequeue(cpu, pid);
    if (se.sched_delayed || (flags & (DEQUEUE_SLEEP | DEQUEUE_MIGRATING | DEQUEUE_DELAYED)) != DEQUEUE_SLEEP ||
        cfs.curr != pid)
        return dequeue_task_fair_general(s, rq, cpu, pid, flags);

    // The running task going to sleep, not delayed: the general case's
    // steps with sleep set, delayed and migrating clear, and p curr (so
    // running for PELT, charged by update_curr() and not in the tree).
    util_est_dequeue(s, cfs, se);
    clear_buddies(cfs, pid);
    charge_curr_se(s, cpu, cfs, se);
    const bool lag_clamped = update_entity_lag_of(s, cfs, se);

    // DELAY_DEQUEUE, as in the general case. Delayed or not, PELT sees a
    // runnable task and updates util_est (UPDATE_TG does nothing here).
    const bool delay = !(flags & DEQUEUE_SPECIAL) && s.feats(Feat::DELAY_DEQUEUE) &&
                       !(lag_clamped ? entity_eligible(s, cpu, pid) : se.vlag >= 0);
    update_load_avg_as(s, cpu, pid, {se.weight, 1, 1}, 1, UPDATE_UTIL_EST);
    if (delay) {
        set_delayed(cfs, se);
        return false;
    }

    // dequeue_entity()
    se.on_rq = false;
    cfs.load_weight -= se.weight;
    --cfs.h_nr_runnable;
    --cfs.h_nr_queued;
    if (is_idle_policy(p))
        --cfs.h_nr_idle;
    --rq.nr_running;
    block_task(rq, p);
    return true;
}

bool check_cfs_invariants(const SchedState& s, CpuId cpu, std::string* why)
{
    const Rq& rq = s.rq(cpu);
    const CfsRq& cfs = rq.cfs;
    const std::string where = "cpu " + std::to_string(cpu) + ": ";

    unsigned queued = 0, runnable = 0, idle = 0;
    std::uint64_t load = 0;
    unsigned int util_est = 0;
    for (const Task& t : s.tasks) {
        if (t.cpu != cpu || !t.se.on_rq)
            continue;
        ++queued;
        runnable += t.se.sched_delayed ? 0 : 1;
        idle += is_idle_policy(t) ? 1 : 0;
        load += t.se.weight;
        if (!t.se.sched_delayed)
            util_est += t.se.avg.util_est;
    }
    for (const Task& t : s.tasks)
        if (t.se.sched_delayed && !t.se.on_rq)
            return fail(why, "task " + std::to_string(t.id) + " is sched_delayed but not queued");

    if (cfs.h_nr_queued != queued)
        return fail(why, where + "h_nr_queued " + std::to_string(cfs.h_nr_queued) + " but " + std::to_string(queued) +
                             " tasks queued");
    if (cfs.h_nr_runnable != runnable)
        return fail(why, where + "h_nr_runnable " + std::to_string(cfs.h_nr_runnable) + " but " +
                             std::to_string(runnable) + " queued tasks are not delayed");
    if (cfs.h_nr_idle != idle)
        return fail(why, where + "h_nr_idle " + std::to_string(cfs.h_nr_idle) + " but " + std::to_string(idle) +
                             " SCHED_IDLE tasks queued");
    if (rq.nr_running != queued)
        return fail(why, where + "nr_running " + std::to_string(rq.nr_running) + " but " + std::to_string(queued) +
                             " tasks queued");
    if (cfs.load_weight != load)
        return fail(why, where + "load weight " + std::to_string(cfs.load_weight) + " but queued weights sum to " +
                             std::to_string(load));
    if (s.feats(Feat::UTIL_EST) && cfs.avg.util_est != util_est)
        return fail(why, where + "util_est " + std::to_string(cfs.avg.util_est) + " but the runnable tasks' sum to " +
                             std::to_string(util_est));

    // The tree holds every queued entity but curr: as many as are queued
    // here, each queued here and none of them curr (a tree visits each of
    // its nodes once).
    std::string tree_why;
    const long in_tree = check_timeline(s.tasks, cfs.tasks_timeline, &tree_why);
    if (in_tree < 0)
        return fail(why, where + tree_why);
    const bool curr_queued = cfs.curr != kNoTask && s.task(cfs.curr).se.on_rq;
    if (static_cast<unsigned long>(in_tree) != queued - (curr_queued ? 1 : 0))
        return fail(why, where + "the tree holds " + std::to_string(in_tree) + " tasks but " + std::to_string(queued) +
                             " are queued" + (curr_queued ? ", curr included" : ""));
    std::uint64_t sum_weight = 0;
    std::int64_t sum_w_vruntime = 0;
    for (const TaskId id : timeline_in_order(s.tasks, cfs.tasks_timeline)) {
        const Task& t = s.task(id);
        if (t.cpu != cpu || !t.se.on_rq)
            return fail(why, where + "the tree holds task " + std::to_string(id) + " which is not queued here");
        if (id == cfs.curr)
            return fail(why, where + "task " + std::to_string(id) + " is curr and in the tree");
        sum_weight += scaled_weight(t.se);
        sum_w_vruntime += entity_key(cfs, t.se) * static_cast<std::int64_t>(scaled_weight(t.se));
    }
    if (sum_weight != cfs.sum_weight || sum_w_vruntime != cfs.sum_w_vruntime)
        return fail(why, where + "EEVDF sums (" + std::to_string(cfs.sum_weight) + ", " +
                             std::to_string(cfs.sum_w_vruntime) + ") differ from the tree's (" +
                             std::to_string(sum_weight) + ", " + std::to_string(sum_w_vruntime) + ")");

    if (cfs.curr != kNoTask && s.task(cfs.curr).cpu != cpu)
        return fail(why, where + "curr " + std::to_string(cfs.curr) + " belongs to another CPU");
    if (rq.curr != cfs.curr)
        return fail(
            why, where + "rq.curr " + std::to_string(rq.curr) + " differs from cfs.curr " + std::to_string(cfs.curr));
    if (cfs.next != kNoTask) {
        const Task& t = s.task(cfs.next);
        if (t.cpu != cpu || !t.se.on_rq || t.se.sched_delayed)
            return fail(why, where + "next buddy " + std::to_string(cfs.next) + " is not a runnable task queued here");
    }
    return true;
}

}  // namespace wb

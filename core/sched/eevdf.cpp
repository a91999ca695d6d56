// SPDX-License-Identifier: Apache-2.0
//
// The fair runqueue (kernel/sched/fair.c, v7.3 merge window, flat EEVDF tree).
// Function names and the order of their steps follow the kernel's; the
// reference is ../shared/reference/wakeup-path.md §10, §11, §13.
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
#include "sched/eevdf.h"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <stdexcept>

#include "topology/sd_flags.h"

namespace wb {

namespace {

__extension__ using i128 = __int128;
__extension__ using u128 = unsigned __int128;

// 64-bit kernels keep weights in 22.10 fixed point (scale_load); the EEVDF
// sums use that resolution, which decides how V rounds.
constexpr unsigned kLoadShift = 10;
constexpr std::uint32_t kWmultConst = 0xffffffffu;
constexpr std::uint32_t kWmultIdlePrio = 1431655765u;
constexpr std::uint32_t kPeltMinDivider = kLoadAvgMax - 1024;

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

// update_load_avg() actions.
constexpr unsigned UPDATE_TG = 0x01;  // kept for symmetry with the kernel's calls; no task groups here
constexpr unsigned DO_ATTACH = 0x04;
constexpr unsigned DO_DETACH = 0x08;
constexpr unsigned UPDATE_UTIL_EST = 0x10;

// PELT time runs one period ahead of simulated time: a last_update_time of
// 0 means "not attached to a runqueue" (new or migrated), and a run starts
// at time 0.
constexpr std::uint64_t kPeltClockOffset = std::uint64_t{kPeltPeriodUs} << 10;

std::uint64_t pelt_now(const SchedState& s)
{
    return static_cast<std::uint64_t>(s.now.ns()) + kPeltClockOffset;
}

std::uint64_t scaled_weight(const SchedEntity& se)
{
    return static_cast<std::uint64_t>(se.weight) << kLoadShift;
}

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

Task& task_of(SchedState& s, TaskId id)
{
    return s.task(id);
}
SchedEntity& se_of(SchedState& s, TaskId id)
{
    return s.task(id).se;
}
const SchedEntity& se_of(const SchedState& s, TaskId id)
{
    return s.task(id).se;
}

bool is_idle_policy(const Task& p)
{
    return p.policy == SchedPolicy::Idle;
}

std::int64_t tick_nsec(const SchedState& s)
{
    const double hz = s.machine ? s.machine->costs[Cost::hz] : 250.0;
    const auto h = static_cast<std::int64_t>(hz > 0 ? hz : 250.0);
    return (1000000000 + h / 2) / h;
}

std::int64_t entity_key(const CfsRq& cfs, const SchedEntity& se)
{
    return se.vruntime - cfs.zero_vruntime;
}

// curr counts towards V only while it is queued: a task that has just gone
// to sleep stays cfs.curr until the switch but no longer competes.
const SchedEntity* queued_curr(const SchedState& s, const CfsRq& cfs)
{
    if (cfs.curr == kNoTask)
        return nullptr;
    const SchedEntity& se = se_of(s, cfs.curr);
    return se.on_rq ? &se : nullptr;
}

void sum_w_vruntime_add(CfsRq& cfs, const SchedEntity& se)
{
    const auto w = scaled_weight(se);
    cfs.sum_w_vruntime += entity_key(cfs, se) * static_cast<std::int64_t>(w);
    cfs.sum_weight += w;
}

void sum_w_vruntime_sub(CfsRq& cfs, const SchedEntity& se)
{
    const auto w = scaled_weight(se);
    cfs.sum_w_vruntime -= entity_key(cfs, se) * static_cast<std::int64_t>(w);
    cfs.sum_weight -= w;
}

// Moving the origin by d shifts every key by -d; the sum follows without
// visiting the queue.
void update_zero_vruntime(CfsRq& cfs, std::int64_t delta)
{
    cfs.sum_w_vruntime -= static_cast<std::int64_t>(cfs.sum_weight) * delta;
    cfs.zero_vruntime += delta;
}

// V - zero_vruntime. Negative sums are rounded down, not towards zero, so an
// entity sitting exactly at V always tests eligible.
std::int64_t avg_vruntime_delta(const SchedState& s, const CfsRq& cfs)
{
    const SchedEntity* curr = queued_curr(s, cfs);
    auto weight = static_cast<std::int64_t>(cfs.sum_weight);
    if (weight) {
        std::int64_t runtime = cfs.sum_w_vruntime;
        if (curr) {
            const auto w = static_cast<std::int64_t>(scaled_weight(*curr));
            runtime += entity_key(cfs, *curr) * w;
            weight += w;
        }
        if (runtime < 0)
            runtime -= weight - 1;
        return runtime / weight;
    }
    return curr ? curr->vruntime - cfs.zero_vruntime : 0;
}

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

bool vruntime_eligible(const SchedState& s, const CfsRq& cfs, std::int64_t vruntime)
{
    std::int64_t avg = cfs.sum_w_vruntime;
    auto load = static_cast<std::int64_t>(cfs.sum_weight);
    if (const SchedEntity* curr = queued_curr(s, cfs)) {
        const auto w = static_cast<std::int64_t>(scaled_weight(*curr));
        avg += entity_key(cfs, *curr) * w;
        load += w;
    }
    // Compare against the exact average, not the rounded V: vruntime <= V
    // <=> (v - v0) * W <= sum. The product can exceed 64 bits.
    const std::int64_t key = vruntime - cfs.zero_vruntime;
    return static_cast<i128>(avg) >= static_cast<i128>(key) * load;
}

std::uint64_t cfs_rq_min_slice(const SchedState& s, const CfsRq& cfs)
{
    std::uint64_t slice = std::numeric_limits<std::uint64_t>::max();
    if (const SchedEntity* curr = queued_curr(s, cfs))
        slice = curr->slice;
    for (TaskId id : cfs.queue)
        slice = std::min(slice, se_of(s, id).slice);
    return slice;
}

std::uint64_t cfs_rq_max_slice(const SchedState& s, const CfsRq& cfs)
{
    std::uint64_t slice = 0;
    if (const SchedEntity* curr = queued_curr(s, cfs))
        slice = curr->slice;
    for (TaskId id : cfs.queue)
        slice = std::max(slice, se_of(s, id).slice);
    return slice;
}

// Lag is bounded by what the queue can pay back: the longest slice plus a
// tick, as virtual time of this entity.
std::int64_t entity_lag(const SchedState& s, const CfsRq& cfs, const SchedEntity& se, std::int64_t avruntime)
{
    const std::uint64_t max_slice = cfs_rq_max_slice(s, cfs) + static_cast<std::uint64_t>(tick_nsec(s));
    const auto limit = static_cast<std::int64_t>(calc_delta_fair(max_slice, se));
    return std::clamp(avruntime - se.vruntime, -limit, limit);
}

// __enqueue_entity / __dequeue_entity: the tree and the sums. curr is never
// in the tree.
void enqueue_tree(SchedState& s, CfsRq& cfs, TaskId id)
{
    const SchedEntity& se = se_of(s, id);
    sum_w_vruntime_add(cfs, se);
    // Equal deadlines go after the ones already there, as rb_add_cached does.
    auto pos =
        std::upper_bound(cfs.queue.begin(), cfs.queue.end(), se.deadline,
                         [&s](std::int64_t deadline, TaskId other) { return deadline < se_of(s, other).deadline; });
    cfs.queue.insert(pos, id);
}

void dequeue_tree(SchedState& s, CfsRq& cfs, TaskId id)
{
    auto it = std::find(cfs.queue.begin(), cfs.queue.end(), id);
    if (it == cfs.queue.end())
        throw std::logic_error("eevdf: task " + std::to_string(id) + " is not in the tree");
    cfs.queue.erase(it);
    sum_w_vruntime_sub(cfs, se_of(s, id));
}

bool protect_slice(const SchedEntity& se)
{
    return se.vruntime < se.vprot;
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
    if (s.feats(Feat::RUN_TO_PARITY))
        slice = cfs_rq_min_slice(s, cfs);
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

// update_deadline(): once curr reaches its virtual deadline it has had its
// request; the next one starts where it is.
bool update_deadline(SchedState& s, CpuId cpu, SchedEntity& se)
{
    if (se.vruntime < se.deadline)
        return false;
    if (!se.custom_slice)
        se.slice = static_cast<std::uint64_t>(s.base_slice());
    se.deadline = se.vruntime + static_cast<std::int64_t>(calc_delta_fair(se.slice, se));
    avg_vruntime(s, cpu);
    return true;
}

void clear_buddies(CfsRq& cfs, TaskId id)
{
    if (cfs.next == id)
        cfs.next = kNoTask;
}

void set_next_buddy(SchedState& s, CfsRq& cfs, TaskId id)
{
    const Task& p = task_of(s, id);
    if (!p.se.on_rq || p.se.sched_delayed || is_idle_policy(p))
        return;
    cfs.next = id;
}

// --- PELT around the queue ---------------------------------------------------

// sub_positive(): rounding must never take an average below zero.
template <typename T>
void sub_positive(T& value, std::uint64_t sub)
{
    value = value > sub ? static_cast<T>(value - sub) : T{0};
}

// Rounding in the sums must never leave an average with no sum behind it.
void clamp_sums(SchedAvg& sa)
{
    sa.load_sum = std::max<std::uint64_t>(sa.load_sum, static_cast<std::uint64_t>(sa.load_avg) * kPeltMinDivider);
    sa.util_sum = std::max<std::uint32_t>(sa.util_sum, static_cast<std::uint32_t>(sa.util_avg * kPeltMinDivider));
    sa.runnable_sum =
        std::max<std::uint64_t>(sa.runnable_sum, static_cast<std::uint64_t>(sa.runnable_avg) * kPeltMinDivider);
}

std::uint32_t pelt_divider(const SchedAvg& sa)
{
    return kPeltMinDivider + sa.period_contrib;
}

// attach_entity_load_avg(): a task arriving on a runqueue brings its
// averages; its sums are rebuilt on the runqueue's period position.
void attach_entity_load_avg(CfsRq& cfs, SchedEntity& se)
{
    SchedAvg& sa = se.avg;
    const std::uint32_t divider = pelt_divider(cfs.avg);
    sa.last_update_time = cfs.avg.last_update_time;
    sa.period_contrib = cfs.avg.period_contrib;
    sa.util_sum = static_cast<std::uint32_t>(sa.util_avg * divider);
    sa.runnable_sum = static_cast<std::uint64_t>(sa.runnable_avg) * divider;
    const std::uint64_t load_sum = static_cast<std::uint64_t>(sa.load_avg) * divider;
    sa.load_sum = se.weight < load_sum ? load_sum / se.weight * se.weight : se.weight;

    cfs.avg.load_avg += sa.load_avg;
    cfs.avg.load_sum += sa.load_sum;
    cfs.avg.util_avg += sa.util_avg;
    cfs.avg.util_sum += sa.util_sum;
    cfs.avg.runnable_avg += sa.runnable_avg;
    cfs.avg.runnable_sum += sa.runnable_sum;
    clamp_sums(cfs.avg);
}

void detach_entity_load_avg(CfsRq& cfs, const SchedEntity& se)
{
    sub_positive(cfs.avg.load_avg, se.avg.load_avg);
    sub_positive(cfs.avg.load_sum, se.avg.load_sum);
    sub_positive(cfs.avg.util_avg, se.avg.util_avg);
    sub_positive(cfs.avg.util_sum, se.avg.util_sum);
    sub_positive(cfs.avg.runnable_avg, se.avg.runnable_avg);
    sub_positive(cfs.avg.runnable_sum, se.avg.runnable_sum);
    clamp_sums(cfs.avg);
}

void util_est_update_task(SchedState& s, SchedEntity& se)
{
    if (!s.feats(Feat::UTIL_EST) || se.util_avg_unchanged)
        return;
    util_est_update(se.avg);
    se.util_avg_unchanged = true;
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

// update_load_avg(): brings the task and its runqueue to now with the state
// they had since their last update, then applies the attach / detach /
// util_est action. Always called before the state changes.
void update_load_avg(SchedState& s, CpuId cpu, TaskId id, unsigned flags)
{
    CfsRq& cfs = s.rq(cpu).cfs;
    SchedEntity& se = se_of(s, id);
    const std::uint64_t now = pelt_now(s);
    const double scale = pelt_scale(s, cpu);

    if (se.avg.last_update_time) {
        // A delayed entity is queued (it still weighs on the queue) but no
        // longer runnable: it will be dequeued the moment it is picked.
        const bool changed = update_sched_avg(se.avg, now, se.on_rq ? se.weight : 0,
                                              se.on_rq && !se.sched_delayed ? 1 : 0, cfs.curr == id ? 1 : 0, scale);
        if (changed && s.feats(Feat::UTIL_EST))
            se.util_avg_unchanged = false;
    }
    update_cfs_rq_load_avg(s, cpu);

    if (!se.avg.last_update_time && (flags & DO_ATTACH))
        attach_entity_load_avg(cfs, se);
    else if (flags & DO_DETACH)
        detach_entity_load_avg(cfs, se);

    if (flags & UPDATE_UTIL_EST)
        util_est_update_task(s, se);
}

// remove_entity_load_avg(): a task leaving for another CPU takes its
// contribution, as of the runqueue's last update, with it.
void remove_entity_load_avg(SchedState& s, CpuId cpu, TaskId id)
{
    CfsRq& cfs = s.rq(cpu).cfs;
    SchedEntity& se = se_of(s, id);
    update_cfs_rq_load_avg(s, cpu);

    if (!se.avg.last_update_time)
        return;  // never attached here: nothing to take away
    SchedAvg synced = se.avg;
    update_sched_avg(synced, cfs.avg.last_update_time, 0, 0, 0);

    const std::uint32_t divider = pelt_divider(cfs.avg);
    sub_positive(cfs.avg.load_avg, synced.load_avg);
    sub_positive(cfs.avg.load_sum, static_cast<std::uint64_t>(synced.load_avg) * divider);
    sub_positive(cfs.avg.util_avg, synced.util_avg);
    sub_positive(cfs.avg.util_sum, static_cast<std::uint64_t>(synced.util_avg) * divider);
    sub_positive(cfs.avg.runnable_avg, synced.runnable_avg);
    sub_positive(cfs.avg.runnable_sum, static_cast<std::uint64_t>(synced.runnable_avg) * divider);
    clamp_sums(cfs.avg);

    // ATTACH_AGE_LOAD: the task arrives with its sleep accounted for
    // (migrate_se_pelt_lag; exact here, the clocks being one). Without it
    // the task attaches with the averages of its last update.
    if (s.feats(Feat::ATTACH_AGE_LOAD)) {
        update_sched_avg(synced, pelt_now(s), 0, 0, 0);
        se.avg = synced;
    }
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
    update_load_avg(s, cpu, id, 0);
    clear_delayed(cfs, se);
}

void put_prev_task_fair(SchedState& s, CpuId cpu, TaskId prev)
{
    CfsRq& cfs = s.rq(cpu).cfs;
    SchedEntity& se = se_of(s, prev);
    if (se.on_rq) {
        update_curr(s, cpu);
        update_load_avg(s, cpu, prev, 0);
    }
    cfs.curr = kNoTask;
    if (se.on_rq)
        enqueue_tree(s, cfs, prev);
}

void set_next_task_fair(SchedState& s, CpuId cpu, TaskId next)
{
    CfsRq& cfs = s.rq(cpu).cfs;
    SchedEntity& se = se_of(s, next);
    clear_buddies(cfs, next);
    if (se.on_rq) {
        dequeue_tree(s, cfs, next);
        update_load_avg(s, cpu, next, UPDATE_TG);
    }
    se.exec_start = static_cast<std::uint64_t>(s.now.ns());
    cfs.curr = next;
    se.prev_sum_exec_runtime = se.sum_exec_runtime;
    if (se.on_rq)
        set_protect_slice(s, cfs, se);
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

bool fail(std::string* why, std::string text)
{
    if (why)
        *why = std::move(text);
    return false;
}

}  // namespace

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

std::uint64_t calc_delta_fair(std::uint64_t delta, const SchedEntity& se)
{
    if (se.weight == kNice0Load)
        return delta;
    return calc_delta(delta, kNice0Load, inv_weight(se.weight));
}

// --- EEVDF queue state -----------------------------------------------------------

std::int64_t avg_vruntime(SchedState& s, CpuId cpu)
{
    CfsRq& cfs = s.rq(cpu).cfs;
    update_zero_vruntime(cfs, avg_vruntime_delta(s, cfs));
    return cfs.zero_vruntime;
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

bool update_entity_lag(SchedState& s, CpuId cpu, TaskId p)
{
    CfsRq& cfs = s.rq(cpu).cfs;
    SchedEntity& se = se_of(s, p);
    const std::int64_t avruntime = avg_vruntime(s, cpu);
    std::int64_t vlag = entity_lag(s, cfs, se, avruntime);
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

void place_entity(SchedState& s, CpuId cpu, TaskId p, unsigned flags)
{
    CfsRq& cfs = s.rq(cpu).cfs;
    SchedEntity& se = se_of(s, p);
    const std::int64_t vruntime = avg_vruntime(s, cpu);
    bool update_zero = false;
    std::int64_t lag = 0;

    if (!se.custom_slice)
        se.slice = static_cast<std::uint64_t>(s.base_slice());
    auto vslice = static_cast<std::int64_t>(calc_delta_fair(se.slice, se));

    if (s.feats(Feat::PLACE_LAG) && cfs.h_nr_queued && se.vlag) {
        // Joining moves V towards p by w * vlag / (W + w), which would eat
        // into the lag p is owed; inflate it so that after placement p sits
        // exactly vlag behind the new V.
        std::int64_t load = static_cast<std::int64_t>(cfs.sum_weight);
        if (const SchedEntity* curr = queued_curr(s, cfs))
            load += static_cast<std::int64_t>(scaled_weight(*curr));
        const auto weight = static_cast<std::int64_t>(scaled_weight(se));
        const i128 inflated = static_cast<i128>(se.vlag) * (load + weight);
        if (!load)
            load = 1;
        lag = static_cast<std::int64_t>(inflated / load);
        // A heavy entity drags V to itself: move the origin there now to keep
        // weight x key products small.
        if (weight > load)
            update_zero = true;
    }

    se.vruntime = vruntime - lag;
    if (update_zero)
        update_zero_vruntime(cfs, -lag);

    if (s.feats(Feat::PLACE_REL_DEADLINE) && se.rel_deadline) {
        se.deadline += se.vruntime;
        se.rel_deadline = false;
        return;
    }
    // A new task joins tasks that are, on average, halfway through their
    // slices; half a slice lets it ease in without jumping the queue.
    if (s.feats(Feat::PLACE_DEADLINE_INITIAL) && (flags & ENQUEUE_INITIAL))
        vslice /= 2;
    se.deadline = se.vruntime + vslice;
}

// --- Runqueue operations ------------------------------------------------------------

void enqueue_task_fair(SchedState& s, CpuId cpu, TaskId pid, unsigned flags)
{
    Rq& rq = s.rq(cpu);
    CfsRq& cfs = rq.cfs;
    Task& p = task_of(s, pid);
    SchedEntity& se = p.se;

    if (p.cpu == kNoCpu)
        p.cpu = p.wake_cpu = cpu;
    if (p.cpu != cpu)
        throw std::logic_error("enqueue_task_fair: task " + std::to_string(pid) + " belongs to CPU " +
                               std::to_string(p.cpu) + ", not " + std::to_string(cpu) + "; set_task_cpu() it first");
    if (se.on_rq && !se.sched_delayed)
        throw std::logic_error("enqueue_task_fair: task " + std::to_string(pid) + " is already queued on CPU " +
                               std::to_string(cpu));
    // Any enqueue of a delayed entity is a wakeup in place (ttwu_runnable).
    if (se.sched_delayed)
        flags |= ENQUEUE_DELAYED;

    util_est_enqueue(s, cfs, se);
    update_curr(s, cpu);

    if (flags & ENQUEUE_DELAYED) {
        requeue_delayed_entity(s, cpu, pid);
        return;
    }

    // curr re-enqueued after a dequeue that was not a switch (a change of
    // its parameters): place it before its runtime moves V.
    const bool is_curr = cfs.curr == pid;
    if (is_curr)
        place_entity(s, cpu, pid, flags);

    // enqueue_entity(): PELT first, with the counts as they were.
    update_load_avg(s, cpu, pid, UPDATE_TG | DO_ATTACH);
    cfs.load_weight += se.weight;
    if (flags & ENQUEUE_MIGRATED)
        se.exec_start = 0;  // no longer cache hot anywhere
    se.on_rq = true;

    if (!is_curr) {
        place_entity(s, cpu, pid, flags);
        enqueue_tree(s, cfs, pid);
    }
    ++cfs.h_nr_runnable;
    ++cfs.h_nr_queued;
    if (is_idle_policy(p))
        ++cfs.h_nr_idle;
    ++rq.nr_running;
}

bool dequeue_task_fair(SchedState& s, CpuId cpu, TaskId pid, unsigned flags)
{
    Rq& rq = s.rq(cpu);
    CfsRq& cfs = rq.cfs;
    Task& p = task_of(s, pid);
    SchedEntity& se = p.se;

    if (p.cpu != cpu || !se.on_rq)
        throw std::logic_error("dequeue_task_fair: task " + std::to_string(pid) + " is not queued on CPU " +
                               std::to_string(cpu));
    // A delayed entity has already slept; whatever takes it off now
    // finishes that sleep.
    if (se.sched_delayed)
        flags = (flags & DEQUEUE_MIGRATING) | DEQUEUE_SLEEP | DEQUEUE_DELAYED;
    const bool sleep = flags & DEQUEUE_SLEEP;
    const bool delayed = flags & DEQUEUE_DELAYED;

    if (!se.sched_delayed)
        util_est_dequeue(s, cfs, se);
    clear_buddies(cfs, pid);
    update_curr(s, cpu);
    update_entity_lag(s, cpu, pid);

    // DELAY_DEQUEUE: a sleeper that has received more than its share stays
    // queued, competing, until it is eligible again and picked, so that a
    // short sleep cannot shed the debt.
    if (!delayed && s.feats(Feat::DELAY_DEQUEUE) && sleep && !(flags & DEQUEUE_SPECIAL) &&
        !entity_eligible(s, cpu, pid)) {
        update_load_avg(s, cpu, pid, UPDATE_UTIL_EST);
        set_delayed(cfs, se);
        return false;
    }

    // dequeue_entity()
    unsigned action = UPDATE_TG;
    if (flags & DEQUEUE_MIGRATING)
        action |= DO_DETACH;
    if (sleep && !delayed)
        action |= UPDATE_UTIL_EST;
    update_load_avg(s, cpu, pid, action);
    se.on_rq = false;
    cfs.load_weight -= se.weight;

    if (sleep || delayed || !se.sched_delayed)
        --cfs.h_nr_runnable;
    --cfs.h_nr_queued;
    if (is_idle_policy(p))
        --cfs.h_nr_idle;

    // Moving, not sleeping: keep the deadline relative to vruntime so the
    // task resumes its request where it left it.
    if (s.feats(Feat::PLACE_REL_DEADLINE) && !sleep) {
        se.deadline -= se.vruntime;
        se.rel_deadline = true;
    }
    if (pid != cfs.curr)
        dequeue_tree(s, cfs, pid);
    --rq.nr_running;

    if (delayed)
        clear_delayed(cfs, se);
    return true;
}

TaskId pick_eevdf(const SchedState& s, CpuId cpu, bool protect)
{
    const CfsRq& cfs = s.rq(cpu).cfs;
    if (!cfs.h_nr_queued)
        return kNoTask;
    TaskId curr = cfs.curr;
    const TaskId first = cfs.queue.empty() ? kNoTask : cfs.queue.front();

    // One entity: nothing to choose, skip the eligibility tests.
    if (cfs.h_nr_queued == 1)
        return curr != kNoTask && se_of(s, curr).on_rq ? curr : first;

    // The next buddy changes latency, not fairness: it must be eligible.
    if (s.feats(Feat::PICK_BUDDY) && protect && cfs.next != kNoTask && entity_eligible(s, cpu, cfs.next))
        return cfs.next;

    if (curr != kNoTask && (!se_of(s, curr).on_rq || !entity_eligible(s, cpu, curr)))
        curr = kNoTask;
    if (curr != kNoTask && protect && protect_slice(se_of(s, curr)))
        return curr;

    TaskId best = kNoTask;
    for (TaskId id : cfs.queue) {
        if (vruntime_eligible(s, cfs, se_of(s, id).vruntime)) {
            best = id;
            break;
        }
    }
    if (best == kNoTask || (curr != kNoTask && se_of(s, curr).deadline < se_of(s, best).deadline))
        best = curr;
    // Some entity is always at or below the weighted average; this only
    // guards against a queue whose sole eligible member is curr off the rq.
    if (best == kNoTask)
        best = first;
    return best;
}

TaskId pick_next_task_fair(SchedState& s, CpuId cpu)
{
    Rq& rq = s.rq(cpu);
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

bool update_curr(SchedState& s, CpuId cpu)
{
    CfsRq& cfs = s.rq(cpu).cfs;
    if (cfs.curr == kNoTask)
        return false;
    SchedEntity& se = se_of(s, cfs.curr);
    const std::int64_t now = s.now.ns();
    const std::int64_t delta = now - static_cast<std::int64_t>(se.exec_start);
    if (delta <= 0)
        return false;
    se.exec_start = static_cast<std::uint64_t>(now);
    se.sum_exec_runtime += static_cast<std::uint64_t>(delta);
    se.vruntime += static_cast<std::int64_t>(calc_delta_fair(static_cast<std::uint64_t>(delta), se));
    const bool resched = update_deadline(s, cpu, se);

    if (cfs.h_nr_queued == 1)
        return false;
    if (resched || !protect_slice(se)) {
        cfs.need_resched = true;
        clear_buddies(cfs, cfs.curr);
        return true;
    }
    return false;
}

bool task_tick_fair(SchedState& s, CpuId cpu)
{
    CfsRq& cfs = s.rq(cpu).cfs;
    if (cfs.curr == kNoTask || !se_of(s, cfs.curr).on_rq)
        return cfs.need_resched;
    update_curr(s, cpu);
    update_load_avg(s, cpu, cfs.curr, UPDATE_TG);
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

// --- Migration -----------------------------------------------------------------------

void migrate_task_rq_fair(SchedState& s, TaskId pid, CpuId new_cpu)
{
    Task& p = task_of(s, pid);
    SchedEntity& se = p.se;
    (void)new_cpu;  // the new runqueue is only touched at enqueue (attach)
    if (p.cpu == kNoCpu) {
        se.avg.last_update_time = 0;
        return;
    }
    if (se.on_rq) {
        if (!se.sched_delayed)
            throw std::logic_error("migrate_task_rq_fair: task " + std::to_string(pid) +
                                   " is queued; dequeue it (or use move_queued_task_fair) first");
        dequeue_task_fair(s, p.cpu, pid, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
    }
    if (s.rq(p.cpu).cfs.curr == pid)
        throw std::logic_error("migrate_task_rq_fair: task " + std::to_string(pid) + " is still current on CPU " +
                               std::to_string(p.cpu) + "; switch it out first");
    remove_entity_load_avg(s, p.cpu, pid);
    se.avg.last_update_time = 0;  // attach on the new runqueue
    se.exec_start = 0;
}

void task_dead_fair(SchedState& s, TaskId pid)
{
    Task& p = task_of(s, pid);
    if (p.cpu == kNoCpu)
        return;
    if (p.se.on_rq && p.se.sched_delayed)
        dequeue_task_fair(s, p.cpu, pid, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
    if (p.se.on_rq || s.rq(p.cpu).cfs.curr == pid)
        throw std::logic_error("task_dead_fair: task " + std::to_string(pid) + " is still queued or current on CPU " +
                               std::to_string(p.cpu));
    remove_entity_load_avg(s, p.cpu, pid);
    p.se.avg.last_update_time = 0;
}

void set_task_cpu(SchedState& s, TaskId pid, CpuId new_cpu)
{
    Task& p = task_of(s, pid);
    if (p.cpu != new_cpu)
        migrate_task_rq_fair(s, pid, new_cpu);
    p.cpu = p.wake_cpu = new_cpu;
}

void move_queued_task_fair(SchedState& s, TaskId pid, CpuId new_cpu)
{
    Task& p = task_of(s, pid);
    const CpuId old_cpu = p.cpu;
    if (old_cpu == new_cpu)
        return;
    if (old_cpu == kNoCpu || !p.se.on_rq)
        throw std::logic_error("move_queued_task_fair: task " + std::to_string(pid) + " is not queued");
    if (s.rq(old_cpu).cfs.curr == pid)
        throw std::logic_error("move_queued_task_fair: task " + std::to_string(pid) + " is running on CPU " +
                               std::to_string(old_cpu));
    if (p.se.sched_delayed) {
        // It is asleep; moving it means finishing its dequeue, after which it
        // is an ordinary sleeper (no enqueue on the new CPU).
        set_task_cpu(s, pid, new_cpu);
        return;
    }
    dequeue_task_fair(s, old_cpu, pid, DEQUEUE_MIGRATING);
    p.se.avg.last_update_time = 0;
    p.cpu = p.wake_cpu = new_cpu;
    enqueue_task_fair(s, new_cpu, pid, ENQUEUE_MIGRATED);
}

// --- PELT --------------------------------------------------------------------------------

void post_init_entity_util_avg(SchedState& s, TaskId pid)
{
    Task& p = task_of(s, pid);
    if (p.cpu == kNoCpu)
        throw std::logic_error("post_init_entity_util_avg: task " + std::to_string(pid) + " has no CPU yet");
    SchedEntity& se = p.se;
    const Rq& rq = s.rq(p.cpu);
    const SchedAvg& rq_avg = rq.cfs.avg;

    // init_entity_runnable_average(): heavy until proven otherwise.
    se.avg = SchedAvg{};
    se.avg.load_avg = se.weight;
    se.util_avg_unchanged = false;

    // Extrapolate util from the runqueue's util per unit of load, but claim
    // at most half of what is left, so a burst of forks cannot overshoot.
    const long cap = (rq.cpu_capacity_orig - static_cast<long>(rq_avg.util_avg)) / 2;
    if (cap > 0) {
        unsigned long util = static_cast<unsigned long>(cap);
        if (rq_avg.util_avg)
            util = std::min(rq_avg.util_avg * se.weight / (rq_avg.load_avg + 1), util);
        se.avg.util_avg = util;
    }
    se.avg.runnable_avg = se.avg.util_avg;
}

void update_cfs_rq_load_avg(SchedState& s, CpuId cpu)
{
    CfsRq& cfs = s.rq(cpu).cfs;
    update_sched_avg(cfs.avg, pelt_now(s), static_cast<unsigned long>(cfs.load_weight), cfs.h_nr_runnable,
                     cfs.curr != kNoTask ? 1 : 0, pelt_scale(s, cpu));
}

double pelt_scale(const SchedState& s, CpuId cpu)
{
    if (!s.machine || cpu < 0 || cpu >= s.machine->nr_cpus())
        return 1.0;
    const CpuTopo& c = s.machine->cpus[static_cast<std::size_t>(cpu)];
    return std::clamp(static_cast<double>(c.capacity) * c.speed / 1024.0, 0.0, 1.0);
}

void util_est_update(SchedAvg& task_avg)
{
    unsigned int ewma = task_avg.util_est;
    const auto dequeued = static_cast<unsigned int>(task_avg.util_avg);

    // Increases are taken at once: the estimate exists to not underestimate.
    if (ewma <= dequeued) {
        task_avg.util_est = dequeued;
        return;
    }
    const unsigned int last_ewma_diff = ewma - dequeued;
    if (last_ewma_diff < kUtilEstMargin)
        return;
    // A task that waited for the CPU ran less than it wanted: its util is
    // not a sign it needs less.
    if (dequeued + kUtilEstMargin < task_avg.runnable_avg)
        return;
    // ewma = ewma - (ewma - sample) / 4, in the kernel's shift form.
    ewma <<= 2;
    ewma -= last_ewma_diff;
    ewma >>= 2;
    task_avg.util_est = ewma;
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
        const bool in_tree = std::find(cfs.queue.begin(), cfs.queue.end(), t.id) != cfs.queue.end();
        if (in_tree == (t.id == cfs.curr))
            return fail(why,
                        where + "task " + std::to_string(t.id) +
                            (in_tree ? " is curr and in the tree" : " is queued but neither curr nor in the tree"));
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

    std::uint64_t sum_weight = 0;
    std::int64_t sum_w_vruntime = 0;
    std::int64_t last_deadline = std::numeric_limits<std::int64_t>::min();
    for (std::size_t i = 0; i < cfs.queue.size(); ++i) {
        const TaskId id = cfs.queue[i];
        if (id < 0 || static_cast<std::size_t>(id) >= s.tasks.size())
            return fail(why, where + "the tree holds unknown task " + std::to_string(id));
        const Task& t = s.task(id);
        if (t.cpu != cpu || !t.se.on_rq)
            return fail(why, where + "the tree holds task " + std::to_string(id) + " which is not queued here");
        if (std::count(cfs.queue.begin(), cfs.queue.end(), id) != 1)
            return fail(why, where + "task " + std::to_string(id) + " is in the tree twice");
        if (t.se.deadline < last_deadline)
            return fail(why, where + "the tree is out of deadline order at task " + std::to_string(id));
        last_deadline = t.se.deadline;
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

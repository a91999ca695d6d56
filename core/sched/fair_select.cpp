// SPDX-License-Identifier: Apache-2.0
//
// select_task_rq_fair() and its decisions, after kernel/sched/fair.c and
// core.c of the v7.3 merge window ([NEW] in wakeup-path.md §1.5-4). One
// function per kernel decision, in the kernel's order of early returns; the
// idle searches are in select_idle.cpp and the fork/exec slow path in
// slow_path.cpp. With s.policy set to a patch, the policy's hooks
// (sched/placement_policy.h) run where the proposed patches change the
// path; a null policy or baseline is mainline.
//
// Where the model differs from the kernel (docs/model.md):
//  - an interrupt that wakes a task from an idle CPU has the idle task as
//    `current`; it is not a Task here, so its wakee_flips are not kept
//    (record_wakee does nothing, wake_wide sees 0 flips: never wide) and its
//    load is 0;
//  - find_energy_efficient_cpu() returns -1 (no Energy Model), and the root
//    domain's overutilized flag is not kept: EAS is attempted whenever
//    s.eas_enabled;
//  - select_fallback_rq() knows no cpusets: a task allowed nowhere stays.
#include "sched/fair_select.h"

#include <cassert>
#include <utility>

#include "sched/placement_policy.h"
#include "sched/fair_util.h"
#include "sched/select_idle.h"
#include "sched/slow_path.h"
#include "sched/wake_affine.h"
#include "topology/distance.h"

namespace wb {

namespace {

constexpr std::string_view kSelectTaskRq = "select_task_rq";
constexpr std::string_view kSelectTaskRqFair = "select_task_rq_fair";
constexpr std::string_view kWakeWide = "wake_wide";
constexpr std::string_view kWakeAffine = "wake_affine";
constexpr std::string_view kWakeAffineIdle = "wake_affine_idle";
constexpr std::string_view kWakeAffineWeight = "wake_affine_weight";
constexpr std::string_view kSelectIdleSibling = "select_idle_sibling";
constexpr std::string_view kFindEnergyEfficientCpu = "find_energy_efficient_cpu";

void end_record(DecisionRecord& rec, const SchedState& s, CpuId target, CpuId chosen, WakePath path)
{
    rec.target = target;
    rec.chosen = chosen;
    rec.path = path;
    const int nr_cpus = s.machine->nr_cpus();
    auto valid = [nr_cpus](CpuId c) { return c >= 0 && c < nr_cpus; };
    if (valid(chosen) && valid(rec.waker_cpu))
        rec.from_waker = distance_class(*s.machine, rec.waker_cpu, chosen);
    if (valid(chosen) && valid(rec.prev_cpu))
        rec.from_prev = distance_class(*s.machine, rec.prev_cpu, chosen);
}

bool is_cpu_allowed(const SchedState& s, const Task& t, CpuId cpu)
{
    return cpu >= 0 && cpu < s.nr_cpus && t.cpus_allowed.test(cpu);
}

// select_fallback_rq(): the selector's answer is not allowed (an affinity
// change since p last ran): prefer an allowed CPU on the same node, then any
// allowed CPU. Kernel threads skip the node preference.
CpuId select_fallback_rq(const SchedState& s, const Task& t, CpuId cpu)
{
    if (cpu >= 0 && cpu < s.machine->nr_cpus() && !t.kthread) {
        const CpuMask node = s.machine->node_mask(s.machine->cpus[static_cast<std::size_t>(cpu)].node);
        for (CpuId c = node.first(); c != kNoCpu; c = node.next(c))
            if (is_cpu_allowed(s, t, c))
                return c;
    }
    for (CpuId c = t.cpus_allowed.first(); c != kNoCpu; c = t.cpus_allowed.next(c))
        if (is_cpu_allowed(s, t, c))
            return c;
    return cpu >= 0 && cpu < s.machine->nr_cpus() ? cpu : 0;
}

// is_rd_overutilized(): without EAS the answer is always "overutilized",
// which is how the kernel keeps find_energy_efficient_cpu() off. The root
// domain's flag itself is not kept (see the file comment).
bool is_rd_overutilized(const SchedState& s)
{
    return !s.eas_enabled;
}

std::string wake_wide_text(unsigned int hi, unsigned int lo, unsigned int factor, bool wide)
{
    if (wide)
        return cat("wakee_flips ", hi, "/", lo, ": lo >= llc_size ", factor, " and hi >= lo*llc_size ", lo * factor);
    if (lo < factor)
        return cat("wakee_flips ", hi, "/", lo, ": lo < llc_size ", factor);
    return cat("wakee_flips ", hi, "/", lo, ": hi < lo*llc_size ", lo * factor);
}

// record_wakee() and wake_wide(): inlined into select_task_rq_fair(), which
// calls them at every wakeup.
[[gnu::always_inline]] inline void record_wakee_impl(SchedState& s, const WakerContext& waker, TaskId p)
{
    if (waker.task == kNoTask)
        return;
    // The flip count measures how many different tasks the waker wakes
    // (1:N fan-out); decaying it once a second keeps it about recent
    // behaviour.
    Task& cur = s.task(waker.task);
    const std::uint64_t jiffies = s.jiffies();
    if (jiffies > cur.wakee_flip_decay_ts + s.hz) {
        cur.wakee_flips >>= 1;
        cur.wakee_flip_decay_ts = jiffies;
    }
    if (cur.last_wakee != p) {
        cur.last_wakee = p;
        ++cur.wakee_flips;
    }
}

[[gnu::always_inline]] inline bool wake_wide_impl(const SchedState& s, const WakerContext& waker, TaskId p)
{
    // A waker that switches between many wakees (and wakees that do the
    // same) form an M:N pattern: pulling them all onto the waker's LLC would
    // pile them up, so spread instead. Both sides must flip at least once
    // per CPU of the LLC, and the busier side llc_size times as often.
    unsigned int master = waker.task != kNoTask ? s.task(waker.task).wakee_flips : 0;
    unsigned int slave = s.task(p).wakee_flips;
    const auto factor = static_cast<unsigned int>(s.domains->shortcuts(waker.cpu).sd_llc_size);
    if (master < slave)
        std::swap(master, slave);
    return !(slave < factor || master < slave * factor);
}

}  // namespace

void record_wakee(SchedState& s, const WakerContext& waker, TaskId p)
{
    record_wakee_impl(s, waker, p);
}

bool wake_wide(const SchedState& s, const WakerContext& waker, TaskId p)
{
    return wake_wide_impl(s, waker, p);
}

// The hot functions of the path are templates compiled twice, and the
// public functions pick the instantiation. With kRecord false, `rec` is a
// constant null, so the compiler drops every step and string a record would
// get: a wakeup without a record runs code small enough to inline and to
// keep in registers. With kRecord true it is the same code, recording.
// Those marked always_inline end up in select_task_rq_impl(), one function
// for the whole common path: each call saved is a prologue, an epilogue and
// the spills around the call (GCC's own heuristics kept them apart).
namespace {

template <bool kRecord>
[[gnu::hot, gnu::always_inline]] inline CpuId wake_affine_idle_impl(const SchedState& s, CpuId this_cpu, CpuId prev,
                                                                    bool sync, DecisionRecord* record)
{
    DecisionRecord* const rec = kRecord ? record : nullptr;
    // An idle waker CPU means the wakeup comes from an interrupt. Following
    // interrupts would pile tasks onto the CPUs that take them, so the waker
    // CPU only attracts the task when it shares a cache with prev, and prev
    // still wins if it is idle too.
    const bool this_idle = available_idle_cpu(s.rq(this_cpu));
    const bool prev_idle = available_idle_cpu(s.rq(prev));
    if (this_idle && s.domains->cpus_share_cache(this_cpu, prev)) {
        const CpuId cpu = prev_idle ? prev : this_cpu;
        if (rec)
            note(rec, kWakeAffineIdle, prev_idle ? "waker and prev idle" : "waker idle, shares cache",
                 cat("waker cpu ", this_cpu, " idle and shares cache with prev ", prev,
                     prev_idle ? " (idle too)" : " (busy)"),
                 cpu);
        return cpu;
    }
    // A sync waker is about to sleep: if it is the only runnable task on its
    // CPU, the wakee gets that CPU as soon as the waker blocks.
    const Rq& rq = s.rq(this_cpu);
    if (sync && rq.nr_running - cfs_h_nr_delayed(rq) == 1) {
        if (rec)
            note(rec, kWakeAffineIdle, "sync, waker alone",
                 cat("sync and waker cpu nr_running ", rq.nr_running, " - delayed ", cfs_h_nr_delayed(rq), " == 1"),
                 this_cpu);
        return this_cpu;
    }
    if (prev_idle) {
        if (rec)
            note(rec, kWakeAffineIdle, "prev idle", cat("prev ", prev, " idle"), prev);
        return prev;
    }
    if (rec)
        note(rec, kWakeAffineIdle, "no idle choice",
             cat("waker ", idle_text(s, this_cpu), "; prev ", idle_text(s, prev)));
    return kNoCpu;
}

}  // namespace

CpuId wake_affine_idle(const SchedState& s, CpuId this_cpu, CpuId prev, bool sync, DecisionRecord* rec)
{
    return rec ? wake_affine_idle_impl<true>(s, this_cpu, prev, sync, rec)
               : wake_affine_idle_impl<false>(s, this_cpu, prev, sync, nullptr);
}

CpuId wake_affine_weight(const SchedState& s, const WakerContext& waker, int sd, TaskId p, CpuId this_cpu, CpuId prev,
                         bool sync, DecisionRecord* rec)
{
    // Pull p to the waker's CPU only if that CPU, carrying p (and not the
    // sync waker that is about to sleep), would still be less loaded than
    // prev without p. prev gets a bias of half the domain's imbalance
    // margin, because moving costs cache warmth.
    std::int64_t this_eff_load = static_cast<std::int64_t>(cpu_load(s, this_cpu));
    if (sync) {
        const unsigned long current_load = task_h_load(s, waker.task);
        if (current_load > static_cast<unsigned long>(this_eff_load)) {
            if (rec)
                note(rec, kWakeAffineWeight, "sync, waker carries the load",
                     cat("waker task_h_load ", current_load, " > waker cpu load ", this_eff_load), this_cpu);
            return this_cpu;
        }
        this_eff_load -= static_cast<std::int64_t>(current_load);
    }
    const auto task_load = static_cast<std::int64_t>(task_h_load(s, p));
    this_eff_load += task_load;
    if (s.feats(Feat::WA_BIAS))
        this_eff_load *= 100;
    this_eff_load *= capacity_of(s, prev);

    std::int64_t prev_eff_load = static_cast<std::int64_t>(cpu_load(s, prev)) - task_load;
    const int imbalance_pct = s.domains->domain(sd).imbalance_pct;
    if (s.feats(Feat::WA_BIAS))
        prev_eff_load *= 100 + (imbalance_pct - 100) / 2;
    prev_eff_load *= capacity_of(s, this_cpu);
    // On a tie, a sync wakeup goes to the waker: its CPU frees up soon.
    if (sync)
        prev_eff_load += 1;

    const bool pull = this_eff_load < prev_eff_load;
    if (rec)
        note(rec, kWakeAffineWeight, pull ? "waker lighter" : "prev lighter",
             cat("this_eff ", this_eff_load, pull ? " < " : " >= ", "prev_eff ", prev_eff_load, " (loads ",
                 cpu_load(s, this_cpu), "/", cpu_load(s, prev), ", task ", task_load, ", imbalance_pct ", imbalance_pct,
                 s.feats(Feat::WA_BIAS) ? "" : ", NO_WA_BIAS", sync ? ", sync" : "", ")"),
             pull ? this_cpu : kNoCpu);
    return pull ? this_cpu : kNoCpu;
}

namespace {

template <bool kRecord>
[[gnu::hot, gnu::always_inline]] inline CpuId wake_affine_impl(const SchedState& s, const WakerContext& waker, int sd,
                                                               TaskId p, CpuId this_cpu, CpuId prev, bool sync,
                                                               DecisionRecord* record)
{
    DecisionRecord* const rec = kRecord ? record : nullptr;
    CpuId target = kNoCpu;
    if (s.feats(Feat::WA_IDLE))
        target = wake_affine_idle_impl<kRecord>(s, this_cpu, prev, sync, rec);
    if (s.feats(Feat::WA_WEIGHT) && target == kNoCpu)
        target = wake_affine_weight(s, waker, sd, p, this_cpu, prev, sync, rec);
    const CpuId chosen = target == this_cpu ? this_cpu : prev;
    if (rec)
        note(rec, kWakeAffine, chosen == this_cpu ? "waker cpu" : "prev",
             chosen == this_cpu ? cat("target = waker cpu ", this_cpu) : cat("target = prev ", prev), chosen);
    return chosen;
}

}  // namespace

CpuId wake_affine(const SchedState& s, const WakerContext& waker, int sd, TaskId p, CpuId this_cpu, CpuId prev,
                  bool sync, DecisionRecord* rec)
{
    return rec ? wake_affine_impl<true>(s, waker, sd, p, this_cpu, prev, sync, rec)
               : wake_affine_impl<false>(s, waker, sd, p, this_cpu, prev, sync, nullptr);
}

CpuId find_energy_efficient_cpu(const SchedState&, TaskId, CpuId, DecisionRecord* rec)
{
    // No machine carries an Energy Model, so there is no perf-domain list
    // and the kernel's own first test returns -1: EAS never places here.
    if (rec)
        note(rec, kFindEnergyEfficientCpu, "no energy model", "no performance domains: -1");
    return kNoCpu;
}

namespace {

// What select_idle_sibling() knows of p's fit, shared by its two halves:
// asym_fits_cpu() is true on a symmetric machine, and `asym` says so
// without the call; only the asym-capacity tests read p's utilisation.
struct SisFit {
    bool asym;
    unsigned long util;

    [[gnu::always_inline]] SisFit(const SchedState& s, TaskId p)
        : asym(s.domains->sched_asym_cpucapacity()), util(asym ? task_util_est(synced_avg(s, p)) : 0)
    {
    }
    // No per-task uclamp: the clamps are 0 and 1024.
    bool fits(const SchedState& s, CpuId cpu) const { return !asym || asym_fits_cpu(s, util, 0, 1024, cpu); }
    std::string why(const SchedState& s, CpuId cpu) const
    {
        std::string text = idle_text(s, cpu);
        if (asym)
            text += fits(s, cpu) ? std::string(", fits") : cat(", does not fit (util ", util, ")");
        return text;
    }
};

// select_idle_sibling() from step 3 on: the searches. Kept out of line so
// that steps 1 and 2, which settle most wakeups, inline into
// select_task_rq_fair() without this half's stack frame. prev_aff is step
// 2's fallback, or kNoCpu.
template <bool kRecord>
[[gnu::hot, gnu::noinline]] CpuId select_idle_sibling_search(SchedState& s, const WakerContext& waker, TaskId p,
                                                             CpuId prev, CpuId target, DecisionRecord* record,
                                                             WakePath* path, bool sync, const SisFit& fit,
                                                             CpuId prev_aff)
{
    DecisionRecord* const rec = kRecord ? record : nullptr;
    const PlacementPolicy* hooks = placement_hooks(s);
    Task& t = s.task(p);
    const SchedDomains& dom = *s.domains;
    const bool asym = fit.asym;
    auto fits = [&](CpuId cpu) { return fit.fits(s, cpu); };
    auto why = [&](CpuId cpu) { return fit.why(s, cpu); };
    auto done = [&](CpuId cpu, WakePath wp) {
        if (path)
            *path = wp;
        return cpu;
    };
    const bool cluster_active = dom.sched_cluster_active();

    // 3. A per-CPU kthread (an I/O completion worker) woke p on prev, its
    // own CPU, and is about to sleep: stacking p behind it is cheapest.
    const Task* cur = waker.task != kNoTask ? &s.task(waker.task) : nullptr;
    if (cur && cur->per_cpu_kthread() && waker.in_task_context && prev == waker.cpu &&
        s.rq(waker.cpu).nr_running <= 1 && fits(prev)) {
        if (rec)
            note(rec, kSelectIdleSibling, "per-cpu kthread waker",
                 cat("per-cpu kthread on prev ", prev, ", nr_running ", s.rq(prev).nr_running), prev);
        return done(prev, WakePath::PerCpuKthread);
    }

    // 4. The CPU p used before prev may still be warm and idle. Reaching
    // this point always moves prev into recent_used_cpu.
    CpuId recent = t.recent_used_cpu;
    t.recent_used_cpu = prev;
    if (recent != kNoCpu && recent != prev && recent != target && dom.cpus_share_cache(recent, target) &&
        choose_idle_cpu(s, recent, t) && t.cpus_allowed.test(recent) && fits(recent)) {
        if (!cluster_active || dom.cpus_share_resources(recent, target)) {
            if (rec)
                note(rec, kSelectIdleSibling, "recent_used_cpu idle",
                     cat("recent_used_cpu ", recent, ": ", why(recent)), recent);
            return done(recent, WakePath::RecentUsed);
        }
        if (rec)
            note(rec, kSelectIdleSibling, "recent_used_cpu idle, other cluster",
                 cat("recent_used_cpu ", recent, " idle, not in target's cluster: kept as fallback"));
    } else {
        if (rec) {
            std::string reason;
            if (recent == kNoCpu)
                reason = "none";
            else if (recent == prev || recent == target)
                reason = cat(recent, " is ", recent == prev ? "prev" : "target");
            else if (!dom.cpus_share_cache(recent, target))
                reason = cat(recent, " in another LLC than target");
            else if (!t.cpus_allowed.test(recent))
                reason = cat(recent, " not allowed");
            else
                reason = why(recent);
            note(rec, kSelectIdleSibling, "recent_used_cpu not usable", cat("recent_used_cpu ", reason));
        }
        recent = kNoCpu;
    }
    // Built only here, where the searches that may mark it begin: the steps
    // above return without it.
    WakeupArgs args{waker, p, prev, sync};
    bool skip_smt_sibling = false;
    if (hooks) {
        const PlacementPolicy::AfterRecentUsedCpu r = hooks->after_recent_used_cpu(s, args, target, rec);
        if (r.cpu != kNoCpu)
            return done(r.cpu, WakePath::Policy);
        skip_smt_sibling = r.skip_smt_sibling;
    }

    // 5. Asymmetric capacities: pick by fit over the whole asym domain; the
    // LLC scan would ignore capacity.
    if (asym) {
        const int sd = dom.shortcuts(target).sd_asym_cpucapacity;
        if (sd >= 0) {
            const CpuId cpu = select_idle_capacity(s, p, sd, target, rec, &args);
            const CpuId chosen = cpu != kNoCpu ? cpu : target;
            if (rec && cpu == kNoCpu)
                note(rec, kSelectIdleSibling, "asym: nothing idle", cat("target ", target), target);
            return done(chosen, args.policy_placed ? WakePath::Policy : WakePath::AsymCapacity);
        }
    }

    // 6. Without a shared cache there is nothing cheap to search.
    const int sd = dom.shortcuts(target).sd_llc;
    if (sd < 0) {
        if (rec)
            note(rec, kSelectIdleSibling, "no LLC domain", cat("target ", target, " shares no cache"), target);
        return done(target, WakePath::NoLlc);
    }

    // 7. With no idle core advertised, an idle SMT sibling of prev is the
    // warmest choice left and costs no LLC scan.
    bool has_idle_core = false;
    if (dom.sched_smt_active()) {
        has_idle_core = test_idle_cores(s, target);
        if (rec)
            note(rec, kSelectIdleSibling, has_idle_core ? "idle-cores hint set" : "idle-cores hint clear",
                 has_idle_core ? "has_idle_cores: search for a whole idle core"
                               : "has_idle_cores false: try prev's SMT siblings");
        if (!has_idle_core && dom.cpus_share_cache(prev, target) && !skip_smt_sibling) {
            const CpuId cpu = select_idle_smt(s, p, sd, prev, rec);
            if (cpu != kNoCpu)
                return done(cpu, WakePath::SmtSibling);
        }
    }

    // 8. Scan the LLC.
    const CpuId cpu = select_idle_cpu(s, p, sd, has_idle_core, target, rec, &args);
    if (cpu != kNoCpu)
        return done(cpu, args.policy_placed ? WakePath::Policy : WakePath::LlcScan);

    // 10. Idle CPUs passed over only for being in another cluster.
    if (prev_aff != kNoCpu) {
        if (rec)
            note(rec, kSelectIdleSibling, "prev fallback", cat("prev ", prev_aff, " idle in another cluster"),
                 prev_aff);
        return done(prev_aff, WakePath::PrevAffFallback);
    }
    if (recent != kNoCpu) {
        if (rec)
            note(rec, kSelectIdleSibling, "recent fallback",
                 cat("recent_used_cpu ", recent, " idle in another cluster"), recent);
        return done(recent, WakePath::RecentFallback);
    }

    // 11. Nothing idle: queue on target.
    if (rec)
        note(rec, kSelectIdleSibling, "target fallback", cat("nothing idle found; target ", target), target);
    return done(target, WakePath::TargetFallback);
}

// `hooks` is placement_hooks(s) and `t` is s.task(p), passed in: the
// caller has them, and GCC would work them out again (the caller's stores to
// Task might alias s.policy for all it knows).
template <bool kRecord>
[[gnu::hot, gnu::always_inline]] inline CpuId select_idle_sibling_impl(SchedState& s, const PlacementPolicy* hooks,
                                                                       const WakerContext& waker, TaskId p,
                                                                       const Task& t, CpuId prev, CpuId target,
                                                                       DecisionRecord* record, WakePath* path,
                                                                       bool sync)
{
    DecisionRecord* const rec = kRecord ? record : nullptr;
    if (hooks) {
        const CpuId cpu = hooks->select_idle_sibling_entry(s, WakeupArgs{waker, p, prev, sync}, target, rec);
        if (cpu != kNoCpu) {
            if (path)
                *path = WakePath::Policy;
            return cpu;
        }
    }
    const SchedDomains& dom = *s.domains;
    const SisFit fit(s, p);
    // always_inline: as `finish` in select_task_rq_fair_impl().
    auto done = [&](CpuId cpu, WakePath wp) __attribute__((always_inline)) {
        if (path)
            *path = wp;
        return cpu;
    };

    // 1. The target is idle: nothing is cheaper or warmer.
    if (choose_idle_cpu(s, target, t) && fit.fits(s, target)) {
        if (rec)
            note(rec, kSelectIdleSibling, "target idle", fit.why(s, target), target);
        return done(target, WakePath::TargetIdle);
    }
    if (rec)
        note(rec, kSelectIdleSibling, "target not idle", fit.why(s, target));

    // 2. prev is idle and shares the cache with target: p's data is there.
    CpuId prev_aff = kNoCpu;
    if (prev != target && dom.cpus_share_cache(prev, target) && choose_idle_cpu(s, prev, t) && fit.fits(s, prev)) {
        if (!dom.sched_cluster_active() || dom.cpus_share_resources(prev, target)) {
            if (rec)
                note(rec, kSelectIdleSibling, "prev idle", cat(fit.why(s, prev), ", shares cache with target"), prev);
            return done(prev, WakePath::PrevIdle);
        }
        // Idle, but in another cluster than target: an idle CPU in target's
        // cluster would be closer, so keep prev only as a late fallback.
        prev_aff = prev;
        if (rec)
            note(rec, kSelectIdleSibling, "prev idle, other cluster",
                 cat(fit.why(s, prev), ", not in target's cluster: kept as fallback"));
    } else if (rec && prev != target) {
        note(rec, kSelectIdleSibling, "prev not usable",
             dom.cpus_share_cache(prev, target) ? fit.why(s, prev) : cat("prev ", prev, " in another LLC than target"));
    }
    return select_idle_sibling_search<kRecord>(s, waker, p, prev, target, rec, path, sync, fit, prev_aff);
}

}  // namespace

CpuId select_idle_sibling(SchedState& s, const WakerContext& waker, TaskId p, CpuId prev, CpuId target,
                          DecisionRecord* rec, WakePath* path, bool sync)
{
    const PlacementPolicy* hooks = placement_hooks(s);
    const Task& t = s.task(p);
    return rec ? select_idle_sibling_impl<true>(s, hooks, waker, p, t, prev, target, rec, path, sync)
               : select_idle_sibling_impl<false>(s, hooks, waker, p, t, prev, target, nullptr, path, sync);
}

namespace {

template <bool kRecord>
[[gnu::hot, gnu::always_inline]] inline CpuId select_task_rq_fair_impl(SchedState& s, const WakerContext& waker,
                                                                       TaskId p, CpuId prev, unsigned int wake_flags,
                                                                       DecisionRecord* record, WakePath* path)
{
    DecisionRecord* const rec = kRecord ? record : nullptr;
    assert(prev >= 0 && prev < s.machine->nr_cpus() && waker.cpu >= 0 && waker.cpu < s.machine->nr_cpus());
    const Task& t = s.task(p);
    // An exiting waker will not sleep and hand over its CPU: no sync. (Tested
    // on the id, not on a Task pointer: GCC cannot tell that &s.task(id) is
    // never null and would test it again.)
    const bool sync = (wake_flags & WF_SYNC) && !(waker.task != kNoTask && s.task(waker.task).exiting);
    const CpuId cpu = waker.cpu;
    CpuId new_cpu = prev;
    bool want_affine = false;
    int sd = -1;
    const unsigned int sd_flag = wake_flags & 0xF;
    const PlacementPolicy* hooks = placement_hooks(s);
    if (rec)
        begin_record(*rec, s, waker, p, prev, wake_flags);

    // always_inline: GCC kept this lambda out of line once the path became one function.
    auto finish = [&](CpuId chosen, WakePath wp, CpuId target) __attribute__((always_inline)) {
        if (path)
            *path = wp;
        if (rec)
            end_record(*rec, s, target, chosen, wp);
        return chosen;
    };

    if (wake_flags & WF_TTWU) {
        record_wakee_impl(s, waker, p);

        if (wake_flags & WF_CURRENT_CPU) {
            if (t.cpus_allowed.test(cpu)) {
                if (rec)
                    note(rec, kSelectTaskRqFair, "WF_CURRENT_CPU", cat("caller asks for waker cpu ", cpu), cpu);
                return finish(cpu, WakePath::CurrentCpu, cpu);
            }
            if (rec)
                note(rec, kSelectTaskRqFair, "WF_CURRENT_CPU not allowed", cat("waker cpu ", cpu, " not allowed"));
        }

        if (!is_rd_overutilized(s)) {
            const CpuId energy_cpu = find_energy_efficient_cpu(s, p, prev, rec);
            if (energy_cpu >= 0)
                return finish(energy_cpu, WakePath::Energy, energy_cpu);
            new_cpu = prev;
        }

        const bool wide = wake_wide_impl(s, waker, p);
        want_affine = !wide && t.cpus_allowed.test(cpu);
        if (rec) {
            const unsigned int a = waker.task != kNoTask ? s.task(waker.task).wakee_flips : 0;
            const unsigned int b = t.wakee_flips;
            note(rec, kWakeWide, wide ? "wide" : "not wide",
                 wake_wide_text(std::max(a, b), std::min(a, b),
                                static_cast<unsigned int>(s.domains->shortcuts(cpu).sd_llc_size), wide));
            if (!wide && !want_affine)
                note(rec, kSelectTaskRqFair, "waker cpu not allowed", cat("p may not run on waker cpu ", cpu));
        }
    }

    bool affine_domain = false;
    for (int id : s.domains->domains_of(cpu)) {
        const SchedDomain& d = s.domains->domain(id);
        if (want_affine && (d.flags & SD_WAKE_AFFINE) && d.span.test(prev)) {
            affine_domain = true;
            if (rec)
                note(rec, kSelectTaskRqFair, "affine domain",
                     cat(d.name, " (", d.span.to_cpulist(), ") spans waker ", cpu, " and prev ", prev,
                         cpu == prev ? ": waker is prev" : ""));
            if (hooks) {
                const CpuId chosen = hooks->before_wake_affine(s, WakeupArgs{waker, p, prev, sync}, id, rec);
                if (chosen != kNoCpu)
                    return finish(chosen, WakePath::Policy, chosen);
            }
            if (cpu != prev)
                new_cpu = wake_affine_impl<kRecord>(s, waker, id, p, cpu, prev, sync, rec);
            if (hooks) {
                const CpuId chosen = hooks->after_wake_affine(s, WakeupArgs{waker, p, prev, sync}, id, new_cpu, rec);
                if (chosen != kNoCpu)
                    return finish(chosen, WakePath::Policy, new_cpu);
            }
            sd = -1;
            break;
        }
        if (d.flags & sd_flag)
            sd = id;
        else if (!want_affine)
            break;
    }
    if (rec && want_affine && !affine_domain)
        note(rec, kSelectTaskRqFair, "no affine domain",
             cat("no SD_WAKE_AFFINE domain of waker ", cpu, " spans prev ", prev, ": target = prev"));

    if (sd >= 0) {
        if (rec)
            note(rec, kSelectTaskRqFair, "slow path",
                 cat("highest domain with the balance flag: ", s.domains->domain(sd).name));
        const CpuId chosen = sched_balance_find_dst_cpu(s, sd, p, cpu, prev, sd_flag, rec);
        return finish(chosen, WakePath::SlowPath, new_cpu);
    }
    if (wake_flags & WF_TTWU) {
        if (hooks) {
            const CpuId chosen = hooks->before_select_idle_sibling(s, WakeupArgs{waker, p, prev, sync}, new_cpu, rec);
            if (chosen != kNoCpu)
                return finish(chosen, WakePath::Policy, new_cpu);
        }
        WakePath wp = WakePath::TargetFallback;
        const CpuId chosen = select_idle_sibling_impl<kRecord>(s, hooks, waker, p, t, prev, new_cpu, rec, &wp, sync);
        return finish(chosen, wp, new_cpu);
    }
    if (rec)
        note(rec, kSelectTaskRqFair, "no balance domain", cat("no domain carries the flag: stays on ", new_cpu),
             new_cpu);
    return finish(new_cpu, WakePath::TargetFallback, new_cpu);
}

}  // namespace

CpuId select_task_rq_fair(SchedState& s, const WakerContext& waker, TaskId p, CpuId prev, unsigned int wake_flags,
                          DecisionRecord* rec, WakePath* path)
{
    return rec ? select_task_rq_fair_impl<true>(s, waker, p, prev, wake_flags, rec, path)
               : select_task_rq_fair_impl<false>(s, waker, p, prev, wake_flags, nullptr, path);
}

namespace {

// Kept out of line: select_task_rq() inlining both instantiations would
// carry the recording one's stack frame into every wakeup.
template <bool kRecord>
[[gnu::hot, gnu::noinline]] CpuId select_task_rq_impl(SchedState& s, const WakerContext& waker, TaskId p, CpuId prev,
                                                      unsigned int* wake_flags, DecisionRecord* record, WakePath* path)
{
    DecisionRecord* const rec = kRecord ? record : nullptr;
    const Task& t = s.task(p);
    CpuId cpu = kNoCpu;
    WakePath wp = WakePath::NotSelected;
    if (t.nr_cpus_allowed > 1) {
        cpu = select_task_rq_fair_impl<kRecord>(s, waker, p, prev, *wake_flags, rec, &wp);
        *wake_flags |= WF_RQ_SELECTED;
    } else {
        cpu = t.cpus_allowed.first();
        if (rec) {
            begin_record(*rec, s, waker, p, prev, *wake_flags);
            note(rec, kSelectTaskRq, "one allowed cpu", cat("nr_cpus_allowed ", t.nr_cpus_allowed), cpu);
        }
    }
    if (!is_cpu_allowed(s, t, cpu)) {
        const CpuId fallback = select_fallback_rq(s, t, cpu);
        if (rec)
            note(rec, kSelectTaskRq, "select_fallback_rq", cat("cpu ", cpu, " not allowed; fallback ", fallback),
                 fallback);
        cpu = fallback;
    }
    if (rec)
        end_record(*rec, s, rec->target != kNoCpu ? rec->target : cpu, cpu, wp);
    if (path)
        *path = wp;
    return cpu;
}

}  // namespace

[[gnu::hot]] CpuId select_task_rq(SchedState& s, const WakerContext& waker, TaskId p, CpuId prev,
                                  unsigned int* wake_flags, DecisionRecord* rec, WakePath* path)
{
    return rec ? select_task_rq_impl<true>(s, waker, p, prev, wake_flags, rec, path)
               : select_task_rq_impl<false>(s, waker, p, prev, wake_flags, nullptr, path);
}

}  // namespace wb

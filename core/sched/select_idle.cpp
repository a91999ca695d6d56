// SPDX-License-Identifier: Apache-2.0
//
// Idle-CPU searches of the wakeup fast path, after kernel/sched/fair.c of
// the v7.3 merge window ([NEW] in wakeup-path.md §5-7). Deviations from the
// kernel, all without effect on the chosen CPU: no core-scheduling cookies
// (always match), no per-task uclamp (0/1024), actual capacity = original
// capacity (no thermal pressure).
#include "sched/select_idle.h"

#include <climits>
#include <cstdint>

#include "sched/placement_policy.h"
#include "sched/fair_util.h"

namespace wb {

namespace {

constexpr std::string_view kSelectIdleCpu = "select_idle_cpu";
constexpr std::string_view kSelectIdleCore = "select_idle_core";
constexpr std::string_view kSelectIdleSmt = "select_idle_smt";
constexpr std::string_view kSelectIdleCapacity = "select_idle_capacity";

// The shared object (sd->shared) of domain `sd`, if it has one.
SharedDomainState* shared_of(SchedState& s, int sd)
{
    return s.domains->domain(sd).has_shared ? &s.shared[static_cast<std::size_t>(sd)] : nullptr;
}

// SIS_UTIL: how many CPUs the scan may examine, plus one, as the kernel
// counts it (the decrement comes before each CPU); INT_MAX when unbounded.
int scan_budget(SchedState& s, int sd)
{
    if (!s.feats(Feat::SIS_UTIL))
        return INT_MAX;
    const SharedDomainState* shared = shared_of(s, sd);
    return shared ? shared->nr_idle_scan + 1 : INT_MAX;
}

// The first group of the LLC domain seen from target is target's cluster
// when the level below the LLC is a cluster level: the CPUs that share L2
// (or LLC tags) with target are cheaper to land on, so they are scanned
// first. Returns the group's span, or null when there is no such level.
const CpuMask* cluster_group_span(const SchedState& s, int sd_llc, CpuId target)
{
    if (!s.domains->sched_cluster_active())
        return nullptr;
    const std::vector<int>& chain = s.domains->domains_of(target);
    for (std::size_t i = 1; i < chain.size(); ++i) {
        if (chain[i] != sd_llc)
            continue;
        if (!(s.domains->domain(chain[i - 1]).flags & SD_CLUSTER))
            return nullptr;
        const int group = s.domains->group_of(sd_llc, target);
        return group >= 0 ? &s.domains->group(group).span : nullptr;
    }
    return nullptr;
}

// The search is about to return `cpu`: a policy may send it elsewhere.
CpuId policy_return(const SchedState& s, TaskId p, WakeupArgs* wake, IdleSearchReturn where, CpuId cpu, bool idle_core,
                    const CpuMask& cpus, DecisionRecord* rec)
{
    const PlacementPolicy* hooks = placement_hooks(s);
    if (!hooks || cpu == kNoCpu)
        return cpu;
    const CpuId other = hooks->idle_search_return(s, p, where, cpu, idle_core, cpus, rec);
    if (other == kNoCpu)
        return cpu;
    if (wake)
        wake->policy_placed = true;
    return other;
}

}  // namespace

CpuId scan_one(const SchedState& s, TaskId p, CpuId cpu)
{
    return choose_idle_cpu(s, cpu, s.task(p)) ? cpu : kNoCpu;
}

CpuId select_idle_core(const SchedState& s, TaskId p, CpuId core, CpuMask& cpus, CpuId* idle_cpu, DecisionRecord* rec,
                       WakeupArgs* wake)
{
    // A core counts only if every thread is truly idle: a wakee sharing a
    // core with a busy sibling gets a fraction of it. On the way, remember a
    // usable thread in case no whole idle core exists.
    const Task& t = s.task(p);
    bool idle = true;
    for (CpuId cpu : SmtSiblings(s, core)) {
        if (rec)
            rec->scanned.push_back(cpu);
        ++s.cpus_examined;
        if (!available_idle_cpu(s.rq(cpu))) {
            idle = false;
            if (*idle_cpu == kNoCpu) {
                if (choose_sched_idle_rq(s.rq(cpu), t) && cpus.test(cpu)) {
                    *idle_cpu = cpu;
                    break;
                }
                continue;
            }
            break;
        }
        if (*idle_cpu == kNoCpu && cpus.test(cpu))
            *idle_cpu = cpu;
    }
    if (idle) {
        if (rec)
            note(rec, kSelectIdleCore, "idle core", cat("every thread of cpu ", core, "'s core idle"), core);
        return policy_return(s, p, wake, IdleSearchReturn::SelectIdleCore, core, true, cpus, rec);
    }
    const PlacementPolicy* hooks = placement_hooks(s);
    if (hooks && wake) {
        const CpuId cpu = hooks->select_idle_core_busy(s, *wake, core, cpus, rec);
        if (cpu != kNoCpu) {
            wake->policy_placed = true;
            return cpu;
        }
    }
    for (CpuId cpu : SmtSiblings(s, core))
        cpus.reset(cpu);
    return kNoCpu;
}

CpuId select_idle_smt(const SchedState& s, TaskId p, int sd, CpuId prev, DecisionRecord* rec)
{
    // prev's core still holds p's cache footprint in L1/L2: an idle sibling
    // there is as warm as prev itself, and cheaper to find than an LLC scan.
    const Task& t = s.task(p);
    const CpuMask& span = s.domains->domain(sd).span;
    for (CpuId cpu : SmtSiblings(s, prev)) {
        if (cpu == prev || !t.cpus_allowed.test(cpu) || !span.test(cpu))
            continue;
        if (rec)
            rec->scanned.push_back(cpu);
        if (choose_idle_cpu(s, cpu, t)) {
            if (rec)
                note(rec, kSelectIdleSmt, "idle sibling of prev", cat("sibling ", cpu, " of prev ", prev, " idle"),
                     cpu);
            return cpu;
        }
    }
    if (rec)
        note(rec, kSelectIdleSmt, "no idle sibling", cat("no idle SMT sibling of prev ", prev));
    return kNoCpu;
}

CpuId select_idle_cpu(SchedState& s, TaskId p, int sd_llc, bool has_idle_core, CpuId target, DecisionRecord* rec,
                      WakeupArgs* wake)
{
    // SIS_UTIL: the busier the LLC, the fewer CPUs are worth probing; above
    // ~85 % utilisation the scan costs more than the rare idle CPU it finds.
    int nr = scan_budget(s, sd_llc);
    if (nr == 1) {
        if (rec)
            note(rec, kSelectIdleCpu, "no scan budget", "nr_idle_scan 0 (SIS_UTIL): LLC too busy to scan");
        return kNoCpu;
    }
    if (rec && nr != INT_MAX)
        note(rec, kSelectIdleCpu, "scan budget", cat("nr_idle_scan ", nr - 1));

    // Like the kernel's per-CPU select_rq_mask: scratch space reused by every
    // wakeup on this thread, so the scan allocates nothing once warm.
    thread_local CpuMask cpus;
    cpus = s.domains->domain(sd_llc).span;
    cpus &= s.task(p).cpus_allowed;
    if (cpus.empty()) {
        if (rec)
            note(rec, kSelectIdleCpu, "no allowed CPU", "LLC span and p's affinity do not intersect");
        return kNoCpu;
    }

    CpuId idle_cpu = kNoCpu;
    if (const CpuMask* cluster = cluster_group_span(s, sd_llc, target)) {
        WrapCursor it(*cluster, target + 1);
        for (CpuId cpu = it.next(); cpu != kNoCpu; cpu = it.next()) {
            if (!cpus.test(cpu))
                continue;
            if (has_idle_core) {
                const CpuId core = select_idle_core(s, p, cpu, cpus, &idle_cpu, rec, wake);
                if (core != kNoCpu)
                    return core;
            } else {
                if (--nr <= 0) {
                    if (rec)
                        note(rec, kSelectIdleCpu, "budget spent", "scan budget spent in target's cluster");
                    return kNoCpu;
                }
                if (rec)
                    rec->scanned.push_back(cpu);
                if (scan_one(s, p, cpu) != kNoCpu) {
                    if (rec)
                        note(rec, kSelectIdleCpu, "idle cpu in cluster", cat("cpu ", cpu, " idle"), cpu);
                    return policy_return(s, p, wake, IdleSearchReturn::SelectIdleCpu, cpu, false, cpus, rec);
                }
            }
        }
        cpus.and_not(*cluster);
    }

    WrapCursor it(cpus, target + 1);
    for (CpuId cpu = it.next(); cpu != kNoCpu; cpu = it.next()) {
        if (has_idle_core) {
            // A whole idle core is worth an unbounded search: the hint says
            // one exists, and a wakee alone on a core runs at full speed.
            const CpuId core = select_idle_core(s, p, cpu, cpus, &idle_cpu, rec, wake);
            if (core != kNoCpu)
                return core;
        } else {
            if (--nr <= 0) {
                if (rec)
                    note(rec, kSelectIdleCpu, "budget spent", "scan budget spent, no idle cpu found");
                return kNoCpu;
            }
            if (rec)
                rec->scanned.push_back(cpu);
            idle_cpu = scan_one(s, p, cpu);
            if (idle_cpu != kNoCpu)
                break;
        }
    }

    if (has_idle_core) {
        // The hint was stale: nothing in p's view of the LLC is a whole idle
        // core. Clear it so the next wakeups take the cheap bounded scan.
        set_idle_cores(s, target, false);
        if (rec)
            note(rec, kSelectIdleCpu, "no idle core",
                 idle_cpu != kNoCpu ? cat("no whole idle core; hint cleared; first idle thread ", idle_cpu)
                                    : std::string("no whole idle core and no idle thread; hint cleared"),
                 idle_cpu);
        return idle_cpu;
    }
    if (rec) {
        if (idle_cpu != kNoCpu)
            note(rec, kSelectIdleCpu, "idle cpu", cat("cpu ", idle_cpu, " idle"), idle_cpu);
        else
            note(rec, kSelectIdleCpu, "none idle", "no idle cpu in the LLC");
    }
    return policy_return(s, p, wake, IdleSearchReturn::SelectIdleCpu, idle_cpu, false, cpus, rec);
}

int util_fits_cpu(const SchedState& s, unsigned long util, unsigned long uclamp_min, unsigned long uclamp_max,
                  CpuId cpu)
{
    // fits_capacity(): keep ~20 % headroom so that a task growing a bit
    // does not immediately become a misfit.
    const auto capacity = static_cast<unsigned long>(capacity_of(s, cpu));
    bool fits = util * 1280 < capacity * 1024;
    if (!s.uclamp_used)
        return fits ? 1 : 0;

    // A uclamp_max the CPU's original capacity covers makes the task fit
    // whatever its util: it is capped to run slowly anyway. Not on the
    // biggest CPUs without a cap, where there is nowhere bigger to go.
    const auto orig = static_cast<unsigned long>(arch_scale_cpu_capacity(s, cpu));
    const bool uclamp_max_fits = !(orig == 1024 && uclamp_max == 1024) && uclamp_max <= orig;
    fits = fits || uclamp_max_fits;

    uclamp_min = std::min(uclamp_min, uclamp_max);
    if (fits && util < uclamp_min && uclamp_min > static_cast<unsigned long>(get_actual_cpu_capacity(s, cpu)))
        return -1;
    return fits ? 1 : 0;
}

[[gnu::hot]] bool asym_fits_cpu(const SchedState& s, unsigned long util, unsigned long uclamp_min,
                                unsigned long uclamp_max, CpuId cpu)
{
    if (!s.domains->sched_asym_cpucapacity())
        return true;
    // [NEW]: on SMT asym parts, a thread of a busy core does not deliver the
    // capacity it advertises, so it does not count as a fit.
    return (!s.domains->sched_smt_active() || is_core_idle(s, cpu)) &&
           util_fits_cpu(s, util, uclamp_min, uclamp_max, cpu) > 0;
}

bool task_fits_cpu(const SchedState& s, TaskId p, CpuId cpu)
{
    return util_fits_cpu(s, task_util_est(synced_avg(s, p)), 0, 1024, cpu) > 0;
}

CpuId select_idle_capacity(SchedState& s, TaskId p, int sd, CpuId target, DecisionRecord* rec, WakeupArgs* wake)
{
    // Rank of a candidate, lower is better (the kernel's asym_fits_state):
    // an idle-core CPU that fits returns at once; then uclamp-min misfits
    // and plain misfits on idle cores, then a fitting thread of a busy core,
    // then misfits on busy cores. Ties go to the bigger CPU.
    constexpr int kThreadFits = -2;
    constexpr int kCoreBias = -3;
    constexpr int kCompleteMisfit = -3;

    const Task& t = s.task(p);
    const bool has_idle_core = s.domains->sched_smt_active() && test_idle_cores(s, target);
    int best_fits = 0;
    CpuId best_cpu = kNoCpu;
    long best_cap = 0;
    bool best_idle_core = false;

    thread_local CpuMask cpus;
    cpus = s.domains->domain(sd).span;
    cpus &= t.cpus_allowed;
    const unsigned long util = task_util_est(synced_avg(s, p));
    const unsigned long uclamp_min = 0;
    const unsigned long uclamp_max = 1024;

    int nr = scan_budget(s, sd);
    if (nr == 1) {
        if (rec)
            note(rec, kSelectIdleCapacity, "no scan budget", "nr_idle_scan 0 (SIS_UTIL)");
        return kNoCpu;
    }
    if (rec)
        note(rec, kSelectIdleCapacity, has_idle_core ? "idle-core mode" : "thread mode",
             cat("task_util_est ", util, nr != INT_MAX && !has_idle_core ? cat(", nr_idle_scan ", nr - 1) : ""));

    WrapCursor it(cpus, target);
    for (CpuId cpu = it.next(); cpu != kNoCpu; cpu = it.next()) {
        const bool preferred_core = !has_idle_core || is_core_idle(s, cpu);
        long cap = capacity_of(s, cpu);
        if (!has_idle_core && --nr <= 0) {
            if (rec)
                note(rec, kSelectIdleCapacity, "budget spent", cat("best so far ", best_cpu), best_cpu);
            return policy_return(s, p, wake, IdleSearchReturn::CapacityBest, best_cpu, best_idle_core, cpus, rec);
        }
        if (rec)
            rec->scanned.push_back(cpu);
        if (!choose_idle_cpu(s, cpu, t))
            continue;

        int fits = util_fits_cpu(s, util, uclamp_min, uclamp_max, cpu);
        if (fits > 0 && preferred_core) {
            if (rec)
                note(rec, kSelectIdleCapacity, "fits",
                     cat("util ", util, " fits capacity ", cap, " of idle cpu ", cpu,
                         has_idle_core ? " on an idle core" : ""),
                     cpu);
            return policy_return(s, p, wake, IdleSearchReturn::SelectIdleCapacity, cpu, has_idle_core && preferred_core,
                                 cpus, rec);
        }
        if (fits < 0)
            cap = get_actual_cpu_capacity(s, cpu);
        else if (fits > 0)
            fits = kThreadFits;
        if (preferred_core)
            fits += kCoreBias;
        if (fits < best_fits || (fits == best_fits && cap > best_cap)) {
            best_cap = cap;
            best_cpu = cpu;
            best_fits = fits;
            best_idle_core = has_idle_core && preferred_core;
        }
    }

    if (has_idle_core && best_fits > kCompleteMisfit) {
        // No candidate sat on an idle core: the hint was stale.
        set_idle_cores(s, target, false);
    }
    if (rec)
        note(rec, kSelectIdleCapacity, best_cpu != kNoCpu ? "best misfit" : "none idle",
             best_cpu != kNoCpu ? cat("cpu ", best_cpu, " rank ", best_fits, " capacity ", best_cap)
                                : std::string("no idle cpu in the asym domain"),
             best_cpu);
    return policy_return(s, p, wake, IdleSearchReturn::CapacityBest, best_cpu, best_idle_core, cpus, rec);
}

bool test_idle_cores(const SchedState& s, CpuId cpu)
{
    const int id = s.domains->shortcuts(cpu).sd_balance_shared;
    return id >= 0 && s.shared[static_cast<std::size_t>(id)].has_idle_cores;
}

void set_idle_cores(SchedState& s, CpuId cpu, bool has_idle_cores)
{
    const int id = s.domains->shortcuts(cpu).sd_balance_shared;
    if (id >= 0)
        s.shared[static_cast<std::size_t>(id)].has_idle_cores = has_idle_cores;
}

[[gnu::hot]] void update_idle_core_smt(SchedState& s, CpuId cpu)
{
    // Only a CPU entering idle can complete an idle core, so this is the one
    // place the hint is set; it is never derived from the current state.
    if (test_idle_cores(s, cpu))
        return;
    for (CpuId sibling : SmtSiblings(s, cpu))
        if (sibling != cpu && !available_idle_cpu(s.rq(sibling)))
            return;
    set_idle_cores(s, cpu, true);
}

void update_idle_cpu_scan(SchedState& s, int domain_id, unsigned long sum_util)
{
    if (!s.feats(Feat::SIS_UTIL))
        return;
    SharedDomainState* shared = shared_of(s, domain_id);
    if (!shared)
        return;
    // Scan the fraction 1 - (x * pct / 100)^2 of the domain, x the average
    // utilisation per CPU: it reaches 0 when x reaches 100/pct (85 % for
    // 117), the utilisation at which the load balancer calls the LLC
    // overloaded and an idle CPU is unlikely to be found.
    const SchedDomain& d = s.domains->domain(domain_id);
    const auto weight = static_cast<std::uint64_t>(d.span_weight);
    const auto pct = static_cast<std::uint64_t>(d.imbalance_pct);
    const std::uint64_t x = sum_util / weight;
    std::uint64_t t = x * x * pct * pct / (10000 * 1024);
    t = std::min<std::uint64_t>(t, 1024);
    const std::uint64_t y = (1024 - t) * weight / 1024;
    shared->nr_idle_scan = static_cast<int>(y);
}

}  // namespace wb

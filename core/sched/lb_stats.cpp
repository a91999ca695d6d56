// SPDX-License-Identifier: Apache-2.0
//
// The statistics half of one balance attempt (kernel/sched/fair.c of the v7.3
// merge window, update_sd_lb_stats() to sched_balance_find_src_rq()): each
// group's load, utilisation and type, the busiest group, whether the domain
// is imbalanced enough to act, by how much, and the busiest runqueue.
//
// The group types order the pull priority (slow_path.h): a group is the
// busiest if its type is higher; within a type the rules of
// update_sd_pick_busiest() break the tie. The decision matrix of
// sched_balance_find_src_group():
//
//   busiest \ local  has_spare fully_busy misfit asym imbalanced overloaded
//   has_spare        nr_idle   balanced   N/A    N/A  balanced   balanced
//   fully_busy       nr_idle   nr_idle    N/A    N/A  balanced   balanced
//   misfit_task      force     N/A        N/A    N/A  N/A        N/A
//   asym_packing     force     force      N/A    N/A  force      force
//   imbalanced       force     force      N/A    N/A  force      force
//   overloaded       force     force      N/A    N/A  force      avg_load
//
// Not modelled: the cache-aware balance of CONFIG_SCHED_CACHE (llc_balance
// groups; the option is off by default), NUMA balancing's fbq classes (off:
// every runqueue is "regular"), group capacity refresh (capacities never
// change without RT, IRQ or thermal pressure).
#include <algorithm>
#include <climits>

#include "sched/lb_util.h"
#include "sched/select_idle.h"

namespace wb {

namespace {

constexpr int kNumaImbalanceMin = 2;

bool group_has_capacity(unsigned pct, const SgLbStats& sgs)
{
    if (sgs.sum_nr_running < sgs.group_weight)
        return true;
    if (sgs.group_capacity * pct < sgs.group_runnable * 100)
        return false;
    return sgs.group_capacity * 100 > sgs.group_util * pct;
}

// More tasks than CPUs, and either the utilisation or the time spent
// runnable says they do not get the CPU they want.
bool group_is_overloaded(unsigned pct, const SgLbStats& sgs)
{
    if (sgs.sum_nr_running <= sgs.group_weight)
        return false;
    if (sgs.group_capacity * 100 < sgs.group_util * pct)
        return true;
    return sgs.group_capacity * pct < sgs.group_runnable * 100;
}

// A runqueue with one task on a CPU whose capacity others took: the task
// may do better elsewhere (never here, capacity_of() being constant).
bool sched_reduced_capacity(const SchedState& s, CpuId cpu, const SchedDomain& sd)
{
    if (s.rq(cpu).cfs.h_nr_runnable != 1)
        return false;
    return check_cpu_capacity(s, cpu, sd);
}

// An SMT core running more than one task, seen by an idle CPU: moving one
// away gives both the whole core's throughput.
bool smt_balance(const LbEnv& env, const SgLbStats& sgs, const GroupLbInfo& gi)
{
    if (env.idle == CpuIdleType::NotIdle)
        return false;
    return (gi.flags & SD_SHARE_CPUCAPACITY) && sgs.sum_h_nr_running > 1;
}

// CPU priorities mean nothing for an SMT core with more than one busy thread.
bool sched_group_asym(const SchedState& s, const LbEnv& env, const SgLbStats& sgs, const GroupLbInfo& gi)
{
    if ((gi.flags & SD_SHARE_CPUCAPACITY) && sgs.group_weight - sgs.idle_cpus != 1)
        return false;
    return sched_asym(s, env.sd, env.dst_cpu, gi.asym_prefer_cpu);
}

bool smt_vs_nonsmt_groups(const GroupLbInfo* a, const GroupLbInfo* b)
{
    if (!a || !b)
        return false;
    return (a->flags & SD_SHARE_CPUCAPACITY) != (b->flags & SD_SHARE_CPUCAPACITY);
}

bool update_sd_pick_busiest(const SchedState& s, const LoadBalanceState& lb, const LbEnv& env, const SdLbStats& sds,
                            int gi, const SgLbStats& sgs)
{
    const SchedDomain& sd = s.domains->domain(env.sd);
    const SchedGroup& sg = group_at(s, env.sd, gi);
    const GroupLbInfo& info = group_info(lb, env.sd, gi);
    const GroupLbInfo* busiest_info = sds.busiest >= 0 ? &group_info(lb, env.sd, sds.busiest) : nullptr;
    const SgLbStats& busiest = sds.busiest_stat;
    const auto dst_capacity = static_cast<unsigned long>(capacity_of(s, env.dst_cpu));

    if (!sgs.sum_h_nr_running)
        return false;

    // A misfit is only worth pulling onto a CPU that is bigger and has room.
    if ((sd.flags & SD_ASYM_CPUCAPACITY) && sgs.group_type == GroupType::MisfitTask &&
        (!capacity_greater(dst_capacity, static_cast<unsigned long>(sg.max_capacity)) ||
         sds.local_stat.group_type != GroupType::HasSpare))
        return false;

    if (sgs.group_type > busiest.group_type)
        return true;
    if (sgs.group_type < busiest.group_type)
        return false;

    bool has_spare = false;
    switch (sgs.group_type) {
    case GroupType::Overloaded:
        if (sgs.avg_load <= busiest.avg_load)
            return false;
        break;
    case GroupType::Imbalanced:
        // No way to prefer one: the first one stays.
        return false;
    case GroupType::AsymPacking:
        // Move work off the lowest-priority CPU first.
        return sched_asym_prefer(s, env.sd, busiest_info->asym_prefer_cpu, info.asym_prefer_cpu);
    case GroupType::MisfitTask:
        if (sgs.group_misfit_task_load < busiest.group_misfit_task_load)
            return false;
        break;
    case GroupType::SmtBalance:
        if (sgs.idle_cpus != 0 || busiest.idle_cpus != 0) {
            has_spare = true;
            break;
        }
        [[fallthrough]];
    case GroupType::FullyBusy:
        // avg_load is not computed for fully busy groups (always 0), so the
        // first stays, unless it is a core of SMT siblings, which needs help
        // more than a group of single-thread cores.
        if (sgs.avg_load < busiest.avg_load)
            return false;
        if (sgs.avg_load == busiest.avg_load && busiest_info && (busiest_info->flags & SD_SHARE_CPUCAPACITY))
            return false;
        break;
    case GroupType::HasSpare:
        // Do not empty an SMT core running a single task for a group of
        // single-thread cores: the core would only go idle.
        if (smt_vs_nonsmt_groups(busiest_info, &info))
            return !((info.flags & SD_SHARE_CPUCAPACITY) && sgs.sum_h_nr_running <= 1);
        has_spare = true;
        break;
    case GroupType::LlcBalance:
        break;
    }
    if (has_spare) {
        // The fewest idle CPUs, then the most running tasks.
        if (sgs.idle_cpus > busiest.idle_cpus)
            return false;
        if (sgs.idle_cpus == busiest.idle_cpus && sgs.sum_nr_running <= busiest.sum_nr_running)
            return false;
    }

    // A group with no more than a task per CPU on bigger CPUs than dst:
    // pulling would lose throughput.
    if ((sd.flags & SD_ASYM_CPUCAPACITY) && sgs.group_type <= GroupType::FullyBusy &&
        capacity_greater(static_cast<unsigned long>(sg.min_capacity), dst_capacity))
        return false;
    return true;
}

// sibling_imbalance(): the number of tasks (x2 when the groups' core counts
// differ, rounded) that evens nr_running per core across the two groups.
long sibling_imbalance(const LoadBalanceState& lb, const LbEnv& env, const SdLbStats& sds)
{
    const SgLbStats& busiest = sds.busiest_stat;
    const SgLbStats& local = sds.local_stat;
    if (env.idle == CpuIdleType::NotIdle || !busiest.sum_nr_running)
        return 0;
    const long ncores_busiest = group_info(lb, env.sd, sds.busiest).cores;
    const long ncores_local = group_info(lb, env.sd, sds.local).cores;
    if (ncores_busiest == ncores_local) {
        const long diff = static_cast<long>(busiest.sum_nr_running) - static_cast<long>(local.sum_nr_running);
        return std::max(0L, diff);
    }
    long imbalance = std::max(0L, ncores_local * static_cast<long>(busiest.sum_nr_running) -
                                      ncores_busiest * static_cast<long>(local.sum_nr_running));
    imbalance = (2 * imbalance + ncores_local + ncores_busiest) / (ncores_local + ncores_busiest);
    // An empty group can take a task from a group running two or more.
    if (imbalance <= 1 && local.sum_nr_running == 0 && busiest.sum_nr_running > 1)
        imbalance = 2;
    return imbalance;
}

// adjust_numa_imbalance(): a lightly loaded destination node keeps a pair
// of communicating tasks local rather than spreading them.
long adjust_numa_imbalance(long imbalance, long dst_running, long imb_numa_nr)
{
    if (dst_running > imb_numa_nr)
        return imbalance;
    if (imbalance <= kNumaImbalanceMin)
        return 0;
    return imbalance;
}

}  // namespace

GroupType group_classify(unsigned imbalance_pct, bool sg_imbalanced, const SgLbStats& sgs)
{
    if (group_is_overloaded(imbalance_pct, sgs))
        return GroupType::Overloaded;
    if (sg_imbalanced)
        return GroupType::Imbalanced;
    if (sgs.group_asym_packing)
        return GroupType::AsymPacking;
    if (sgs.group_smt_balance)
        return GroupType::SmtBalance;
    if (sgs.group_misfit_task_load)
        return GroupType::MisfitTask;
    if (!group_has_capacity(imbalance_pct, sgs))
        return GroupType::FullyBusy;
    return GroupType::HasSpare;
}

void update_sg_lb_stats(const SchedState& s, const LoadBalanceState& lb, const LbEnv& env, const SdLbStats& sds, int gi,
                        SgLbStats& sgs, bool* sg_overloaded)
{
    const SchedDomain& sd = s.domains->domain(env.sd);
    const SchedGroup& sg = group_at(s, env.sd, gi);
    const GroupLbInfo& info = group_info(lb, env.sd, gi);
    const bool local_group = gi == sds.local;
    sgs = SgLbStats{};

    sg.span.for_each_and(env.cpus, [&](CpuId i) {
        const Rq& rq = s.rq(i);
        const unsigned long load = cpu_load(s, i);
        sgs.group_load += load;
        sgs.group_util += cpu_util_cfs(s, i);
        sgs.group_runnable += cpu_runnable(s, i);
        sgs.sum_h_nr_running += rq.cfs.h_nr_runnable;
        const unsigned nr_running = rq.nr_running;
        sgs.sum_nr_running += nr_running;
        if (nr_running > 1)
            *sg_overloaded = true;
        if (!nr_running && idle_cpu(rq)) {
            ++sgs.idle_cpus;
            return;  // an idle CPU has no misfit
        }
        if (local_group)
            return;
        if (sd.flags & SD_ASYM_CPUCAPACITY) {
            const unsigned long misfit = lb.cpu(i).misfit_task_load;
            if (sgs.group_misfit_task_load < misfit) {
                sgs.group_misfit_task_load = misfit;
                *sg_overloaded = true;
            }
        } else if (env.idle != CpuIdleType::NotIdle && sched_reduced_capacity(s, i, sd)) {
            sgs.group_misfit_task_load = std::max(sgs.group_misfit_task_load, load);
        }
    });

    sgs.group_capacity = static_cast<unsigned long>(sg.capacity);
    sgs.group_weight = info.weight;

    if (!local_group && smt_balance(env, sgs, info))
        sgs.group_smt_balance = true;
    // dst idle and of higher priority than the group: pack onto it.
    if (!local_group && (sd.flags & SD_ASYM_PACKING) && env.idle != CpuIdleType::NotIdle && sgs.sum_h_nr_running &&
        sched_group_asym(s, env, sgs, info))
        sgs.group_asym_packing = true;

    sgs.group_type = group_classify(static_cast<unsigned>(sd.imbalance_pct), info.imbalance, sgs);
    // avg_load only means something once the group is overloaded.
    if (sgs.group_type == GroupType::Overloaded)
        sgs.avg_load = sgs.group_load * 1024 / sgs.group_capacity;
}

void update_sd_lb_stats(SchedState& s, LoadBalanceState& lb, LbEnv& env, SdLbStats& sds)
{
    const SchedDomain& sd = s.domains->domain(env.sd);
    const int n = static_cast<int>(sd.groups.size());
    // The kernel's list starts at the balancing CPU's own group.
    const int start = lb.cpu(env.balance_cpu).local_group[static_cast<std::size_t>(env.sd_pos)];
    bool sg_overloaded = false;
    unsigned long sum_util = 0;
    sds = SdLbStats{};
    sds.busiest_stat.idle_cpus = UINT_MAX;

    SgLbStats tmp;
    for (int k = 0, gi = start; k < n; ++k, gi = gi + 1 < n ? gi + 1 : 0) {
        const bool local_group = group_at(s, env.sd, gi).span.test(env.dst_cpu);
        if (local_group)
            sds.local = gi;
        SgLbStats& sgs = local_group ? sds.local_stat : tmp;
        update_sg_lb_stats(s, lb, env, sds, gi, sgs, &sg_overloaded);
        if (!local_group && update_sd_pick_busiest(s, lb, env, sds, gi, sgs)) {
            sds.busiest = gi;
            sds.busiest_stat = sgs;
        }
        sds.total_load += sgs.group_load;
        sds.total_capacity += sgs.group_capacity;
        sum_util += sgs.group_util;
    }
    env.cost += lb.cost_per_cpu * env.cpus.weight();

    // A group's flags are its child domain's: spread to the busiest group's
    // siblings first if that child prefers it.
    if (sds.busiest >= 0)
        sds.prefer_sibling = (group_info(lb, env.sd, sds.busiest).flags & SD_PREFER_SIBLING) != 0;

    // The root level sees every CPU: it may clear the overloaded flag that
    // enqueues set.
    if (env.sd_pos + 1 == static_cast<int>(s.domains->domains_of(env.balance_cpu).size()))
        lb.overloaded = sg_overloaded;

    if (env.idle != CpuIdleType::NewlyIdle)
        update_idle_cpu_scan(s, env.sd, sum_util);
}

void calculate_imbalance(const SchedState& s, const LoadBalanceState& lb, LbEnv& env, SdLbStats& sds)
{
    const SchedDomain& sd = s.domains->domain(env.sd);
    SgLbStats& local = sds.local_stat;
    const SgLbStats& busiest = sds.busiest_stat;

    switch (busiest.group_type) {
    case GroupType::MisfitTask:
        if (sd.flags & SD_ASYM_CPUCAPACITY) {
            env.migration_type = MigrationType::Misfit;
            env.imbalance = 1;
        } else {
            // A CPU of reduced capacity: move its task's load.
            env.migration_type = MigrationType::Load;
            env.imbalance = static_cast<long>(busiest.group_misfit_task_load);
        }
        return;
    case GroupType::AsymPacking:
        env.migration_type = MigrationType::Task;
        env.imbalance = busiest.sum_h_nr_running;
        return;
    case GroupType::SmtBalance:
    case GroupType::Imbalanced:
        // Reduce the tasks sharing a core, or move any task past the
        // affinity that kept a lower level unbalanced; the next balance
        // evens the rest.
        env.migration_type = MigrationType::Task;
        env.imbalance = 1;
        return;
    default:
        break;
    }

    if (local.group_type == GroupType::HasSpare) {
        if (busiest.group_type > GroupType::FullyBusy && !(sd.flags & SD_SHARE_LLC)) {
            // Fill local's spare capacity from an overloaded group; nothing
            // simpler says how much load to move across caches.
            env.migration_type = MigrationType::Util;
            env.imbalance = static_cast<long>(std::max(local.group_capacity, local.group_util) - local.group_util);
            if (env.idle != CpuIdleType::NotIdle && env.imbalance == 0) {
                env.migration_type = MigrationType::Task;
                env.imbalance = 1;
            }
            return;
        }
        env.migration_type = MigrationType::Task;
        if (busiest.group_weight == 1 || sds.prefer_sibling)
            env.imbalance = sibling_imbalance(lb, env, sds);
        else
            env.imbalance = std::max(0L, static_cast<long>(local.idle_cpus) - static_cast<long>(busiest.idle_cpus));
        if (sd.flags & SD_NUMA)
            env.imbalance =
                adjust_numa_imbalance(env.imbalance, static_cast<long>(local.sum_nr_running) + 1, sd.imb_numa_nr);
        env.imbalance >>= 1;  // tasks to move to meet halfway
        return;
    }

    if (local.group_type < GroupType::Overloaded) {
        // Local will become overloaded: now avg_load matters.
        local.avg_load = local.group_load * 1024 / local.group_capacity;
        if (local.avg_load >= busiest.avg_load) {
            env.imbalance = 0;
            return;
        }
        sds.avg_load = sds.total_load * 1024 / sds.total_capacity;
        if (local.avg_load >= sds.avg_load) {
            env.imbalance = 0;
            return;
        }
    }
    // Both overloaded: bring them towards the domain average, neither side
    // crossing it.
    env.migration_type = MigrationType::Load;
    env.imbalance = static_cast<long>(std::min((busiest.avg_load - sds.avg_load) * busiest.group_capacity,
                                               (sds.avg_load - local.avg_load) * local.group_capacity) /
                                      1024);
}

int sched_balance_find_src_group(SchedState& s, LoadBalanceState& lb, LbEnv& env)
{
    const SchedDomain& sd = s.domains->domain(env.sd);
    SdLbStats sds;
    update_sd_lb_stats(s, lb, env, sds);

    auto balanced = [&env] {
        env.imbalance = 0;
        return -1;
    };
    auto force = [&] {
        calculate_imbalance(s, lb, env, sds);
        return env.imbalance ? sds.busiest : -1;
    };

    if (sds.busiest < 0)
        return balanced();
    const SgLbStats& busiest = sds.busiest_stat;
    // A misfit is moved whatever the loads say. (With EAS and a root domain
    // not over-utilised the kernel would stop after this; there is no
    // Energy Model here, so it never does.)
    if (busiest.group_type == GroupType::MisfitTask || busiest.group_type == GroupType::AsymPacking ||
        busiest.group_type == GroupType::Imbalanced)
        return force();

    SgLbStats& local = sds.local_stat;
    if (local.group_type > busiest.group_type)
        return balanced();

    if (local.group_type == GroupType::Overloaded) {
        if (local.avg_load >= busiest.avg_load)
            return balanced();
        sds.avg_load = sds.total_load * 1024 / sds.total_capacity;
        if (local.avg_load >= sds.avg_load)
            return balanced();
        // Both overloaded: only a clear difference is worth the move.
        if (100 * busiest.avg_load <= static_cast<unsigned long>(sd.imbalance_pct) * local.avg_load)
            return balanced();
    }

    // Move all excess tasks to the busiest group's siblings.
    if (sds.prefer_sibling && local.group_type == GroupType::HasSpare && sibling_imbalance(lb, env, sds) > 1)
        return force();

    if (busiest.group_type != GroupType::Overloaded) {
        // Nobody waits for a CPU: a busy CPU leaves it to an idle one.
        if (env.idle == CpuIdleType::NotIdle)
            return balanced();
        // A single-thread core may pull from an SMT core whose threads share it.
        if (busiest.group_type == GroupType::SmtBalance &&
            smt_vs_nonsmt_groups(&group_info(lb, env.sd, sds.local), &group_info(lb, env.sd, sds.busiest)))
            return force();
        // A difference of one idle CPU would only move the imbalance.
        if (busiest.group_weight > 1 && local.idle_cpus <= busiest.idle_cpus + 1)
            return balanced();
        if (busiest.sum_h_nr_running == 1)
            return balanced();
    }
    return force();
}

CpuId sched_balance_find_src_rq(const SchedState& s, const LoadBalanceState& lb, const LbEnv& env, int gi)
{
    const SchedDomain& sd = s.domains->domain(env.sd);
    const auto dst_capacity = static_cast<unsigned long>(capacity_of(s, env.dst_cpu));
    CpuId busiest = kNoCpu;
    unsigned long busiest_util = 0, busiest_load = 0, busiest_capacity = 1;
    unsigned busiest_nr = 0;

    group_at(s, env.sd, gi).span.for_each_and(env.cpus, [&](CpuId i) {
        const unsigned nr_running = s.rq(i).cfs.h_nr_runnable;
        if (!nr_running)
            return;
        const auto capacity = static_cast<unsigned long>(capacity_of(s, i));
        // On asym capacity, do not pick a lone task the destination is no
        // bigger for: it would end in an active balance from big to little.
        if ((sd.flags & SD_ASYM_CPUCAPACITY) && !capacity_greater(dst_capacity, capacity) && nr_running == 1)
            return;
        // Pull a lone task only from a CPU of lower priority.
        if (sched_asym(s, env.sd, i, env.dst_cpu) && nr_running == 1)
            return;

        switch (env.migration_type) {
        case MigrationType::Load: {
            // Compare load per capacity, so load leaves a CPU running at lower
            // capacity first; a lone task bigger than the imbalance stays.
            const unsigned long load = cpu_load(s, i);
            if (nr_running == 1 && load > static_cast<unsigned long>(env.imbalance) && !check_cpu_capacity(s, i, sd))
                break;
            if (load * busiest_capacity > busiest_load * capacity) {
                busiest_load = load;
                busiest_capacity = capacity;
                busiest = i;
            }
            break;
        }
        case MigrationType::Util: {
            const unsigned long util = cpu_util_cfs_boost(s, i);
            // A single task cannot be detached anyway.
            if (nr_running <= 1)
                break;
            if (busiest_util < util) {
                busiest_util = util;
                busiest = i;
            }
            break;
        }
        case MigrationType::Task:
            if (busiest_nr < nr_running) {
                busiest_nr = nr_running;
                busiest = i;
            }
            break;
        case MigrationType::Misfit:
            if (lb.cpu(i).misfit_task_load > busiest_load) {
                busiest_load = lb.cpu(i).misfit_task_load;
                busiest = i;
            }
            break;
        }
    });
    return busiest;
}

}  // namespace wb

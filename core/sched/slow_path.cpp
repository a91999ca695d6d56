// SPDX-License-Identifier: Apache-2.0
//
// The placement slow path, after kernel/sched/fair.c of the v7.3 merge
// window ([NEW] in wakeup-path.md §8). Deviations, none of which changes a
// decision in the states we model:
//  - group capacity is summed from capacity_of() at the time of the call,
//    as if update_group_capacity() had just run;
//  - the group "imbalanced" flag (sgc->imbalance, set by the load balancer
//    after affinity-blocked migrations) is not modelled and reads false;
//  - NUMA balancing is off: no preferred-node rule in the has_spare case;
//  - no core-scheduling cookies.
#include "sched/slow_path.h"

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <limits>

#include "sched/fair_util.h"
#include "sched/select_idle.h"

namespace wb {

namespace {

constexpr std::string_view kFindDstCpu = "sched_balance_find_dst_cpu";
constexpr std::string_view kFindDstGroup = "sched_balance_find_dst_group";
constexpr std::string_view kFindDstGroupCpu = "sched_balance_find_dst_group_cpu";
// NUMA_IMBALANCE_MIN (kernel/sched/fair.c): a node may keep up to this many
// idle CPUs fewer than its neighbour and still take a forked task.
constexpr int kNumaImbalanceMin = 2;

// sd->child as seen from cpu's chain: the domain just below sd.
int child_of(const SchedState& s, CpuId cpu, int sd)
{
    const std::vector<int>& chain = s.domains->domains_of(cpu);
    for (std::size_t i = 0; i < chain.size(); ++i)
        if (chain[i] == sd)
            return i > 0 ? chain[i - 1] : -1;
    return -1;
}

unsigned long sub_floor(unsigned long value, unsigned long minus)
{
    return value - std::min(value, minus);
}

// idle_cpu_without(): the CPU would be idle if p were not on it.
bool idle_cpu_without(const Rq& rq, TaskId p)
{
    return (rq.curr == kNoTask || rq.curr == p) && rq.ttwu_pending == 0;
}

// group_classify() for the wakeup statistics: asym packing and SMT balance
// are never set on this path, and the imbalanced flag is not modelled.
GroupType group_classify(unsigned imbalance_pct, const WakeupGroupStats& st, bool eas_not_overutilized)
{
    const std::uint64_t pct = imbalance_pct;
    const std::uint64_t cap = st.group_capacity;
    const std::uint64_t util = st.group_util;
    const std::uint64_t runnable = st.group_runnable;
    // [NEW]: with EAS on and the group not over-utilised, queued tasks are
    // an energy choice, not an overload.
    if (st.sum_nr_running > st.group_weight && !eas_not_overutilized &&
        (cap * 100 < util * pct || cap * pct < runnable * 100))
        return GroupType::Overloaded;
    if (st.misfit)
        return GroupType::MisfitTask;
    const bool has_capacity =
        st.sum_nr_running < st.group_weight || (!(cap * pct < runnable * 100) && cap * 100 > util * pct);
    if (!has_capacity)
        return GroupType::FullyBusy;
    return GroupType::HasSpare;
}

// update_pick_idlest(): whether group g (stats sg) is idler than the idlest
// so far (stats si).
bool update_pick_idlest(const WakeupGroupStats& si, const WakeupGroupStats& sg)
{
    if (sg.group_type < si.group_type)
        return true;
    if (sg.group_type > si.group_type)
        return false;
    switch (sg.group_type) {
    case GroupType::Overloaded:
    case GroupType::FullyBusy:
        return sg.avg_load < si.avg_load;
    case GroupType::MisfitTask:
        return sg.max_capacity > si.max_capacity;
    case GroupType::HasSpare:
        if (si.idle_cpus > sg.idle_cpus)
            return false;
        if (si.idle_cpus == sg.idle_cpus && si.group_util <= sg.group_util)
            return false;
        return true;
    default:
        return false;  // the types only the load balancer uses
    }
}

std::string stats_text(const SchedState& s, int group, const WakeupGroupStats& st)
{
    std::string out = cat(s.domains->group(group).span.to_cpulist(), " ", group_type_name(st.group_type), " idle ",
                          st.idle_cpus, " nr ", st.sum_nr_running, " util ", st.group_util);
    if (st.group_type == GroupType::FullyBusy || st.group_type == GroupType::Overloaded)
        out += cat(" avg_load ", st.avg_load);
    return out;
}

}  // namespace

WakeupGroupStats update_sg_wakeup_stats(const SchedState& s, int sd, int group, TaskId p, const SchedAvg& p_avg)
{
    const SchedDomain& d = s.domains->domain(sd);
    const SchedGroup& g = s.domains->group(group);
    const Task& t = s.task(p);
    const bool has_history = p_avg.last_update_time != 0;
    const unsigned long p_util = task_util_est(p_avg);
    const bool asym = (d.flags & SD_ASYM_CPUCAPACITY) != 0;

    WakeupGroupStats st;
    // Asym: assume p fits nowhere in the group until a CPU proves otherwise.
    st.misfit = asym;
    bool overutilized = false;
    g.span.for_each_fixed([&](CpuId i) {
        const Rq& rq = s.rq(i);
        // p is accounted on its own CPU until it moves: remove it there, so
        // the comparison is of where p would go, not where it was.
        const bool accounted = t.cpu == i && has_history;
        st.group_load += accounted ? sub_floor(rq.cfs.avg.load_avg, p_avg.load_avg) : rq.cfs.avg.load_avg;
        st.group_util += cpu_util(s, i, accounted ? TaskSignals{&t, &p_avg} : TaskSignals{}, kNoCpu, false);
        st.group_runnable +=
            accounted ? sub_floor(rq.cfs.avg.runnable_avg, p_avg.runnable_avg) : rq.cfs.avg.runnable_avg;
        const unsigned int local = accounted && t.se.on_rq ? 1 : 0;
        const unsigned int nr_running = rq.nr_running - std::min(rq.nr_running, local);
        st.sum_nr_running += nr_running;
        if (nr_running == 0 && idle_cpu_without(rq, p))
            ++st.idle_cpus;
        if (st.misfit && util_fits_cpu(s, p_util, 0, 1024, i) > 0)
            st.misfit = false;
        const auto capacity = static_cast<unsigned long>(rq.cpu_capacity);
        st.group_capacity += capacity;
        st.max_capacity = std::max(st.max_capacity, capacity);
        ++st.group_weight;
        // cpu_overutilized() [NEW]: only EAS looks at it.
        if (s.eas_enabled && !overutilized && util_fits_cpu(s, cpu_util_cfs(s, i), 0, 1024, i) == 0)
            overutilized = true;
    });
    st.group_type = group_classify(static_cast<unsigned>(d.imbalance_pct), st, s.eas_enabled && !overutilized);
    if (st.group_type == GroupType::FullyBusy || st.group_type == GroupType::Overloaded)
        st.avg_load = st.group_capacity ? st.group_load * 1024 / st.group_capacity : 0;
    return st;
}

int sched_balance_find_dst_group(const SchedState& s, int sd, TaskId p, const SchedAvg& p_avg, CpuId this_cpu,
                                 DecisionRecord* rec)
{
    const SchedDomain& d = s.domains->domain(sd);
    const Task& t = s.task(p);
    const std::size_t n = d.groups.size();
    // The kernel's group list of this_cpu's domain starts at its own group.
    std::size_t start = 0;
    for (std::size_t k = 0; k < n; ++k)
        if (s.domains->group(d.groups[k]).span.test(this_cpu))
            start = k;

    int idlest = -1;
    int local = -1;
    WakeupGroupStats idlest_st;
    idlest_st.group_type = GroupType::Overloaded;
    idlest_st.avg_load = UINT_MAX;
    WakeupGroupStats local_st;
    for (std::size_t k = 0; k < n; ++k) {
        const int g = d.groups[(start + k) % n];
        const CpuMask& span = s.domains->group(g).span;
        if (!span.intersects(t.cpus_allowed))
            continue;
        const WakeupGroupStats st = update_sg_wakeup_stats(s, sd, g, p, p_avg);
        if (span.test(this_cpu)) {
            local = g;
            local_st = st;
        } else if (update_pick_idlest(idlest_st, st)) {
            idlest = g;
            idlest_st = st;
        }
    }

    auto verdict = [&](int chosen, std::string_view branch) {
        if (rec) {
            std::string detail = local >= 0 ? cat("local ", stats_text(s, local, local_st)) : "no local group";
            detail += idlest >= 0 ? cat("; idlest ", stats_text(s, idlest, idlest_st)) : "; no other group";
            note(rec, kFindDstGroup, branch, cat(d.name, ": ", detail));
        }
        return chosen;
    };

    if (idlest < 0)
        return verdict(-1, "no idlest group");
    if (local < 0)
        return verdict(idlest, "local group not allowed");
    if (local_st.group_type < idlest_st.group_type)
        return verdict(-1, "local less busy");
    if (local_st.group_type > idlest_st.group_type)
        return verdict(idlest, "idlest less busy");

    switch (local_st.group_type) {
    case GroupType::Overloaded:
    case GroupType::FullyBusy: {
        // Moving costs cache warmth: only go if the idlest group is lighter
        // by more than the domain's imbalance margin (1024 x 17 / 100 = 174 for 117 %).
        const unsigned long imbalance = 1024UL * static_cast<unsigned long>(d.imbalance_pct - 100) / 100;
        // Across NUMA nodes, add the margin to the remote side too: a
        // lightly loaded local node should keep its tasks.
        if ((d.flags & SD_NUMA) && idlest_st.avg_load + imbalance >= local_st.avg_load)
            return verdict(-1, "numa: local within margin");
        if (idlest_st.avg_load >= local_st.avg_load + imbalance)
            return verdict(-1, "local within margin");
        if (100 * local_st.avg_load <= static_cast<unsigned long>(d.imbalance_pct) * idlest_st.avg_load)
            return verdict(-1, "local within imbalance_pct");
        return verdict(idlest, "idlest lighter");
    }
    case GroupType::MisfitTask:
        if (local_st.max_capacity >= idlest_st.max_capacity)
            return verdict(-1, "local as big");
        return verdict(idlest, "idlest bigger");
    case GroupType::HasSpare:
        if (d.flags & SD_NUMA) {
            // Keep p near its waker while the local node, p included, stays
            // within the allowed NUMA imbalance (adjust_numa_imbalance():
            // allowed unless dst_running > imb_numa_nr, so the limit
            // itself counts) and the idle counts differ by at most
            // NUMA_IMBALANCE_MIN; the load balancer spreads later if it
            // must. The kernel caps the allowance by p's CPUs in the local
            // group whenever nr_cpus_allowed != NR_CPUS, which is always.
            // (With dst_running over the limit and equal idle counts the
            // kernel also returns "none" here; the test below gives the
            // same answer with its own branch.)
            CpuMask local_allowed = s.domains->group(local).span;
            local_allowed &= t.cpus_allowed;
            const int imb_numa_nr = std::min(local_allowed.weight(), d.imb_numa_nr);
            const int imbalance =
                std::abs(static_cast<int>(local_st.idle_cpus) - static_cast<int>(idlest_st.idle_cpus));
            const int dst_running = static_cast<int>(local_st.sum_nr_running) + 1;
            if (dst_running <= imb_numa_nr && imbalance <= kNumaImbalanceMin) {
                if (rec)
                    note(rec, kFindDstGroup, "numa imbalance allowed",
                         cat(d.name, ": local nr_running+1 ", dst_running, " <= imb_numa_nr ", imb_numa_nr,
                             ", idle difference ", imbalance, " <= ", kNumaImbalanceMin));
                return -1;
            }
        }
        if (local_st.idle_cpus >= idlest_st.idle_cpus)
            return verdict(-1, "local has as many idle");
        return verdict(idlest, "idlest has more idle");
    default:
        return verdict(-1, "type not used here");
    }
}

CpuId sched_balance_find_dst_group_cpu(const SchedState& s, int group, TaskId p, CpuId this_cpu, DecisionRecord* rec)
{
    const SchedGroup& g = s.domains->group(group);
    if (g.span.weight() == 1) {
        const CpuId only = g.span.first();
        if (rec)
            note(rec, kFindDstGroupCpu, "single cpu", cat("group ", only), only);
        return only;
    }

    const Task& t = s.task(p);
    const Machine& m = *s.machine;
    double min_exit_latency = std::numeric_limits<double>::infinity();
    // Below any idle CPU's stamp. The kernel starts at 0 because its clock
    // never reads 0 by the time a CPU idles; the model's runs begin at 0 with
    // every CPU idle since then, and a stamp of 0 must count.
    std::int64_t latest_idle_stamp = -1;
    CpuId shallowest_idle_cpu = kNoCpu;
    unsigned long min_load = ULONG_MAX;
    CpuId least_loaded_cpu = this_cpu;
    for (CpuId i = g.span.first(); i != kNoCpu; i = g.span.next(i)) {
        if (!t.cpus_allowed.test(i))
            continue;
        if (rec)
            rec->scanned.push_back(i);
        const Rq& rq = s.rq(i);
        if (choose_sched_idle_rq(rq, t)) {
            if (rec)
                note(rec, kFindDstGroupCpu, "sched_idle cpu", cat("cpu ", i, " runs only SCHED_IDLE tasks"), i);
            return i;
        }
        if (available_idle_cpu(rq)) {
            // The shallowest idle state wakes fastest; among equals, the CPU
            // idled most recently has the warmest cache.
            const IdleState* state =
                rq.idle_state >= 0 && static_cast<std::size_t>(rq.idle_state) < m.idle_states.size()
                    ? &m.idle_states[static_cast<std::size_t>(rq.idle_state)]
                    : nullptr;
            if (state && state->exit_latency_ns < min_exit_latency) {
                min_exit_latency = state->exit_latency_ns;
                latest_idle_stamp = rq.idle_stamp.ns();
                shallowest_idle_cpu = i;
            } else if ((!state || state->exit_latency_ns == min_exit_latency) &&
                       rq.idle_stamp.ns() > latest_idle_stamp) {
                latest_idle_stamp = rq.idle_stamp.ns();
                shallowest_idle_cpu = i;
            }
        } else if (shallowest_idle_cpu == kNoCpu) {
            const unsigned long load = cpu_load(s, i);
            if (load < min_load) {
                min_load = load;
                least_loaded_cpu = i;
            }
        }
    }
    if (shallowest_idle_cpu != kNoCpu) {
        if (rec) {
            const Rq& rq = s.rq(shallowest_idle_cpu);
            const bool has_state = rq.idle_state >= 0 && static_cast<std::size_t>(rq.idle_state) < m.idle_states.size();
            note(rec, kFindDstGroupCpu, "shallowest idle",
                 has_state ? cat("cpu ", shallowest_idle_cpu, " in ",
                                 m.idle_states[static_cast<std::size_t>(rq.idle_state)].name, ", idle since ",
                                 rq.idle_stamp.ns(), " ns")
                           : cat("cpu ", shallowest_idle_cpu, " idle since ", rq.idle_stamp.ns(), " ns"),
                 shallowest_idle_cpu);
        }
        return shallowest_idle_cpu;
    }
    if (rec)
        note(rec, kFindDstGroupCpu, "least loaded",
             min_load != ULONG_MAX ? cat("cpu ", least_loaded_cpu, " load ", min_load)
                                   : cat("no cpu idle or less loaded; stays ", least_loaded_cpu),
             least_loaded_cpu);
    return least_loaded_cpu;
}

CpuId sched_balance_find_dst_cpu(const SchedState& s, int sd, TaskId p, CpuId cpu, CpuId prev, unsigned sd_flag,
                                 DecisionRecord* rec)
{
    const Task& t = s.task(p);
    if (!s.domains->domain(sd).span.intersects(t.cpus_allowed)) {
        if (rec)
            note(rec, kFindDstCpu, "no allowed cpu", cat("p may run nowhere in ", s.domains->domain(sd).name), prev);
        return prev;
    }
    // A new task's signals were just initialised; anyone else's are brought
    // up to its runqueue's clock so a long sleeper does not look busy.
    const SchedAvg p_avg = (sd_flag & SD_BALANCE_FORK) ? t.se.avg : synced_avg(s, p);

    CpuId new_cpu = cpu;
    while (sd >= 0) {
        const SchedDomain& d = s.domains->domain(sd);
        if (!(d.flags & sd_flag)) {
            sd = child_of(s, cpu, sd);
            continue;
        }
        const int group = sched_balance_find_dst_group(s, sd, p, p_avg, cpu, rec);
        if (group < 0) {
            sd = child_of(s, cpu, sd);
            continue;
        }
        new_cpu = sched_balance_find_dst_group_cpu(s, group, p, cpu, rec);
        if (new_cpu == cpu) {
            sd = child_of(s, cpu, sd);
            continue;
        }
        // Continue below the level just decided, now from new_cpu's view:
        // its highest domain smaller than this one that has the flag.
        cpu = new_cpu;
        const int weight = d.span_weight;
        sd = -1;
        for (int id : s.domains->domains_of(cpu)) {
            const SchedDomain& below = s.domains->domain(id);
            if (weight <= below.span_weight)
                break;
            if (below.flags & sd_flag)
                sd = id;
        }
    }
    if (rec)
        note(rec, kFindDstCpu, "chosen", cat("cpu ", new_cpu), new_cpu);
    return new_cpu;
}

}  // namespace wb

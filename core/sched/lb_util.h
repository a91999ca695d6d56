// SPDX-License-Identifier: Apache-2.0
//
// Small helpers the load balancer's files share (load_balance.cpp,
// lb_state.cpp, lb_stats.cpp, lb_triggers.cpp, lb_nohz.cpp): capacity
// comparisons, asym-packing priority, jiffies arithmetic, the task lists and
// the lookups into LoadBalanceState. Private to core/sched.
#pragma once

#include <cstdint>

#include "sched/fair_util.h"
#include "sched/load_balance.h"

namespace wb {

// capacity_greater(): cap1 is bigger by more than ~5 %, so a task moved for
// capacity gains enough to be worth the migration.
inline bool capacity_greater(unsigned long cap1, unsigned long cap2)
{
    return cap1 * 1024 > cap2 * 1078;
}

inline unsigned long cpu_runnable(const SchedState& s, CpuId cpu)
{
    return s.rq(cpu).cfs.avg.runnable_avg;
}

inline unsigned long cpu_util_cfs_boost(const SchedState& s, CpuId cpu)
{
    return cpu_util(s, cpu, {}, kNoCpu, true);
}

inline bool sched_idle_cpu(const SchedState& s, CpuId cpu)
{
    return sched_idle_rq(s.rq(cpu));
}

// check_cpu_capacity(): other activity (RT, IRQ) took a noticeable part of
// cpu. Never true here, capacity_of() being the original capacity, but kept
// where the kernel tests it.
inline bool check_cpu_capacity(const SchedState& s, CpuId cpu, const SchedDomain& sd)
{
    return capacity_of(s, cpu) * sd.imbalance_pct < arch_scale_cpu_capacity(s, cpu) * 100;
}

// sched_asym_prefer(a, b) at domain sd: a's asym-packing priority is higher
// (a policy may overrule it).
bool sched_asym_prefer(const SchedState& s, int sd, CpuId a, CpuId b);
// sched_use_asym_prio(): cpu may pack by priority at sd (with SMT, only an
// idle core, or between siblings).
bool sched_use_asym_prio(const SchedState& s, int sd, CpuId cpu);
// sched_asym(): dst may take src's work by priority at sd.
inline bool sched_asym(const SchedState& s, int sd, CpuId dst, CpuId src)
{
    return sched_use_asym_prio(s, sd, dst) && sched_asym_prefer(s, sd, dst, src);
}

// msecs_to_jiffies(): rounded up, as the kernel's.
std::uint64_t msecs_to_jiffies(const SchedState& s, std::uint64_t ms);

inline int lb_hz(const SchedState& s)
{
    // A machine file may give HZ below 1: the balancer then counts with 250.
    return s.hz >= 1 ? static_cast<int>(s.hz) : 250;
}

inline int chain_size(const SchedState& s, CpuId cpu)
{
    return static_cast<int>(s.domains->domains_of(cpu).size());
}

// The id of cpu's domain at position pos of its chain.
inline int domain_id(const SchedState& s, CpuId cpu, int pos)
{
    return s.domains->domains_of(cpu)[static_cast<std::size_t>(pos)];
}

// rq->cfs_tasks beyond what load_balance.h has inline (lb_state.cpp):
// list_move() of an entry of the list to its head (keeping its delayed
// mark), and dropping entries whose task is no longer queued on cpu (a
// delayed dequeue completed where the engine does not see it: only those
// in cfs.delayed_dequeued can be such).
void list_move_head(LoadBalanceState& lb, TaskId p);
void list_prune(SchedState& s, LoadBalanceState& lb, CpuId cpu);

inline const GroupLbInfo& group_info(const LoadBalanceState& lb, int sd, int gi)
{
    return lb.groups[static_cast<std::size_t>(sd)][static_cast<std::size_t>(gi)];
}

inline const SchedGroup& group_at(const SchedState& s, int sd, int gi)
{
    return s.domains->group(s.domains->domain(sd).groups[static_cast<std::size_t>(gi)]);
}

inline SdRuntime& sd_runtime(LoadBalanceState& lb, CpuId cpu, int pos)
{
    return lb.cpu(cpu).sd[static_cast<std::size_t>(pos)];
}

// Time as the kernel's u64 nanosecond clocks count it.
inline std::int64_t ns_of(Time t)
{
    return t.ns();
}

}  // namespace wb

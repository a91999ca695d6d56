// SPDX-License-Identifier: Apache-2.0
//
// SchedView: the simulated kernel's state as a placement hook may read it,
// in the kernel's names. Read-only: a hook decides, the engine acts. The
// engine implements it over its own state, so the state can change shape
// behind it; tests implement it over a few fields (wakebench/testing.h).
//
// CPUs are 0..nr_cpu_ids()-1, tasks are ids (kNoTask for none), sched
// domains are ids that for_each_domain() lists bottom-up. Utilisations and
// capacities are on the kernel's 0..1024 scale.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "wakebench/cpu_set.h"

namespace wakebench {

// sched_domain flags, with the kernel's names (include/linux/sched/sd_flags.h).
inline constexpr unsigned SD_BALANCE_NEWIDLE = 0x0001;
inline constexpr unsigned SD_BALANCE_EXEC = 0x0002;
inline constexpr unsigned SD_BALANCE_FORK = 0x0004;
inline constexpr unsigned SD_BALANCE_WAKE = 0x0008;
inline constexpr unsigned SD_WAKE_AFFINE = 0x0010;
inline constexpr unsigned SD_ASYM_CPUCAPACITY = 0x0020;
inline constexpr unsigned SD_ASYM_CPUCAPACITY_FULL = 0x0040;
inline constexpr unsigned SD_SHARE_CPUCAPACITY = 0x0080;
inline constexpr unsigned SD_CLUSTER = 0x0100;
inline constexpr unsigned SD_SHARE_LLC = 0x0200;
inline constexpr unsigned SD_SERIALIZE = 0x0400;
inline constexpr unsigned SD_ASYM_PACKING = 0x0800;
inline constexpr unsigned SD_PREFER_SIBLING = 0x1000;
inline constexpr unsigned SD_NUMA = 0x2000;

class SchedView {
public:
    virtual ~SchedView() = default;

    // --- the machine and its sched domains ---------------------------------
    virtual int nr_cpu_ids() const = 0;
    virtual bool sched_smt_active() const = 0;
    virtual bool sched_asym_cpucapacity() const = 0;
    virtual bool sched_energy_enabled() const = 0;  // EAS: find_energy_efficient_cpu() runs
    // Same LLC (per_cpu(sd_llc_id)).
    virtual bool cpus_share_cache(int this_cpu, int that_cpu) const = 0;
    // cpu_smt_mask(cpu): the threads of cpu's core (cpu alone without SMT).
    virtual CpuSet cpu_smt_mask(int cpu) const = 0;
    // for_each_domain(cpu, sd): cpu's domains, lowest (SMT, or MC) first.
    virtual std::span<const int> for_each_domain(int cpu) const = 0;
    virtual CpuSet sched_domain_span(int sd) const = 0;
    virtual unsigned sd_flags(int sd) const = 0;        // SD_* bits
    virtual std::string_view sd_name(int sd) const = 0;  // "SMT", "CLS", "MC", "PKG", "NUMA"
    virtual int sd_llc(int cpu) const = 0;               // per_cpu(sd_llc, cpu), -1 without one
    virtual int arch_asym_cpu_priority(int cpu) const = 0;
    // The CPU's speed relative to the machine's fastest (the model's per-CPU
    // speed, docs/model.md): below 1 on a slower SMT sibling or core.
    virtual double cpu_speed(int cpu) const = 0;

    // --- runqueues -------------------------------------------------------------
    virtual bool idle_cpu(int cpu) const = 0;            // the idle task runs, nothing queued, no wakeup pending
    virtual bool available_idle_cpu(int cpu) const = 0;  // idle_cpu() and not a preempted vCPU
    virtual bool sched_idle_cpu(int cpu) const = 0;      // only SCHED_IDLE tasks runnable
    // choose_idle_cpu(cpu, p): available_idle_cpu(), or only SCHED_IDLE tasks
    // when p is not SCHED_IDLE. Counts as a CPU the search examined.
    virtual bool choose_idle_cpu(int cpu, int p) const = 0;
    virtual unsigned nr_running(int cpu) const = 0;     // rq->nr_running
    virtual unsigned h_nr_runnable(int cpu) const = 0;  // rq->cfs.h_nr_runnable: fair tasks minus delayed ones
    virtual unsigned long capacity_of(int cpu) const = 0;
    virtual unsigned long arch_scale_cpu_capacity(int cpu) const = 0;
    virtual unsigned long cpu_util_cfs(int cpu) const = 0;
    virtual bool cpu_overutilized(int cpu) const = 0;  // false without EAS, as in the kernel
    virtual bool test_idle_cores(int cpu) const = 0;   // sd_llc_shared->has_idle_cores
    // util_fits_cpu(): 1 fits, 0 does not, -1 fits only by uclamp_min.
    virtual int util_fits_cpu(unsigned long util, unsigned long uclamp_min, unsigned long uclamp_max,
                              int cpu) const = 0;
    virtual bool asym_fits_cpu(unsigned long util, unsigned long uclamp_min, unsigned long uclamp_max,
                               int cpu) const = 0;

    // --- tasks -------------------------------------------------------------------
    virtual bool cpus_allowed(int p, int cpu) const = 0;  // cpumask_test_cpu(cpu, p->cpus_ptr)
    virtual int task_cpu(int p) const = 0;
    virtual int last_wakee(int p) const = 0;  // p->last_wakee, kNoTask if none
    virtual unsigned wakee_flips(int p) const = 0;
    virtual int recent_used_cpu(int p) const = 0;
    virtual bool sched_idle_task(int p) const = 0;        // SCHED_IDLE policy
    virtual unsigned long task_util_est(int p) const = 0;  // synced to its runqueue's clock, as the wakeup path reads it
    virtual bool task_fits_cpu(int p, int cpu) const = 0;

    // --- time --------------------------------------------------------------------
    virtual std::int64_t now_ns() const = 0;  // simulated time, ns from the run's start
};

}  // namespace wakebench

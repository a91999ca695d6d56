// SPDX-License-Identifier: Apache-2.0
//
// The idle-CPU searches of the wakeup fast path (kernel/sched/fair.c, v7.3
// merge window; wakeup-path.md §5-7): the LLC scan with its SIS_UTIL budget,
// cluster-first pass and idle-core mode, the SMT-sibling shortcut, the
// asymmetric-capacity scan, the capacity fit tests, and the two pieces of
// shared state they depend on: the idle-cores hint and nr_idle_scan.
//
// Every search returns a CPU or kNoCpu, and its caller falls through to the
// next heuristic, as in the kernel. A non-null `rec` receives a step per
// decision and every CPU examined, in order, in rec->scanned.
#pragma once

#include "sched/decision.h"
#include "sched/sched_state.h"

namespace wb {

struct WakeupArgs;

// select_idle_cpu(): scan the LLC domain `sd_llc` (a domain id) around
// target for an idle CPU, or a whole idle core when has_idle_core. Budget
// nr_idle_scan of the domain's shared object under SIS_UTIL (0: no scan at
// all); clears the idle-cores hint after a failed core scan. `wake`, when
// given, lets s.policy's hooks see the wakeup and mark their decisions.
CpuId select_idle_cpu(SchedState& s, TaskId p, int sd_llc, bool has_idle_core, CpuId target, DecisionRecord* rec,
                      WakeupArgs* wake = nullptr);

// select_idle_core(): `core` if every SMT sibling of it is available-idle;
// else removes the siblings from `cpus` and returns kNoCpu, remembering in
// *idle_cpu the first usable idle (or SCHED_IDLE) thread seen.
CpuId select_idle_core(const SchedState& s, TaskId p, CpuId core, CpuMask& cpus, CpuId* idle_cpu, DecisionRecord* rec,
                       WakeupArgs* wake = nullptr);

// select_idle_smt(): an idle SMT sibling of prev inside domain `sd`.
CpuId select_idle_smt(const SchedState& s, TaskId p, int sd, CpuId prev, DecisionRecord* rec);

// __select_idle_cpu(): cpu if it is idle for p (no core scheduling cookies).
CpuId scan_one(const SchedState& s, TaskId p, CpuId cpu);

// select_idle_capacity(): the [NEW] SMT-aware scan of the asym-capacity
// domain `sd`, from target itself: the first CPU where p fits on an idle
// core, else the best-ranked misfit; kNoCpu when the budget stops it first.
CpuId select_idle_capacity(SchedState& s, TaskId p, int sd, CpuId target, DecisionRecord* rec,
                           WakeupArgs* wake = nullptr);

// util_fits_cpu(): 1 fits (below ~80 % of capacity_of, or capped by
// uclamp_max), 0 does not, -1 fits except for uclamp_min.
int util_fits_cpu(const SchedState& s, unsigned long util, unsigned long uclamp_min, unsigned long uclamp_max,
                  CpuId cpu);

// asym_fits_cpu(): true on symmetric systems; on asym ones a full fit, and
// [NEW] with SMT active also a whole idle core.
bool asym_fits_cpu(const SchedState& s, unsigned long util, unsigned long uclamp_min, unsigned long uclamp_max,
                   CpuId cpu);

// task_fits_cpu(): p's (synced) task_util_est fits cpu. p has default
// uclamps (0, 1024): per-task clamps are not modelled.
bool task_fits_cpu(const SchedState& s, TaskId p, CpuId cpu);

// The idle-cores hint of cpu's sd_balance_shared object (false if none).
bool test_idle_cores(const SchedState& s, CpuId cpu);
void set_idle_cores(SchedState& s, CpuId cpu, bool has_idle_cores);

// __update_idle_core(): sets the hint if every other sibling of cpu is
// available-idle; never clears it.
void update_idle_core_smt(SchedState& s, CpuId cpu);

// update_idle_core(): the engine calls this when `cpu` switches to its idle
// task. Inline, as the kernel's static-key test: without SMT it is a no-op
// at every switch to idle.
inline void update_idle_core(SchedState& s, CpuId cpu)
{
    if (s.domains->sched_smt_active())
        update_idle_core_smt(s, cpu);
}

// update_idle_cpu_scan(): the engine calls this at the end of a periodic
// (not newly-idle) balance of domain `domain_id`, with the sum of
// cpu_util_cfs() over the domain's CPUs. Stores nr_idle_scan in the domain's
// shared object (domains without one are ignored); no-op under NO_SIS_UTIL.
void update_idle_cpu_scan(SchedState& s, int domain_id, unsigned long sum_util);

}  // namespace wb

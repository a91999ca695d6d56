// SPDX-License-Identifier: Apache-2.0
//
// The affine decision of the wakeup path (kernel/sched/fair.c wake_affine()
// and its two tests, wakeup-path.md §3) and the EAS gate: whether a wakee
// should be pulled to the waker's CPU or stay by its previous CPU. The
// result is only the centre of the idle search that follows.
#pragma once

#include "sched/decision.h"
#include "sched/fair_select.h"
#include "sched/sched_state.h"

namespace wb {

// wake_affine_idle() (WA_IDLE): this_cpu or prev when one of them is idle
// (or the sync waker is alone on this_cpu), else kNoCpu.
CpuId wake_affine_idle(const SchedState& s, CpuId this_cpu, CpuId prev, bool sync, DecisionRecord* rec);

// wake_affine_weight() (WA_WEIGHT, WA_BIAS): this_cpu if its load with p
// (and without a sync waker) is below prev's without p, after capacity
// cross-scaling and the bias towards prev; else kNoCpu. `sd` is the affine
// domain whose imbalance_pct sets the bias.
CpuId wake_affine_weight(const SchedState& s, const WakerContext& waker, int sd, TaskId p, CpuId this_cpu, CpuId prev,
                         bool sync, DecisionRecord* rec);

// wake_affine(): this_cpu if either test chose it, else prev.
CpuId wake_affine(const SchedState& s, const WakerContext& waker, int sd, TaskId p, CpuId this_cpu, CpuId prev,
                  bool sync, DecisionRecord* rec);

// find_energy_efficient_cpu(): always -1 here. Machines carry no Energy
// Model (no performance domains), and the kernel returns -1 when the root
// domain has no perf-domain list; EAS is also never on with SMT active.
CpuId find_energy_efficient_cpu(const SchedState& s, TaskId p, CpuId prev, DecisionRecord* rec);

}  // namespace wb

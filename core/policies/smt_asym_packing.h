// SPDX-License-Identifier: Apache-2.0
//
// smt-asym-packing: prefer the faster SMT sibling, the way POWER7's
// ASYM_SMT does.
//
// Models the follow-up idea the NVIDIA engineer named in the asym-stable-
// core thread (2026) as the better fix, after the Power7 origin of
// SD_ASYM_PACKING: give the SMT level SD_ASYM_PACKING and the first sibling
// of each core a higher arch_asym_cpu_priority(), so that idle-CPU selection
// and the load balancer prefer it. Why: on the measured machine thread 0
// ran faster than thread 1 although both advertised the same capacity; a
// task alone on a core should run on the fast thread.
//
// Our model: where the topology gives a core's threads different asym_prio
// (or, with `speed`, equal priority but different speed), an idle search
// that is about to return a thread of a wholly idle core returns the
// highest-priority idle thread of that core instead (inside the search's
// mask, never a smaller capacity). The domain side (SD_ASYM_PACKING on the
// SMT level, DomainOptions::smt_asym_packing) and the priority order at SMT
// domains (sched_asym_prefer) are for the load balancer.
// Expected effect: lone tasks sit on thread 0 of their core; with speed
// differences, shorter runtimes. No effect where threads are equal.
#pragma once

#include "policies/placement_policy.h"

namespace wb {

class SmtAsymPacking final : public PlacementPolicy {
public:
    enum Switch { kLlcScan, kCapacityScan, kSpeed, kSdFlag };
    static const PolicyInfo& info();
    explicit SmtAsymPacking(std::vector<bool> on);

    CpuId idle_search_return(const SchedState& s, TaskId p, IdleSearchReturn where, CpuId cpu, bool idle_core,
                             const CpuMask& cpus, DecisionRecord* rec) const override;
    void adjust_domain_options(DomainOptions& options) const override;
    std::optional<bool> sched_asym_prefer(const SchedState& s, int sd, CpuId a, CpuId b) const override;

private:
    // a is a higher-priority thread than b: asym_prio, then (with `speed`)
    // the thread's speed.
    bool higher(const SchedState& s, CpuId a, CpuId b) const;
};

}  // namespace wb

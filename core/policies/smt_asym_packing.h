// SPDX-License-Identifier: Apache-2.0
//
// smt-asym-packing: prefer the faster SMT sibling, the way POWER7's
// ASYM_SMT does.
//
// Models the follow-up idea the NVIDIA engineer named in the asym-stable-
// core thread (2026) as the better fix, after the Power7 origin of
// SD_ASYM_PACKING: a quirk gives the SMT level SD_ASYM_PACKING and the first
// sibling of each core a higher arch_asym_cpu_priority(). Why: on the
// measured machine thread 0 ran faster than thread 1 although both
// advertised the same capacity; a task alone on a core should run on the
// fast thread. In mainline SD_ASYM_PACKING acts in the load balancer (and
// its nohz kick) only, not in the wakeup path.
//
// Our model, by default the posted mechanism only (`sd_flag`): the SMT
// level gets SD_ASYM_PACKING (DomainOptions::smt_asym_packing) and, at SMT
// domains, the balancer's sched_asym_prefer() ranks a core's threads by the
// topology's asym_prio (arch_asym_cpu_priority()). Extensions beyond the
// idea, off by default: `llc_scan` and `capacity_scan` make an idle search
// that is about to return a thread of a wholly idle core return the
// highest-priority idle thread of that core instead (inside the search's
// mask, never a smaller capacity); `speed` ranks threads of equal
// priority by their speed.
// Expected effect: the balancer packs lone tasks onto thread 0 of their
// core; the extensions do so at wakeup already. No effect where threads
// are equal.
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

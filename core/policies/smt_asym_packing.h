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
// level gets SD_ASYM_PACKING (DomainOptions::smt_asym_packing) and the
// balancer's sched_asym_prefer() compares this policy's
// arch_asym_cpu_priority(): the topology's asym_prio raised by the CPU's
// rank among its core's threads, thread 0 (PE0, the first sibling) highest.
// The raise orders a core's threads and never reorders different asym_prio.
// Why a raise: the upstream form of the idea (Andrea Righi, "sched: Enable
// preferred SMT siblings on NVIDIA Olympus", v7, lore msgid
// 20260929165538.726616-1-arighi@nvidia.com, read in a third-party
// summary, not the diff) leaves the priority to arch_asym_cpu_priority(),
// whose weak default -cpu (arm64 defines none) prefers a core's
// lower-numbered thread, and both numberings give thread 0 the lower id.
// The model's mainline reads only asym_prio, which machine files leave 0
// but for ITMT, so without the raise every sibling ties and the flag does
// nothing. The raise keeps the weak default's order inside a core without
// making it one across cores, where asym_prio alone stays in charge.
// Extensions beyond the idea, off by default: `llc_scan` and
// `capacity_scan` make an idle search that is about to return a thread of a
// wholly idle core return the highest-priority idle thread of that core
// instead (inside the search's mask, never a smaller capacity); `speed`
// ranks the threads of one core with equal asym_prio by their speed before
// the raise.
// Expected effect: the balancer packs lone tasks onto thread 0 of their
// core (an idle higher-priority sibling kicks the nohz balancer, whose
// asym_packing group forces an active balance); the extensions do so at
// wakeup already.
#pragma once

#include "sched/placement_policy.h"

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

    // arch_asym_cpu_priority() under this policy: asym_prio * kThreadRanks
    // plus the thread's rank raise (kThreadRanks - 1 for thread 0, 0 for
    // thread kThreadRanks - 1 and above).
    static long long asym_cpu_priority(const Machine& m, CpuId cpu);
    // The raise spans this many thread ranks: the widest SMT the kernel
    // schedules (POWER8 and later run SMT8), so every thread of a core gets
    // a rank of its own and the raise stays below one asym_prio step.
    static constexpr int kThreadRanks = 8;

private:
    // a is a higher-priority thread than b: asym_cpu_priority(), with
    // `speed` first by speed between threads of one core of equal asym_prio.
    bool higher(const SchedState& s, CpuId a, CpuId b) const;
};

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "policies/asym_stable_core.h"

#include "policies/policy_util.h"

namespace wb {

const PolicyInfo& AsymStableCore::info()
{
    static const PolicyInfo kInfo{
        "asym-stable-core",
        "select_idle_capacity() returns the first CPU of an idle SMT core, so concurrent wakeups pick the same rq",
        "select_idle_capacity() (asym-capacity systems): its \"fits\" return and its best-candidate return",
        "patch by an NVIDIA engineer, June 2026, with the review refinement (idle_core = has_idle_core && "
        "preferred_core); thread notes SMT sibling 0 measured faster than sibling 1",
        {
            {"first_return", true, "redirect the immediate \"fits on a preferred core\" return"},
            {"best_return", true, "redirect the best-candidate return at the end of the scan"},
            {"idle_core_hint", true,
             "the review refinement: the core is idle when has_idle_core && preferred_core; off: is_core_idle() "
             "of the returned CPU, as first posted"},
        },
    };
    return kInfo;
}

AsymStableCore::AsymStableCore(std::vector<bool> on) : PlacementPolicy(info(), std::move(on)) {}

CpuId AsymStableCore::idle_search_return(const SchedState& s, TaskId, IdleSearchReturn where, CpuId cpu, bool idle_core,
                                         const CpuMask& cpus, DecisionRecord* rec) const
{
    // Only select_idle_capacity()'s returns are this patch's hook points;
    // the LLC scan's returns pass by without a step.
    const bool capacity_return =
        where == IdleSearchReturn::SelectIdleCapacity || where == IdleSearchReturn::CapacityBest;
    if (!capacity_return)
        return kNoCpu;
    const bool first_return = where == IdleSearchReturn::SelectIdleCapacity;
    if (!on(first_return ? kFirstReturn : kBestReturn)) {
        if (rec)
            note_declined(rec, name(), first_return ? "switch first_return off" : "switch best_return off");
        return kNoCpu;
    }
    const bool core_idle = on(kIdleCoreHint) ? idle_core : is_core_idle(s, cpu);
    if (!core_idle) {
        if (rec)
            note_declined(rec, name(),
                          cat("cpu ", cpu, "'s core not idle (",
                              on(kIdleCoreHint) ? "has_idle_core && preferred_core" : "is_core_idle", " false)"));
        return kNoCpu;
    }
    CpuId first = kNoCpu;
    for (CpuId sibling : SmtSiblings(s, cpu)) {
        if (cpus.test(sibling)) {
            first = sibling;
            break;
        }
    }
    if (first == kNoCpu || first == cpu) {
        if (rec)
            note_declined(rec, name(),
                          first == cpu ? cat("cpu ", cpu, " is already its core's first cpu in the scan mask")
                                       : cat("no thread of cpu ", cpu, "'s core in the scan mask"));
        return kNoCpu;
    }
    if (rec)
        note(rec, name(), "first cpu of the idle core",
             cat("cpu ", cpu, "'s core is idle (",
                 on(kIdleCoreHint) ? "has_idle_core && preferred_core" : "is_core_idle",
                 "): its first cpu in the scan mask is ", first),
             first);
    return first;
}

}  // namespace wb

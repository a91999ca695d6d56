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
    const bool patched = (where == IdleSearchReturn::SelectIdleCapacity && on(kFirstReturn)) ||
                         (where == IdleSearchReturn::CapacityBest && on(kBestReturn));
    if (!patched)
        return kNoCpu;
    const bool core_idle = on(kIdleCoreHint) ? idle_core : is_core_idle(s, cpu);
    if (!core_idle)
        return kNoCpu;
    CpuId first = kNoCpu;
    for (CpuId sibling : SmtSiblings(s, cpu)) {
        if (cpus.test(sibling)) {
            first = sibling;
            break;
        }
    }
    if (first == kNoCpu || first == cpu)
        return kNoCpu;
    if (rec)
        note(rec, name(), "first cpu of the idle core",
             cat("cpu ", cpu, "'s core is idle (",
                 on(kIdleCoreHint) ? "has_idle_core && preferred_core" : "is_core_idle",
                 "): its first cpu in the scan mask is ", first),
             first);
    return first;
}

}  // namespace wb

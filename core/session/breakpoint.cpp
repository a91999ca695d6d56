// SPDX-License-Identifier: Apache-2.0
#include "session/breakpoint.h"

#include "topology/machine.h"

namespace wb {

std::string Breakpoint::describe() const
{
    if (kind == Kind::Branch)
        return branch.empty() ? function : function + ": " + branch;
    std::string out = "lands ";
    out += distance_class_name(lands_in);
    if (only_if_idle_core_in_waker_llc)
        out += " while the waker's LLC had an idle core";
    return out;
}

bool llc_has_idle_core(const SchedState& s, CpuId cpu)
{
    const Machine& m = *s.machine;
    bool found = false;
    m.llc_mask(cpu).for_each([&](CpuId c) {
        // Each core is judged once, from its first thread.
        if (found || m.cpus[static_cast<std::size_t>(c)].thread != 0)
            return;
        bool all_idle = true;
        m.smt_mask(c).for_each([&](CpuId t) { all_idle = all_idle && idle_cpu(s.rq(t)); });
        found = all_idle;
    });
    return found;
}

bool breakpoint_hit(const Breakpoint& bp, const DecisionRecord& rec, const SchedState& s)
{
    if (bp.kind == Breakpoint::Kind::Branch) {
        for (const DecisionStep& step : rec.steps)
            if (step.function == bp.function && (bp.branch.empty() || step.branch == bp.branch))
                return true;
        return false;
    }
    if (rec.from_waker != bp.lands_in)
        return false;
    return !bp.only_if_idle_core_in_waker_llc || (rec.waker_cpu != kNoCpu && llc_has_idle_core(s, rec.waker_cpu));
}

}  // namespace wb

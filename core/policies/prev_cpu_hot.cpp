// SPDX-License-Identifier: Apache-2.0
#include "policies/prev_cpu_hot.h"

#include "policies/policy_util.h"

namespace wb {

const PolicyInfo& PrevCpuHot::info()
{
    static const PolicyInfo kInfo{
        "prev-cpu-hot",
        "place on prev unless cpu_overutilized(prev) (always prev without EAS, as reviewers pointed out)",
        "select_task_rq_fair() fast path, before select_idle_sibling(); returns prev",
        "patch by an Ampere engineer, October 2025; review: cpu_overutilized() is false without EAS and ignores "
        "the wakee's utilisation",
        {
            {"overutilized", true, "skip prev when cpu_overutilized(prev); off: always prev"},
        },
    };
    return kInfo;
}

PrevCpuHot::PrevCpuHot(std::vector<bool> on) : PlacementPolicy(info(), std::move(on)) {}

CpuId PrevCpuHot::before_select_idle_sibling(const SchedState& s, const WakeupArgs& w, CpuId, DecisionRecord* rec) const
{
    if (on(kOverutilized) && cpu_overutilized(s, w.prev)) {
        if (rec)
            note_declined(rec, name(), overutilized_text(s, "prev", w.prev));
        return kNoCpu;
    }
    if (rec) {
        std::string why;
        if (!on(kOverutilized))
            why = cat("prev ", w.prev, ": overutilized check off");
        else if (!s.eas_enabled)
            why = cat("EAS off: cpu_overutilized(prev ", w.prev, ") is false");
        else
            why = cat("prev ", w.prev, " util ", cpu_util_cfs(s, w.prev), " fits capacity ", capacity_of(s, w.prev));
        note(rec, name(), "prev not overutilized", std::move(why), w.prev);
    }
    return w.prev;
}

}  // namespace wb

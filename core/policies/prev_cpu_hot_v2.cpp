// SPDX-License-Identifier: Apache-2.0
#include "policies/prev_cpu_hot_v2.h"

#include "policies/policy_util.h"

namespace wb {

const PolicyInfo& PrevCpuHotV2::info()
{
    static const PolicyInfo kInfo{
        "prev-cpu-hot-v2",
        "with EAS enabled, place on prev unless cpu_overutilized(prev)",
        "top of select_idle_sibling(), before \"target idle\"; returns prev",
        "v2 plan of the prev-cpu-hot patch (Ampere engineer) after the October 2025 review",
        {
            {"eas_check", true, "require sched_energy_enabled(); off: v1's rule, at the top of select_idle_sibling()"},
            {"overutilized", true,
             "skip prev when cpu_overutilized(prev); off: always prev (where the EAS check passes)"},
        },
    };
    return kInfo;
}

PrevCpuHotV2::PrevCpuHotV2(std::vector<bool> on) : PlacementPolicy(info(), std::move(on)) {}

CpuId PrevCpuHotV2::select_idle_sibling_entry(const SchedState& s, const WakeupArgs& w, CpuId,
                                              DecisionRecord* rec) const
{
    if (on(kEasCheck) && !s.eas_enabled) {
        if (rec)
            note_declined(rec, name(), "EAS off: sched_energy_enabled() is false");
        return kNoCpu;
    }
    if (on(kOverutilized) && cpu_overutilized(s, w.prev)) {
        if (rec)
            note_declined(rec, name(), overutilized_text(s, "prev", w.prev));
        return kNoCpu;
    }
    if (rec) {
        std::string why = on(kEasCheck) ? std::string("EAS enabled") : std::string("EAS check off");
        if (!on(kOverutilized))
            why += cat("; prev ", w.prev, ": overutilized check off");
        else if (!s.eas_enabled)
            why += cat("; cpu_overutilized(prev ", w.prev, ") is false without EAS");
        else
            why += cat("; prev ", w.prev, " util ", cpu_util_cfs(s, w.prev), " fits capacity ", capacity_of(s, w.prev));
        note(rec, name(), "prev not overutilized", std::move(why), w.prev);
    }
    return w.prev;
}

}  // namespace wb

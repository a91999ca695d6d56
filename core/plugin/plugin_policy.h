// SPDX-License-Identifier: Apache-2.0
//
// PluginPolicy: a wakebench::Policy (the SDK's interface, built into a
// plugin) as the PlacementPolicy the wakeup path calls. Each hook hands the
// plugin a view of the state (wakebench::SchedView) and, when the wakeup is
// recorded, a trace writing into the DecisionRecord; it checks what comes
// back and turns a throw or an impossible CPU into a PolicyError.
#pragma once

#include <memory>

#include "sched/placement_policy.h"
#include "wakebench/policy.h"

namespace wb {

class PluginPolicy final : public PlacementPolicy {
public:
    PluginPolicy(const PolicyInfo& info, std::vector<bool> on, std::unique_ptr<wakebench::Policy> impl);
    ~PluginPolicy() override;

    CpuId before_wake_affine(const SchedState& s, const WakeupArgs& w, int sd, DecisionRecord* rec) const override;
    CpuId after_wake_affine(const SchedState& s, const WakeupArgs& w, int sd, CpuId target,
                            DecisionRecord* rec) const override;
    CpuId before_select_idle_sibling(const SchedState& s, const WakeupArgs& w, CpuId target,
                                     DecisionRecord* rec) const override;
    CpuId select_idle_sibling_entry(const SchedState& s, const WakeupArgs& w, CpuId target,
                                    DecisionRecord* rec) const override;
    AfterRecentUsedCpu after_recent_used_cpu(const SchedState& s, const WakeupArgs& w, CpuId target,
                                             DecisionRecord* rec) const override;
    CpuId select_idle_core_busy(const SchedState& s, const WakeupArgs& w, CpuId core, const CpuMask& cpus,
                                DecisionRecord* rec) const override;
    CpuId idle_search_return(const SchedState& s, TaskId p, IdleSearchReturn where, CpuId cpu, bool idle_core,
                             const CpuMask& cpus, DecisionRecord* rec) const override;
    void adjust_domain_options(DomainOptions& options) const override;
    bool imbalanced_active_balance_now(const SchedState& s, int sd, CpuId dst_cpu, CpuId src_cpu) const override;
    std::optional<bool> sched_asym_prefer(const SchedState& s, int sd, CpuId a, CpuId b) const override;

private:
    std::unique_ptr<wakebench::Policy> impl_;
};

}  // namespace wb

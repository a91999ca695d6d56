// SPDX-License-Identifier: Apache-2.0
#include "sched/placement_policy.h"

#include <cassert>

namespace wb {

const PolicyInfo& PlacementPolicy::baseline_info()
{
    static const PolicyInfo kInfo{
        "baseline",
        "mainline select_task_rq_fair(): wake_wide, wake_affine, select_idle_sibling (v7.3 merge window)",
        "nowhere: the reference every policy is a change over",
        "kernel/sched/fair.c as in wakeup-path.md",
        {},
    };
    return kInfo;
}

PlacementPolicy::PlacementPolicy() : PlacementPolicy(baseline_info(), {}) {}

PlacementPolicy::PlacementPolicy(const PolicyInfo& info, std::vector<bool> on)
    : info_(&info), on_(std::move(on)), patches_placement_(&info != &baseline_info())
{
    assert(on_.size() == info_->switches.size());
}

std::string PlacementPolicy::spec() const
{
    std::string out(name());
    char sep = ':';
    for (std::size_t i = 0; i < on_.size(); ++i) {
        if (on_[i] == info_->switches[i].default_on)
            continue;
        out += sep;
        out += info_->switches[i].name;
        out += on_[i] ? "=on" : "=off";
        sep = ',';
    }
    return out;
}

bool PlacementPolicy::switch_on(std::string_view switch_name) const
{
    for (std::size_t i = 0; i < on_.size(); ++i)
        if (info_->switches[i].name == switch_name)
            return on_[i];
    return false;
}

[[gnu::hot]] CpuId PlacementPolicy::before_wake_affine(const SchedState&, const WakeupArgs&, int, DecisionRecord*) const
{
    return kNoCpu;
}

[[gnu::hot]] CpuId PlacementPolicy::after_wake_affine(const SchedState&, const WakeupArgs&, int, CpuId,
                                                      DecisionRecord*) const
{
    return kNoCpu;
}

CpuId PlacementPolicy::before_select_idle_sibling(const SchedState&, const WakeupArgs&, CpuId, DecisionRecord*) const
{
    return kNoCpu;
}

CpuId PlacementPolicy::select_idle_sibling_entry(const SchedState&, const WakeupArgs&, CpuId, DecisionRecord*) const
{
    return kNoCpu;
}

PlacementPolicy::AfterRecentUsedCpu PlacementPolicy::after_recent_used_cpu(const SchedState&, const WakeupArgs&, CpuId,
                                                                           DecisionRecord*) const
{
    return {};
}

CpuId PlacementPolicy::select_idle_core_busy(const SchedState&, const WakeupArgs&, CpuId, const CpuMask&,
                                             DecisionRecord*) const
{
    return kNoCpu;
}

CpuId PlacementPolicy::idle_search_return(const SchedState&, TaskId, IdleSearchReturn, CpuId, bool, const CpuMask&,
                                          DecisionRecord*) const
{
    return kNoCpu;
}

void PlacementPolicy::adjust_domain_options(DomainOptions&) const {}

bool PlacementPolicy::imbalanced_active_balance_now(const SchedState&, int, CpuId, CpuId) const
{
    return false;
}

std::optional<bool> PlacementPolicy::sched_asym_prefer(const SchedState&, int, CpuId, CpuId) const
{
    return std::nullopt;
}

// --- CompositePolicy ----------------------------------------------------------

namespace {

const PolicyInfo& composite_info()
{
    static const PolicyInfo kInfo{"composite", "several policies applied in order", "", "", {}};
    return kInfo;
}

}  // namespace

CompositePolicy::CompositePolicy(std::vector<std::unique_ptr<PlacementPolicy>> parts)
    : PlacementPolicy(composite_info(), {}), parts_(std::move(parts))
{
    for (const auto& part : parts_) {
        if (!name_.empty())
            name_ += '+';
        name_ += part->name();
    }
}

std::string CompositePolicy::spec() const
{
    std::string out;
    for (const auto& part : parts_) {
        if (!out.empty())
            out += '+';
        out += part->spec();
    }
    return out;
}

CpuId CompositePolicy::before_wake_affine(const SchedState& s, const WakeupArgs& w, int sd, DecisionRecord* rec) const
{
    for (const auto& part : parts_)
        if (const CpuId cpu = part->before_wake_affine(s, w, sd, rec); cpu != kNoCpu)
            return cpu;
    return kNoCpu;
}

CpuId CompositePolicy::after_wake_affine(const SchedState& s, const WakeupArgs& w, int sd, CpuId target,
                                         DecisionRecord* rec) const
{
    for (const auto& part : parts_)
        if (const CpuId cpu = part->after_wake_affine(s, w, sd, target, rec); cpu != kNoCpu)
            return cpu;
    return kNoCpu;
}

CpuId CompositePolicy::before_select_idle_sibling(const SchedState& s, const WakeupArgs& w, CpuId target,
                                                  DecisionRecord* rec) const
{
    for (const auto& part : parts_)
        if (const CpuId cpu = part->before_select_idle_sibling(s, w, target, rec); cpu != kNoCpu)
            return cpu;
    return kNoCpu;
}

CpuId CompositePolicy::select_idle_sibling_entry(const SchedState& s, const WakeupArgs& w, CpuId target,
                                                 DecisionRecord* rec) const
{
    for (const auto& part : parts_)
        if (const CpuId cpu = part->select_idle_sibling_entry(s, w, target, rec); cpu != kNoCpu)
            return cpu;
    return kNoCpu;
}

PlacementPolicy::AfterRecentUsedCpu CompositePolicy::after_recent_used_cpu(const SchedState& s, const WakeupArgs& w,
                                                                           CpuId target, DecisionRecord* rec) const
{
    AfterRecentUsedCpu out;
    for (const auto& part : parts_) {
        const AfterRecentUsedCpu r = part->after_recent_used_cpu(s, w, target, rec);
        out.skip_smt_sibling = out.skip_smt_sibling || r.skip_smt_sibling;
        if (r.cpu != kNoCpu) {
            out.cpu = r.cpu;
            break;
        }
    }
    return out;
}

CpuId CompositePolicy::select_idle_core_busy(const SchedState& s, const WakeupArgs& w, CpuId core, const CpuMask& cpus,
                                             DecisionRecord* rec) const
{
    for (const auto& part : parts_)
        if (const CpuId cpu = part->select_idle_core_busy(s, w, core, cpus, rec); cpu != kNoCpu)
            return cpu;
    return kNoCpu;
}

CpuId CompositePolicy::idle_search_return(const SchedState& s, TaskId p, IdleSearchReturn where, CpuId cpu,
                                          bool idle_core, const CpuMask& cpus, DecisionRecord* rec) const
{
    for (const auto& part : parts_)
        if (const CpuId other = part->idle_search_return(s, p, where, cpu, idle_core, cpus, rec); other != kNoCpu)
            return other;
    return kNoCpu;
}

void CompositePolicy::adjust_domain_options(DomainOptions& options) const
{
    for (const auto& part : parts_)
        part->adjust_domain_options(options);
}

bool CompositePolicy::imbalanced_active_balance_now(const SchedState& s, int sd, CpuId dst_cpu, CpuId src_cpu) const
{
    for (const auto& part : parts_)
        if (part->imbalanced_active_balance_now(s, sd, dst_cpu, src_cpu))
            return true;
    return false;
}

std::optional<bool> CompositePolicy::sched_asym_prefer(const SchedState& s, int sd, CpuId a, CpuId b) const
{
    for (const auto& part : parts_)
        if (const std::optional<bool> r = part->sched_asym_prefer(s, sd, a, b))
            return r;
    return std::nullopt;
}

}  // namespace wb

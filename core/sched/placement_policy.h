// SPDX-License-Identifier: Apache-2.0
//
// PlacementPolicy: a proposed change to the fair class's wakeup placement,
// written as a patch over mainline: the interface the wakeup path calls, so
// it lives with the wakeup path. The shipped policies (policies/) implement
// it directly; a plugin's wakebench::Policy (the SDK, sdk/include/wakebench/)
// reaches it through plugin/plugin_policy.h. The wakeup path
// (sched/fair_select.cpp, sched/select_idle.cpp) calls the hooks below
// through SchedState::policy at the points where the public patches change
// it; each hook is named after that point and by default changes nothing
// (kNoCpu, false, no opinion).
// The base class itself is "baseline": mainline, no hook overridden.
//
// Contract of every placement hook:
//  - it returns kNoCpu (or leaves the flag clear) unless the patch changes
//    the decision at that point;
//  - when it does, it appends one DecisionStep to `rec` (when rec is not
//    null) whose function is the policy's name and whose branch and detail
//    say which condition held, with the CPU it returned as the step's result;
//  - when it declines at a point the patch hooks, it appends one step whose
//    function is the policy's name, whose branch is kNotTaken and whose
//    detail is the first condition that failed, in kernel terms and with the
//    values at hand ("SMT active", "waker cpu 3 runs 2 fair tasks"), so that
//    a record says why the patch did not act as well as why it did. A hook
//    consulted again within one wakeup with the same answer (once per
//    scanned core) does not repeat its step (note_declined());
//  - with rec null it builds no strings and allocates nothing: that is
//    the path every unrecorded wakeup takes;
//  - it reads the state and never writes it, so one policy object can serve
//    many runs at once (engine/batch.cpp) and the decision is the same with
//    or without a record.
//
// Switches: every condition or part of a patch can be turned off by name
// (`sync-waker-v3:smt_check=off`) for ablation; their meaning is in each
// policy's PolicyInfo. policies/registry.h builds policies from specs.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sched/decision.h"
#include "sched/fair_select.h"
#include "sched/sched_state.h"
#include "topology/sched_domains.h"
#include "wakebench/policy_info.h"

namespace wb {

// The branch of a policy's step when its hook was consulted and declined.
inline constexpr std::string_view kNotTaken = "not taken";

// What a policy says about itself, and the idle searches' return points: the
// SDK's types (sdk/include/wakebench/policy_info.h), shared with plugins.
using PolicySwitch = wakebench::PolicySwitch;
using PolicyInfo = wakebench::PolicyInfo;
using IdleSearchReturn = wakebench::IdleSearchReturn;

class PlacementPolicy {
public:
    // Baseline: mainline, no switches.
    PlacementPolicy();
    virtual ~PlacementPolicy() = default;
    PlacementPolicy(const PlacementPolicy&) = delete;
    PlacementPolicy& operator=(const PlacementPolicy&) = delete;

    static const PolicyInfo& baseline_info();

    // The user-visible name; the `function` of the policy's decision steps.
    virtual std::string_view name() const { return info_->name; }
    // The spec that builds this policy again: the name plus every switch
    // that differs from its default ("sync-waker-v3:smt_check=off").
    virtual std::string spec() const;
    // The switches this policy has (descriptions), and whether each is on.
    const std::vector<PolicySwitch>& switches() const { return info_->switches; }
    bool switch_on(std::string_view switch_name) const;
    // False for baseline itself, whose hooks all change nothing: the wakeup
    // path then skips their virtual calls (placement_hooks()).
    bool patches_placement() const { return patches_placement_; }

    // --- select_task_rq_fair() -------------------------------------------

    // The affine domain `sd` was found (want_affine, SD_WAKE_AFFINE, spans
    // prev) and wake_affine() has not run: a CPU returned here is the
    // answer, and neither wake_affine() nor select_idle_sibling() runs.
    virtual CpuId before_wake_affine(const SchedState& s, const WakeupArgs& w, int sd, DecisionRecord* rec) const;

    // wake_affine() chose `target` (prev when the waker is prev and it did
    // not run): a CPU returned here is the answer; select_idle_sibling() is
    // skipped.
    virtual CpuId after_wake_affine(const SchedState& s, const WakeupArgs& w, int sd, CpuId target,
                                    DecisionRecord* rec) const;

    // The fast path (a wakeup, no balance domain), before
    // select_idle_sibling(p, prev, target).
    virtual CpuId before_select_idle_sibling(const SchedState& s, const WakeupArgs& w, CpuId target,
                                             DecisionRecord* rec) const;

    // --- select_idle_sibling() -----------------------------------------------

    // The top of select_idle_sibling(), before "target idle".
    virtual CpuId select_idle_sibling_entry(const SchedState& s, const WakeupArgs& w, CpuId target,
                                            DecisionRecord* rec) const;

    struct AfterRecentUsedCpu {
        CpuId cpu = kNoCpu;             // the answer, if the patch has one here
        bool skip_smt_sibling = false;  // drop mainline's select_idle_smt() block before the LLC scan
    };
    // After the recent_used_cpu step (p->recent_used_cpu already holds
    // prev), before the asym-capacity and LLC searches.
    virtual AfterRecentUsedCpu after_recent_used_cpu(const SchedState& s, const WakeupArgs& w, CpuId target,
                                                     DecisionRecord* rec) const;

    // --- the idle searches -----------------------------------------------

    // select_idle_core() found a thread of `core`'s core not idle: a CPU
    // returned here is placed on as if the core were idle (`cpus` is the
    // scan's mask: the LLC and p's affinity).
    virtual CpuId select_idle_core_busy(const SchedState& s, const WakeupArgs& w, CpuId core, const CpuMask& cpus,
                                        DecisionRecord* rec) const;

    // An idle search is about to return `cpu` from `where`; `idle_core` is
    // what the search knows about cpu's core being wholly idle, `cpus` its
    // scan mask. A CPU returned here is returned instead.
    virtual CpuId idle_search_return(const SchedState& s, TaskId p, IdleSearchReturn where, CpuId cpu, bool idle_core,
                                     const CpuMask& cpus, DecisionRecord* rec) const;

    // --- sched domains and the load balancer -------------------------------

    // Before the run's sched domains are built (SchedDomains::build).
    virtual void adjust_domain_options(DomainOptions& options) const;

    // imbalanced_active_balance(): the balancer asks this where it tests
    // nr_balance_failed > cache_nice_tries + 2 (migration type "task"); true
    // allows the active balance now. `sd` is the balancing domain, seen from
    // dst_cpu (the balancing CPU).
    virtual bool imbalanced_active_balance_now(const SchedState& s, int sd, CpuId dst_cpu, CpuId src_cpu) const;

    // sched_asym_prefer(a, b) at an SD_ASYM_PACKING domain `sd`: whether a
    // is preferred over b. No opinion (nullopt) means mainline's
    // arch_asym_cpu_priority comparison (Machine asym_prio).
    virtual std::optional<bool> sched_asym_prefer(const SchedState& s, int sd, CpuId a, CpuId b) const;

protected:
    // A patch with `info`'s switches set to `on` (one per switch, in order).
    PlacementPolicy(const PolicyInfo& info, std::vector<bool> on);

    bool on(std::size_t switch_index) const { return on_[switch_index]; }

private:
    const PolicyInfo* info_;
    std::vector<bool> on_;
    bool patches_placement_;
};

// The policy whose placement hooks the wakeup path must call: null under
// mainline (no policy, or baseline), where every hook would answer "no
// change", so the hot path does not pay for virtual calls it cannot inline.
inline const PlacementPolicy* placement_hooks(const SchedState& s)
{
    return s.policy && s.policy->patches_placement() ? s.policy : nullptr;
}

// a+b+...: the parts' hooks in order. For a CPU the first part that decides
// wins; the flags (skip_smt_sibling, active balance now) OR together; domain
// options pass through every part.
class CompositePolicy final : public PlacementPolicy {
public:
    explicit CompositePolicy(std::vector<std::unique_ptr<PlacementPolicy>> parts);

    std::string_view name() const override { return name_; }
    std::string spec() const override;
    const std::vector<std::unique_ptr<PlacementPolicy>>& parts() const { return parts_; }

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
    std::vector<std::unique_ptr<PlacementPolicy>> parts_;
    std::string name_;
};

}  // namespace wb

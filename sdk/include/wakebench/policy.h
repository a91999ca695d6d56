// SPDX-License-Identifier: Apache-2.0
//
// wakebench::Policy: a proposed change to the fair class's wakeup placement,
// written as a patch over mainline. The simulated wakeup path calls each hook
// at the place in fair.c that its name gives (`wakesim list hooks` prints
// the table, docs/writing-a-policy.md explains it). Every hook by default
// changes nothing: kNoCpu, false, or no opinion.
//
// Contract of a placement hook:
//  - it returns kNoCpu unless the patch changes the decision at that point;
//    a CPU it returns must exist and be in p's affinity, or the run stops
//    with an error naming the policy, the hook and the wakeup;
//  - when it decides, it calls trace->step() (when trace is not null) with
//    the condition that held and the CPU; when it declines at a point the
//    patch hooks, trace->declined() with the first condition that failed, in
//    kernel terms and with the values at hand ("waker cpu 3 runs 2 fair
//    tasks"). The window lights these steps; `wakesim run --record` prints them;
//  - with trace null it builds no strings: that is every unrecorded wakeup;
//  - it only reads the state (SchedView) and keeps none of its own between
//    calls: one policy object serves many runs at once, in several threads.
// An exception thrown by a hook stops the run with the same kind of error.
// A crash inside a hook (a bad pointer, an abort) takes the process down:
// a plugin runs in wakesim's address space.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "wakebench/cpu_set.h"
#include "wakebench/policy_info.h"
#include "wakebench/sched_view.h"

// The version of the hook interface: the layout of Policy, SchedView, Trace
// and the plugin manifest. A plugin built against another version is
// refused at load with both numbers.
#define WAKEBENCH_HOOK_ABI_VERSION 1

namespace wakebench {

// The wakeup being placed: what select_task_rq_fair() was called with.
struct Wakeup {
    int p = kNoTask;                // the waking task
    int prev_cpu = kNoCpu;          // task_cpu(p) before this wakeup
    int this_cpu = kNoCpu;          // the waker's CPU (smp_processor_id())
    int current = kNoTask;          // the waker task; kNoTask when woken from an interrupt of the idle task
    bool sync = false;              // WF_SYNC from a waker that is not exiting
    bool in_task_context = true;    // false from an interrupt or softirq
};

// Where a hook says why it acted or declined. Null when the wakeup is not
// recorded: build no strings then.
class Trace {
public:
    virtual ~Trace() = default;
    // The hook decided: `branch` names the condition ("prev idle, same LLC"),
    // `detail` gives the values, `cpu` is the CPU it returned.
    virtual void step(std::string_view branch, std::string detail, int cpu) = 0;
    // The hook was consulted and left mainline's decision alone: `detail` is
    // the first condition that failed. Repeats within a wakeup are folded.
    virtual void declined(std::string detail) = 0;
    // A CPU the hook examined, as the idle scans list theirs.
    virtual void scanned(int cpu) = 0;
};

// after_recent_used_cpu()'s answer.
struct AfterRecentUsedCpu {
    int cpu = kNoCpu;               // the answer, if the patch has one here
    bool skip_smt_sibling = false;  // drop mainline's select_idle_smt() block before the LLC scan
};

// How the sched domains are built (adjust_domain_options()).
struct DomainOptions {
    int node_reclaim_distance = -1;  // overrides the machine's node_reclaim_distance when >= 0
    int relax_domain_level = -1;     // sched_relax_domain_level; -1 = off
    bool sched_cluster = true;       // CONFIG_SCHED_CLUSTER and the cluster level in use
    bool smt_asym_packing = false;   // SD_ASYM_PACKING on the SMT level (POWER7's ASYM_SMT)
};

class Policy {
public:
    // `on` holds one value per switch of `info`, in order (the registry
    // fills it from the spec: `my-idea:llc=off`).
    Policy(const PolicyInfo& info, std::vector<bool> on) : info_(&info), on_(std::move(on)) {}
    virtual ~Policy() = default;
    Policy(const Policy&) = delete;
    Policy& operator=(const Policy&) = delete;

    const PolicyInfo& info() const { return *info_; }
    std::string_view name() const { return info_->name; }

    // --- select_task_rq_fair() -----------------------------------------------

    // The affine domain `sd` was found (want_affine, SD_WAKE_AFFINE, spans
    // prev) and wake_affine() has not run: a CPU returned here is the answer;
    // neither wake_affine() nor select_idle_sibling() runs.
    virtual int before_wake_affine(const SchedView&, const Wakeup&, int /*sd*/, Trace*) const { return kNoCpu; }
    // wake_affine() chose `target`: a CPU returned here is the answer;
    // select_idle_sibling() is skipped.
    virtual int after_wake_affine(const SchedView&, const Wakeup&, int /*sd*/, int /*target*/, Trace*) const
    {
        return kNoCpu;
    }
    // The fast path (a wakeup, no balance domain), before
    // select_idle_sibling(p, prev, target).
    virtual int before_select_idle_sibling(const SchedView&, const Wakeup&, int /*target*/, Trace*) const
    {
        return kNoCpu;
    }

    // --- select_idle_sibling() -------------------------------------------------

    // The top of select_idle_sibling(), before "target idle".
    virtual int select_idle_sibling_entry(const SchedView&, const Wakeup&, int /*target*/, Trace*) const
    {
        return kNoCpu;
    }
    // After the recent_used_cpu step, before the asym-capacity and LLC searches.
    virtual AfterRecentUsedCpu after_recent_used_cpu(const SchedView&, const Wakeup&, int /*target*/, Trace*) const
    {
        return {};
    }

    // --- the idle searches -------------------------------------------------------

    // select_idle_core() found a thread of `core`'s core busy: a CPU returned
    // here is placed on as if the core were idle (`cpus`: the scan's mask).
    virtual int select_idle_core_busy(const SchedView&, const Wakeup&, int /*core*/, const CpuSet& /*cpus*/,
                                      Trace*) const
    {
        return kNoCpu;
    }
    // An idle search is about to return `cpu` from `where`; `idle_core` says
    // whether the search knows cpu's core to be wholly idle. A CPU returned
    // here is returned instead.
    virtual int idle_search_return(const SchedView&, int /*p*/, IdleSearchReturn /*where*/, int /*cpu*/,
                                   bool /*idle_core*/, const CpuSet& /*cpus*/, Trace*) const
    {
        return kNoCpu;
    }

    // --- sched domains and the load balancer ---------------------------------------

    // Before the run's sched domains are built.
    virtual void adjust_domain_options(DomainOptions&) const {}
    // imbalanced_active_balance(): true allows an active balance now, where
    // the kernel waits for nr_balance_failed > cache_nice_tries + 2.
    virtual bool imbalanced_active_balance_now(const SchedView&, int /*sd*/, int /*dst_cpu*/, int /*src_cpu*/) const
    {
        return false;
    }
    // sched_asym_prefer(a, b) at an SD_ASYM_PACKING domain: whether a is
    // preferred; no opinion (nullopt) keeps arch_asym_cpu_priority().
    virtual std::optional<bool> sched_asym_prefer(const SchedView&, int /*sd*/, int /*a*/, int /*b*/) const
    {
        return std::nullopt;
    }

protected:
    // Whether switch `index` of info().switches is on.
    bool on(std::size_t index) const { return on_[index]; }

private:
    const PolicyInfo* info_;
    std::vector<bool> on_;
};

// --- the plugin's entry points ---------------------------------------------------

struct PolicyEntry {
    const PolicyInfo& (*info)();
    std::unique_ptr<Policy> (*make)(std::vector<bool> on);
};

struct PluginManifest {
    const PolicyEntry* policies;
    std::size_t count;
};

namespace detail {
template <typename... P>
const PluginManifest* manifest()
{
    static const PolicyEntry kEntries[] = {
        {&P::info, [](std::vector<bool> on) -> std::unique_ptr<Policy> { return std::make_unique<P>(std::move(on)); }}...};
    static const PluginManifest kManifest{kEntries, sizeof...(P)};
    return &kManifest;
}
}  // namespace detail

}  // namespace wakebench

// WAKEBENCH_PLUGIN(MyPolicy, ...): makes this shared library a plugin that
// provides the listed policies. Each class derives from wakebench::Policy,
// has `static const wakebench::PolicyInfo& info()` and a constructor taking
// `std::vector<bool> on`. Use it once, in one source file.
#define WAKEBENCH_PLUGIN(...)                                                                    \
    extern "C" __attribute__((visibility("default"))) int wakebench_hook_abi_version()           \
    {                                                                                            \
        return WAKEBENCH_HOOK_ABI_VERSION;                                                       \
    }                                                                                            \
    extern "C" __attribute__((visibility("default"))) const ::wakebench::PluginManifest*         \
    wakebench_plugin_manifest()                                                                  \
    {                                                                                            \
        return ::wakebench::detail::manifest<__VA_ARGS__>();                                     \
    }

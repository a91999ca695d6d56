// SPDX-License-Identifier: Apache-2.0
#include "plugin/plugin_policy.h"

#include <exception>
#include <functional>
#include <mutex>
#include <set>
#include <string>

#include "plugin/policy_error.h"
#include "policies/policy_util.h"
#include "sched/fair_util.h"
#include "sched/lb_util.h"
#include "sched/select_idle.h"
#include "topology/sd_flags.h"

namespace wb {
namespace {

// The SDK spells the SD_* bits itself so that plugins need no engine header;
// they must be the engine's.
static_assert(wakebench::SD_BALANCE_NEWIDLE == SD_BALANCE_NEWIDLE && wakebench::SD_BALANCE_EXEC == SD_BALANCE_EXEC &&
              wakebench::SD_BALANCE_FORK == SD_BALANCE_FORK && wakebench::SD_BALANCE_WAKE == SD_BALANCE_WAKE &&
              wakebench::SD_WAKE_AFFINE == SD_WAKE_AFFINE && wakebench::SD_ASYM_CPUCAPACITY == SD_ASYM_CPUCAPACITY &&
              wakebench::SD_ASYM_CPUCAPACITY_FULL == SD_ASYM_CPUCAPACITY_FULL &&
              wakebench::SD_SHARE_CPUCAPACITY == SD_SHARE_CPUCAPACITY && wakebench::SD_CLUSTER == SD_CLUSTER &&
              wakebench::SD_SHARE_LLC == SD_SHARE_LLC && wakebench::SD_SERIALIZE == SD_SERIALIZE &&
              wakebench::SD_ASYM_PACKING == SD_ASYM_PACKING && wakebench::SD_PREFER_SIBLING == SD_PREFER_SIBLING &&
              wakebench::SD_NUMA == SD_NUMA);
static_assert(wakebench::kNoCpu == kNoCpu && wakebench::kNoTask == kNoTask);

wakebench::CpuSet view_of(const CpuMask& mask)
{
    return {mask.words().data(), mask.nr_cpus()};
}

// The engine's state through the SDK's read-only interface. Built on the
// stack for one hook call: two pointers and, only for a CPU without SMT
// siblings, a one-CPU mask.
class StateView final : public wakebench::SchedView {
public:
    explicit StateView(const SchedState& s) : s_(s) {}

    int nr_cpu_ids() const override { return s_.nr_cpus; }
    bool sched_smt_active() const override { return s_.domains->sched_smt_active(); }
    bool sched_asym_cpucapacity() const override { return s_.domains->sched_asym_cpucapacity(); }
    bool sched_energy_enabled() const override { return s_.eas_enabled; }
    bool cpus_share_cache(int a, int b) const override { return s_.domains->cpus_share_cache(a, b); }
    wakebench::CpuSet cpu_smt_mask(int cpu) const override
    {
        const std::vector<int>& chain = s_.domains->domains_of(cpu);
        if (!chain.empty()) {
            const SchedDomain& d = s_.domains->domain(chain.front());
            if (d.flags & SD_SHARE_CPUCAPACITY)
                return view_of(d.span);
        }
        single_ = CpuMask::of(s_.nr_cpus, {cpu});
        return view_of(single_);
    }
    std::span<const int> for_each_domain(int cpu) const override { return s_.domains->domains_of(cpu); }
    wakebench::CpuSet sched_domain_span(int sd) const override { return view_of(s_.domains->domain(sd).span); }
    unsigned sd_flags(int sd) const override { return s_.domains->domain(sd).flags; }
    std::string_view sd_name(int sd) const override { return s_.domains->domain(sd).name; }
    int sd_llc(int cpu) const override { return s_.domains->shortcuts(cpu).sd_llc; }
    int arch_asym_cpu_priority(int cpu) const override { return cpu_topo(cpu).asym_prio; }
    double cpu_speed(int cpu) const override { return cpu_topo(cpu).speed; }

    bool idle_cpu(int cpu) const override { return wb::idle_cpu(s_.rq(cpu)); }
    bool available_idle_cpu(int cpu) const override { return wb::available_idle_cpu(s_.rq(cpu)); }
    bool sched_idle_cpu(int cpu) const override { return sched_idle_rq(s_.rq(cpu)); }
    bool choose_idle_cpu(int cpu, int p) const override { return wb::choose_idle_cpu(s_, cpu, s_.task(p)); }
    unsigned nr_running(int cpu) const override { return s_.rq(cpu).nr_running; }
    unsigned h_nr_runnable(int cpu) const override { return s_.rq(cpu).cfs.h_nr_runnable; }
    unsigned long capacity_of(int cpu) const override
    {
        return static_cast<unsigned long>(wb::capacity_of(s_, cpu));
    }
    unsigned long arch_scale_cpu_capacity(int cpu) const override
    {
        return static_cast<unsigned long>(wb::arch_scale_cpu_capacity(s_, cpu));
    }
    unsigned long cpu_util_cfs(int cpu) const override { return wb::cpu_util_cfs(s_, cpu); }
    bool cpu_overutilized(int cpu) const override { return wb::cpu_overutilized(s_, cpu); }
    bool test_idle_cores(int cpu) const override { return wb::test_idle_cores(s_, cpu); }
    int util_fits_cpu(unsigned long util, unsigned long uclamp_min, unsigned long uclamp_max, int cpu) const override
    {
        return wb::util_fits_cpu(s_, util, uclamp_min, uclamp_max, cpu);
    }
    bool asym_fits_cpu(unsigned long util, unsigned long uclamp_min, unsigned long uclamp_max, int cpu) const override
    {
        return wb::asym_fits_cpu(s_, util, uclamp_min, uclamp_max, cpu);
    }

    bool cpus_allowed(int p, int cpu) const override { return s_.task(p).cpus_allowed.test(cpu); }
    int task_cpu(int p) const override { return s_.task(p).cpu; }
    int last_wakee(int p) const override { return s_.task(p).last_wakee; }
    unsigned wakee_flips(int p) const override { return s_.task(p).wakee_flips; }
    int recent_used_cpu(int p) const override { return s_.task(p).recent_used_cpu; }
    bool sched_idle_task(int p) const override { return s_.task(p).policy == SchedPolicy::Idle; }
    unsigned long task_util_est(int p) const override { return wb::task_util_est(synced_avg(s_, p)); }
    bool task_fits_cpu(int p, int cpu) const override { return wb::task_fits_cpu(s_, p, cpu); }
    std::int64_t now_ns() const override { return s_.now.ns(); }

private:
    const CpuTopo& cpu_topo(int cpu) const { return s_.machine->cpus[static_cast<std::size_t>(cpu)]; }

    const SchedState& s_;
    mutable CpuMask single_;
};

// Branch labels a plugin passes are its own strings, perhaps temporaries;
// a DecisionStep keeps a string_view that outlives the hook (and, after a
// reload, the plugin's first copy). They are interned once per distinct
// label, for the life of the process: a policy has a handful.
std::string_view intern(std::string_view label)
{
    static std::mutex mutex;
    static std::set<std::string, std::less<>> labels;
    const std::lock_guard<std::mutex> lock(mutex);
    auto it = labels.find(label);
    if (it == labels.end())
        it = labels.emplace(label).first;
    return *it;
}

// The plugin's trace calls, as steps of the wakeup's record.
class RecordTrace final : public wakebench::Trace {
public:
    RecordTrace(DecisionRecord* rec, std::string_view policy) : rec_(rec), policy_(policy) {}

    wakebench::Trace* get() { return rec_ ? this : nullptr; }

    void step(std::string_view branch, std::string detail, int cpu) override
    {
        note(rec_, policy_, intern(branch), std::move(detail), cpu);
    }
    void declined(std::string detail) override { note_declined(rec_, policy_, std::move(detail)); }
    void scanned(int cpu) override { rec_->scanned.push_back(cpu); }

private:
    DecisionRecord* rec_;
    std::string_view policy_;
};

wakebench::Wakeup wakeup_of(const WakeupArgs& w)
{
    wakebench::Wakeup out;
    out.p = w.p;
    out.prev_cpu = w.prev;
    out.this_cpu = w.waker.cpu;
    out.current = w.waker.task;
    out.sync = w.sync;
    out.in_task_context = w.waker.in_task_context;
    return out;
}

// One call of a plugin's hook, for its error messages: which policy, which
// hook, which wakeup (none for the load balancer's hooks).
struct HookCall {
    std::string_view policy;
    std::string_view hook;
    const SchedState& s;
    TaskId p = kNoTask;
    CpuId prev = kNoCpu;
    CpuId waker_cpu = kNoCpu;

    // "policy 'my-idea', hook before_select_idle_sibling, wakeup of task 3
    // (prev cpu 2, waker cpu 5) at 12345 ns"; the idle searches' hook is not
    // told the waker.
    std::string where() const
    {
        std::string out = cat("policy '", policy, "', hook ", hook);
        if (p != kNoTask)
            out += cat(", wakeup of task ", p, " (prev cpu ", prev,
                       waker_cpu == kNoCpu ? std::string() : cat(", waker cpu ", waker_cpu), ")");
        return out + cat(" at ", s.now.ns(), " ns");
    }

    // Runs the hook; a throw becomes a PolicyError naming this call.
    template <typename F>
    auto guard(F&& call) const
    {
        try {
            return call();
        } catch (const std::exception& e) {
            throw PolicyError(where() + ": threw: " + e.what());
        } catch (...) {
            throw PolicyError(where() + ": threw a non-standard exception");
        }
    }

    // A CPU the hook returned must exist and be one p may run on.
    CpuId check(CpuId cpu) const
    {
        if (cpu == kNoCpu)
            return cpu;
        if (cpu < 0 || cpu >= s.nr_cpus)
            throw PolicyError(where() + cat(": returned cpu ", cpu, ", outside the machine's CPUs 0-", s.nr_cpus - 1));
        if (p != kNoTask && !s.task(p).cpus_allowed.test(cpu))
            throw PolicyError(where() + cat(": returned cpu ", cpu, ", outside task ", p, "'s affinity"));
        return cpu;
    }

    template <typename F>
    CpuId cpu_hook(F&& call) const
    {
        return check(guard(call));
    }
};

}  // namespace

PluginPolicy::PluginPolicy(const PolicyInfo& info, std::vector<bool> on, std::unique_ptr<wakebench::Policy> impl)
    : PlacementPolicy(info, std::move(on)), impl_(std::move(impl))
{
}

PluginPolicy::~PluginPolicy() = default;

CpuId PluginPolicy::before_wake_affine(const SchedState& s, const WakeupArgs& w, int sd, DecisionRecord* rec) const
{
    const StateView view(s);
    RecordTrace trace(rec, name());
    return HookCall{name(), "before_wake_affine", s, w.p, w.prev, w.waker.cpu}.cpu_hook(
        [&] { return impl_->before_wake_affine(view, wakeup_of(w), sd, trace.get()); });
}

CpuId PluginPolicy::after_wake_affine(const SchedState& s, const WakeupArgs& w, int sd, CpuId target,
                                      DecisionRecord* rec) const
{
    const StateView view(s);
    RecordTrace trace(rec, name());
    return HookCall{name(), "after_wake_affine", s, w.p, w.prev, w.waker.cpu}.cpu_hook(
        [&] { return impl_->after_wake_affine(view, wakeup_of(w), sd, target, trace.get()); });
}

CpuId PluginPolicy::before_select_idle_sibling(const SchedState& s, const WakeupArgs& w, CpuId target,
                                               DecisionRecord* rec) const
{
    const StateView view(s);
    RecordTrace trace(rec, name());
    return HookCall{name(), "before_select_idle_sibling", s, w.p, w.prev, w.waker.cpu}.cpu_hook(
        [&] { return impl_->before_select_idle_sibling(view, wakeup_of(w), target, trace.get()); });
}

CpuId PluginPolicy::select_idle_sibling_entry(const SchedState& s, const WakeupArgs& w, CpuId target,
                                              DecisionRecord* rec) const
{
    const StateView view(s);
    RecordTrace trace(rec, name());
    return HookCall{name(), "select_idle_sibling_entry", s, w.p, w.prev, w.waker.cpu}.cpu_hook(
        [&] { return impl_->select_idle_sibling_entry(view, wakeup_of(w), target, trace.get()); });
}

PlacementPolicy::AfterRecentUsedCpu PluginPolicy::after_recent_used_cpu(const SchedState& s, const WakeupArgs& w,
                                                                        CpuId target, DecisionRecord* rec) const
{
    const StateView view(s);
    RecordTrace trace(rec, name());
    const HookCall call{name(), "after_recent_used_cpu", s, w.p, w.prev, w.waker.cpu};
    const wakebench::AfterRecentUsedCpu got =
        call.guard([&] { return impl_->after_recent_used_cpu(view, wakeup_of(w), target, trace.get()); });
    return {call.check(got.cpu), got.skip_smt_sibling};
}

CpuId PluginPolicy::select_idle_core_busy(const SchedState& s, const WakeupArgs& w, CpuId core, const CpuMask& cpus,
                                          DecisionRecord* rec) const
{
    const StateView view(s);
    RecordTrace trace(rec, name());
    return HookCall{name(), "select_idle_core_busy", s, w.p, w.prev, w.waker.cpu}.cpu_hook(
        [&] { return impl_->select_idle_core_busy(view, wakeup_of(w), core, view_of(cpus), trace.get()); });
}

CpuId PluginPolicy::idle_search_return(const SchedState& s, TaskId p, IdleSearchReturn where, CpuId cpu,
                                       bool idle_core, const CpuMask& cpus, DecisionRecord* rec) const
{
    const StateView view(s);
    RecordTrace trace(rec, name());
    return HookCall{name(), "idle_search_return", s, p, s.task(p).cpu, kNoCpu}.cpu_hook(
        [&] { return impl_->idle_search_return(view, p, where, cpu, idle_core, view_of(cpus), trace.get()); });
}

void PluginPolicy::adjust_domain_options(DomainOptions& options) const
{
    wakebench::DomainOptions o;
    o.node_reclaim_distance = options.node_reclaim_distance;
    o.relax_domain_level = options.relax_domain_level;
    o.sched_cluster = options.sched_cluster;
    o.smt_asym_packing = options.smt_asym_packing;
    const std::string hook = cat("policy '", name(), "', hook adjust_domain_options");
    try {
        impl_->adjust_domain_options(o);
    } catch (const std::exception& e) {
        throw PolicyError(hook + ": threw: " + e.what());
    } catch (...) {
        throw PolicyError(hook + ": threw a non-standard exception");
    }
    options.node_reclaim_distance = o.node_reclaim_distance;
    options.relax_domain_level = o.relax_domain_level;
    options.sched_cluster = o.sched_cluster;
    options.smt_asym_packing = o.smt_asym_packing;
}

bool PluginPolicy::imbalanced_active_balance_now(const SchedState& s, int sd, CpuId dst_cpu, CpuId src_cpu) const
{
    const StateView view(s);
    return HookCall{name(), "imbalanced_active_balance_now", s}.guard(
        [&] { return impl_->imbalanced_active_balance_now(view, sd, dst_cpu, src_cpu); });
}

std::optional<bool> PluginPolicy::sched_asym_prefer(const SchedState& s, int sd, CpuId a, CpuId b) const
{
    const StateView view(s);
    return HookCall{name(), "sched_asym_prefer", s}.guard([&] { return impl_->sched_asym_prefer(view, sd, a, b); });
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// What the policy tests share: the world of tests/core/sched/sched_world.h
// (a synthetic machine with its domains and a scheduler state built in
// place, tasks placed by hand), and wakeups run under a policy spec on a
// copy of the state, so that one state can be woken under baseline and
// under a policy and the two decisions compared.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "policies/registry.h"
#include "sched/fair_select.h"
#include "sched/select_idle.h"
#include "topology/synthetic.h"

#include "../sched/sched_world.h"

namespace wb::test {

struct World : SchedWorld {
    explicit World(std::string_view spec, DomainOptions opt = {}) : SchedWorld(spec, FeatureSet(), opt)
    {
        allow_idle_scans();
    }
    explicit World(Machine machine, DomainOptions opt = {}) : SchedWorld(std::move(machine), FeatureSet(), opt)
    {
        allow_idle_scans();
    }

    // One more runnable fair task waiting on `cpu`'s runqueue.
    void queue_on(CpuId cpu)
    {
        Rq& rq = s.rq(cpu);
        ++rq.nr_running;
        ++rq.cfs.h_nr_queued;
        ++rq.cfs.h_nr_runnable;
    }

    void set_idle_cores_hint(CpuId cpu, bool on) { shared(d.shortcuts(cpu).sd_balance_shared).has_idle_cores = on; }

    // The waker running on `cpu` (its current task, in task context).
    WakerContext waker_on(CpuId cpu) const { return WakerContext{cpu, s.rq(cpu).curr, s.rq(cpu).curr != kNoTask}; }

    // p woken from `waker` under policy `spec`, on a copy of the state: the
    // World is unchanged, so the same wakeup can be asked of several policies.
    CpuId wake_under(std::string_view spec, const WakerContext& waker, TaskId p, unsigned int flags,
                     DecisionRecord* rec = nullptr, WakePath* path = nullptr) const
    {
        const std::unique_ptr<PlacementPolicy> policy = make_policy(spec);
        SchedState copy = s;
        copy.policy = policy.get();
        return select_task_rq_fair(copy, waker, p, copy.task(p).wake_cpu, flags, rec, path);
    }
    CpuId wake_under(std::string_view spec, CpuId waker_cpu, TaskId p, unsigned int flags,
                     DecisionRecord* rec = nullptr, WakePath* path = nullptr) const
    {
        return wake_under(spec, waker_on(waker_cpu), p, flags, rec, path);
    }

    // select_idle_sibling() alone under `spec`, on a copy of the state.
    CpuId sis_under(std::string_view spec, const WakerContext& waker, TaskId p, CpuId prev, CpuId target, bool sync,
                    DecisionRecord* rec = nullptr, WakePath* path = nullptr) const
    {
        const std::unique_ptr<PlacementPolicy> policy = make_policy(spec);
        SchedState copy = s;
        copy.policy = policy.get();
        WakePath ignored = WakePath::Count;
        return select_idle_sibling(copy, waker, p, prev, target, rec, path ? path : &ignored, sync);
    }
};

// A reciprocal pair: `waker` runs alone on waker_cpu, `wakee` sleeps with
// prev `prev` and last woke the waker (p->last_wakee == current).
struct Pair {
    TaskId waker = kNoTask;
    TaskId wakee = kNoTask;
};

inline Pair reciprocal_pair(World& w, CpuId waker_cpu, CpuId prev)
{
    Pair pair;
    pair.waker = w.run_on(waker_cpu);
    pair.wakee = w.add_task(prev);
    w.s.task(pair.wakee).last_wakee = pair.waker;
    return pair;
}

inline bool is_policy_step(const DecisionStep& st)
{
    const std::vector<const PolicyInfo*>& catalog = policy_catalog();
    return std::any_of(catalog.begin(), catalog.end(),
                       [&](const PolicyInfo* info) { return st.function == info->name; });
}

// The steps in which a policy (not the kernel) changed the decision: their
// function is a registered policy's name and their branch is not kNotTaken.
inline std::vector<DecisionStep> policy_steps(const DecisionRecord& rec)
{
    std::vector<DecisionStep> out;
    for (const DecisionStep& st : rec.steps)
        if (is_policy_step(st) && st.branch != kNotTaken)
            out.push_back(st);
    return out;
}

// The steps in which a policy was consulted and declined (kNotTaken).
inline std::vector<DecisionStep> declined_steps(const DecisionRecord& rec)
{
    std::vector<DecisionStep> out;
    for (const DecisionStep& st : rec.steps)
        if (is_policy_step(st) && st.branch == kNotTaken)
            out.push_back(st);
    return out;
}

inline bool has_step(const DecisionRecord& rec, std::string_view function)
{
    return std::any_of(rec.steps.begin(), rec.steps.end(),
                       [&](const DecisionStep& st) { return st.function == function; });
}

}  // namespace wb::test

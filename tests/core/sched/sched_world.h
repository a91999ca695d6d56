// SPDX-License-Identifier: Apache-2.0
//
// What the wakeup-placement tests share (tests/core/sched and
// tests/core/policies): a machine, its domains and a scheduler state over
// them, built in place (the state points at the machine and the domains),
// and tasks placed on it by hand. Each test file derives its own World with
// the helpers only it needs.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "sched/fair_select.h"
#include "sched/sched_state.h"
#include "topology/sched_domains.h"
#include "topology/synthetic.h"

namespace wb::test {

struct SchedWorld {
    Machine m;
    SchedDomains d;
    SchedState s;
    // Whether new tasks start with recent_used_cpu set to their CPU (as if
    // already woken there once) rather than to none.
    bool recent_used_is_prev = false;

    explicit SchedWorld(Machine machine, const FeatureSet& feats = FeatureSet(), const DomainOptions& opt = {})
        : m(std::move(machine)), d(SchedDomains::build(m, opt)), s(make_sched_state(m, d, feats))
    {
    }
    explicit SchedWorld(std::string_view spec, const FeatureSet& feats = FeatureSet(), const DomainOptions& opt = {})
        : SchedWorld(parse_synthetic(spec), feats, opt)
    {
    }
    SchedWorld(const SchedWorld&) = delete;
    SchedWorld& operator=(const SchedWorld&) = delete;

    // As after a first periodic balance of an idle machine: scans allowed.
    void allow_idle_scans()
    {
        for (std::size_t id = 0; id < d.domains().size(); ++id)
            if (d.domains()[id].has_shared)
                s.shared[id].nr_idle_scan = d.domains()[id].span_weight;
    }

    // A sleeping task that last ran on `cpu`, allowed everywhere.
    TaskId add_task(CpuId cpu)
    {
        Task t;
        t.id = static_cast<TaskId>(s.tasks.size());
        t.name = "t" + std::to_string(t.id);
        t.cpus_allowed = m.all_cpus();
        t.nr_cpus_allowed = m.nr_cpus();
        t.cpu = cpu;
        t.wake_cpu = cpu;
        if (recent_used_is_prev)
            t.recent_used_cpu = cpu;
        s.tasks.push_back(t);
        return t.id;
    }

    // A new task running on `cpu`.
    TaskId run_on(CpuId cpu, SchedPolicy policy = SchedPolicy::Normal)
    {
        const TaskId id = add_task(cpu);
        Task& t = s.task(id);
        t.state = TaskState::Running;
        t.policy = policy;
        t.se.on_rq = true;
        Rq& rq = s.rq(cpu);
        rq.curr = id;
        rq.cfs.curr = id;
        ++rq.nr_running;
        ++rq.cfs.h_nr_queued;
        ++rq.cfs.h_nr_runnable;
        if (policy == SchedPolicy::Idle)
            ++rq.cfs.h_nr_idle;
        return id;
    }

    void run_on_all_but(std::initializer_list<CpuId> idle)
    {
        for (CpuId c = 0; c < m.nr_cpus(); ++c)
            if (std::find(idle.begin(), idle.end(), c) == idle.end())
                run_on(c);
    }

    int llc(CpuId cpu) const { return d.shortcuts(cpu).sd_llc; }
    SharedDomainState& shared(int domain) { return s.shared[static_cast<std::size_t>(domain)]; }
};

// A wakeup from an interrupt on `cpu`.
inline WakerContext irq_on(CpuId cpu)
{
    return WakerContext{cpu, kNoTask, false};
}

}  // namespace wb::test

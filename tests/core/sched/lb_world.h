// SPDX-License-Identifier: Apache-2.0
//
// What the load balancer's unit tests share: a synthetic machine, its
// domains, the scheduler and balancer state over them, and tasks queued for
// real (EEVDF and PELT) whose runqueues' PELT signals are then set by hand.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "sched/eevdf.h"
#include "sched/load_balance.h"
#include "topology/synthetic.h"

namespace wb::test {

// The state at 100 ms into a run.
struct Lb {
    explicit Lb(std::string_view spec, std::string_view features = "")
        : m(parse_synthetic(spec)), d(SchedDomains::build(m))
    {
        FeatureSet feats;
        EXPECT_EQ(feats.apply(features), "");
        s = make_sched_state(m, d, feats);
        s.now = Time::ms(100);
        lb = make_load_balance_state(s);
    }
    Lb(const Lb&) = delete;
    Lb& operator=(const Lb&) = delete;

    TaskId add_task(CpuMask allowed = {})
    {
        Task t;
        t.id = static_cast<TaskId>(s.tasks.size());
        t.name = "t" + std::to_string(t.id);
        t.cpus_allowed = allowed.nr_cpus() ? allowed : m.all_cpus();
        t.nr_cpus_allowed = t.cpus_allowed.weight();
        t.se.slice = static_cast<std::uint64_t>(s.base_slice());
        set_load_weight(t);
        s.tasks.push_back(t);
        lb_task_created(lb, t.id);
        return t.id;
    }

    // A runnable task waiting on cpu's queue.
    TaskId queue_on(CpuId cpu, CpuMask allowed = {})
    {
        const TaskId id = add_task(std::move(allowed));
        enqueue_task_fair(s, cpu, id, ENQUEUE_WAKEUP);
        s.task(id).state = TaskState::Runnable;
        lb_task_enqueued(s, lb, id);
        return id;
    }

    // A task running on cpu (the first one queued there).
    TaskId run_on(CpuId cpu)
    {
        const TaskId id = queue_on(cpu);
        EXPECT_EQ(pick_next_task_fair(s, cpu), id);
        lb_task_picked(s, lb, cpu, id);
        return id;
    }

    void signals(CpuId cpu, unsigned long util, unsigned long runnable, unsigned long load)
    {
        SchedAvg& a = s.rq(cpu).cfs.avg;
        a.util_avg = util;
        a.runnable_avg = runnable;
        a.load_avg = load;
    }

    // Position of `name` in cpu's domain chain.
    int pos(CpuId cpu, std::string_view name) const
    {
        const std::vector<int>& chain = d.domains_of(cpu);
        for (std::size_t i = 0; i < chain.size(); ++i)
            if (d.domain(chain[i]).name == name)
                return static_cast<int>(i);
        ADD_FAILURE() << "cpu " << cpu << " has no " << name << " domain";
        return 0;
    }
    SdRuntime& rt(CpuId cpu, std::string_view name) { return lb.cpu(cpu).sd[static_cast<std::size_t>(pos(cpu, name))]; }
    // The index, in the domain's group list, of the group holding `cpu`.
    int group_holding(const LbEnv& env, CpuId cpu) const
    {
        const SchedDomain& sd = d.domain(env.sd);
        for (std::size_t k = 0; k < sd.groups.size(); ++k)
            if (d.group(sd.groups[k]).span.test(cpu))
                return static_cast<int>(k);
        return -1;
    }

    Machine m;
    SchedDomains d;
    SchedState s;
    LoadBalanceState lb;
};

}  // namespace wb::test

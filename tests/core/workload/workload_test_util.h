// SPDX-License-Identifier: Apache-2.0
//
// What the workload tests share: the teaching machine, a run of a workload
// spec with its wakeups recorded, and the message a bad spec is rejected
// with.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/simulator.h"
#include "io/input_error.h"
#include "topology/sd_flags.h"
#include "topology/synthetic.h"
#include "workload/workload_spec.h"

namespace wb::test {

// 4 cores of 2 threads in 2 LLCs, with round costs easy to add up by hand.
inline Machine teaching()
{
    Machine m = parse_synthetic("llc=2,core=2,smt=2");
    auto set = [&](Cost c, double v) { m.costs.at(c).value = v; };
    set(Cost::syscall, 100);
    set(Cost::pipe_transfer, 400);
    set(Cost::wakeup_local, 600);
    set(Cost::context_switch, 1500);
    set(Cost::wakeup_ipi, 1000);
    m.idle_states = {{"C1", 2000, 4000}, {"C6", 50000, 400000}};
    return m;
}

// The simulator's workload as its concrete type W.
template <class W>
const W& workload_as(const Simulator& sim)
{
    return dynamic_cast<const W&>(sim.workload());
}

struct Outcome {
    std::unique_ptr<Simulator> sim;
    std::vector<DecisionRecord> wakeups;  // try_to_wake_up()s, forks left out

    template <class W>
    const W& workload() const
    {
        return workload_as<W>(*sim);
    }
};

// `spec` run to its end on the teaching machine.
inline Outcome simulate(const std::string& spec)
{
    Outcome r;
    r.sim = std::make_unique<Simulator>(teaching(), make_workload(spec), SimOptions{});
    r.sim->set_record_sink([&r](const DecisionRecord& d) {
        if (d.wake_flags & WF_TTWU)
            r.wakeups.push_back(d);
    });
    EXPECT_TRUE(r.sim->run());
    return r;
}

// The message make_workload(spec) throws, or "no error".
inline std::string error_of(const std::string& spec)
{
    try {
        make_workload(spec);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace wb::test

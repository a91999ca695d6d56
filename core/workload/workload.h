// SPDX-License-Identifier: Apache-2.0
//
// Workload: what the simulated tasks do. A workload creates its tasks,
// and whenever one of them is on a CPU with its previous step done, it says
// what the task does next: compute for a while, block (sleep until woken),
// or exit. Effects between tasks (a pipe write waking its reader) happen
// through the Kernel interface when a step completes, exactly where the real
// program would make the system call.
#pragma once

#include <string>
#include <string_view>

#include "engine/sim_time.h"
#include "sched/task.h"

namespace wb {

class Kernel;

struct Step {
    enum class Kind { Compute, Block, Exit };
    Kind kind = Kind::Compute;
    Time work;  // Compute: CPU time at nominal speed (1.0, no SMT contention)

    static Step compute(Time t) { return {Kind::Compute, t}; }
    static Step block() { return {Kind::Block, Time()}; }
    static Step exit() { return {Kind::Exit, Time()}; }
};

// The headline figure of a run, as the real tool reports it.
struct Headline {
    std::string name;  // "usecs/op"
    double value = 0;
    std::string unit;  // "us"
    bool lower_is_better = true;
};

class Workload {
public:
    virtual ~Workload() = default;

    // Creates the tasks (Kernel::create_task) and wakes the first ones.
    virtual void setup(Kernel& k) = 0;

    // Task t is running and its previous step (if any) is complete: apply
    // that step's effects and return the next one.
    virtual Step next_step(Kernel& k, TaskId t) = 0;

    // True once the workload has done what it was asked (loops completed).
    virtual bool done() const = 0;

    // Units of work completed so far (pipe round trips, hackbench messages):
    // the numerator of ops/s.
    virtual double ops() const = 0;

    virtual Headline headline(Time elapsed) const = 0;

    // The result in the real tool's own layout ("Total time: ... [sec]").
    virtual std::string report(Time elapsed) const = 0;
};

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// Workload: what the simulated tasks do. A workload creates its tasks,
// and whenever one of them is on a CPU with its previous step done, it says
// what the task does next: compute for a while, block (sleep until woken),
// or exit. Effects between tasks (a pipe write waking its reader) happen
// through the Kernel interface when a step completes, exactly where the real
// program would make the system call.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/sim_time.h"
#include "sched/task.h"

namespace wb {

class Kernel;

struct Step {
    enum class Kind {
        Compute,  // run for `time` of CPU work at nominal speed (1.0, no SMT contention)
        Block,    // sleep until another task or an interrupt wakes it
        // Block in io_schedule(): the task sleeps with in_iowait set, so the
        // CPU it slept on counts it in nr_iowait and reports its idle time
        // as iowait until the wakeup.
        BlockIo,
        Sleep,    // sleep for `time`; a timer interrupt on this CPU wakes it (nanosleep, epoll timeouts)
        Yield,    // sched_yield(): give up the CPU, stay runnable
        Exit,
    };
    Kind kind = Kind::Compute;
    Time time;

    static Step compute(Time t) { return {Kind::Compute, t}; }
    static Step block() { return {Kind::Block, Time()}; }
    static Step block_io() { return {Kind::BlockIo, Time()}; }
    static Step sleep(Time t) { return {Kind::Sleep, t}; }
    static Step yield() { return {Kind::Yield, Time()}; }
    static Step exit() { return {Kind::Exit, Time()}; }
};
static_assert(sizeof(Step) == 16, "a Step is returned in two registers");

// The headline figure of a run, as the real tool reports it.
struct Headline {
    std::string name;  // "usecs/op"
    double value = 0;
    std::string unit;  // "us"
    bool lower_is_better = true;
};

// The progress of a run bounded by simulated time: `now` against `end`.
inline double time_progress(Time now, Time end)
{
    return end > Time() ? std::min(1.0, static_cast<double>(now.ns()) / static_cast<double>(end.ns())) : -1;
}

class Workload {
public:
    virtual ~Workload() = default;

    // Creates the tasks (Kernel::create_task) and wakes the first ones.
    virtual void setup(Kernel& k) = 0;

    // Task t is running and its previous step (if any) is complete: apply
    // that step's effects and return the next one.
    virtual Step next_step(Kernel& k, TaskId t) = 0;

    // A timer the workload started with Kernel::start_timer() fired (device
    // completions, request arrivals). Runs outside any task: wakeups from here
    // go through Kernel::wake_up_from_irq().
    virtual void on_timer(Kernel& k, std::int64_t token)
    {
        (void)k;
        (void)token;
    }

    // True once the workload has done what it was asked (loops completed).
    virtual bool done() const = 0;

    // Units of work completed so far (pipe round trips, hackbench messages):
    // the numerator of ops/s.
    virtual double ops() const = 0;
    // How far the run has come, from 0 to 1, for progress displays; below 0
    // when the workload cannot tell before it ends.
    virtual double progress(Time now) const
    {
        (void)now;
        return -1;
    }

    virtual Headline headline(Time elapsed) const = 0;

    // The result in the real tool's own layout ("Total time: ... [sec]").
    virtual std::string report(Time elapsed) const = 0;
};

}  // namespace wb

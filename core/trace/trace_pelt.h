// SPDX-License-Identifier: Apache-2.0
//
// TracePelt: PELT signals estimated from a trace. A trace carries no load
// or utilisation, but it carries the schedule they are computed from: when
// each task was runnable, when it ran, and on which CPU. Running the
// kernel's PELT sums (sched/pelt.h) over that history gives each task's and
// each CPU's load_avg, runnable_avg, util_avg and util_est, as the kernel
// would hold them, within what the trace cannot say:
//   - every CPU is taken at full capacity and maximum frequency: there are
//     no frequency events, so nothing is frequency-invariant;
//   - every task has nice 0's weight (the events' prio is not kept);
//   - tasks that exist before the trace starts begin with empty signals, so
//     the first ~100 ms of a trace (PELT's half-life is 32 ms) understate
//     them;
//   - there is no cgroup hierarchy: a task's load is its own (task_h_load).
//
// The estimator is told after each event which tasks and CPUs the event may
// have changed; it compares their state in TraceState with the state it
// last accounted for, and when that changed it first brings the signal up
// to the event's stamp under the old state, then takes the new one. A task
// that changes CPU leaves its contribution on the old CPU and brings it to
// the new one (detach / attach); a task that blocks updates its util_est.
#pragma once

#include <cstdint>
#include <vector>

#include "sched/pelt.h"
#include "trace/trace_state.h"

namespace wb {

class TracePelt {
public:
    explicit TracePelt(int nr_cpus);

    // The tasks and CPUs `ev` touched (its pids, its CPUs, the CPU's current
    // task before it) have their state in `state` taken in at ev.ts.
    // `curr_before` is ev.cpu's current task before the event was applied.
    void after_event(const TraceState& state, const TraceEvent& ev, int curr_before);

    // The signals as the kernel last updated them (not decayed to now).
    const SchedAvg& task(int index) const;
    const SchedAvg& cpu(int cpu) const { return cpus_[static_cast<std::size_t>(cpu)].avg; }
    // cpu_util_cfs(): max(util_avg, util_est), at most the CPU's capacity.
    unsigned long cpu_util(int cpu, long capacity) const;

private:
    struct Accounted {
        bool queued = false;   // counted as runnable (on a runqueue)
        bool running = false;  // its CPU's current task
        int cpu = -1;          // the CPU whose signals carry its contribution
    };
    struct TaskSignals {
        SchedAvg avg;
        Accounted as;
    };
    struct CpuSignals {
        SchedAvg avg;
        unsigned int nr_running = 0;
        bool busy = false;
    };

    void take_task(const TraceState& state, int index, std::uint64_t now);
    void take_cpu(const TraceState& state, int cpu, std::uint64_t now);
    void bring_cpu(int cpu, std::uint64_t now);  // to now under its accounted state

    std::vector<TaskSignals> tasks_;
    std::vector<CpuSignals> cpus_;
};

}  // namespace wb

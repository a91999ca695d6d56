// SPDX-License-Identifier: Apache-2.0
//
// RunMetrics: what one run measured, filled in by the engine as events
// happen. Bounded memory whatever the run length: counters, per-CPU times
// and histograms.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "base/sim_time.h"
#include "metrics/histogram.h"
#include "sched/decision.h"
#include "topology/distance.h"

namespace wb {

struct CpuTimes {
    Time busy;  // running a task or switching
    Time idle;
    // The part of `idle` that /proc/stat calls iowait: idle periods that
    // ended while a task which slept on this CPU in io_schedule() was still
    // asleep (nr_iowait > 0), as tick_nohz_stop_idle() classifies them.
    Time iowait;
};

struct RunMetrics {
    Histogram wakeup_latency;  // ns from try_to_wake_up() to the wakee running
    Histogram run_delay;       // ns each time a task waited runnable before it ran (sched_info run_delay)
    std::uint64_t wakeups = 0;
    std::uint64_t voluntary_switches = 0;    // the task blocked
    std::uint64_t involuntary_switches = 0;  // the task was preempted
    std::uint64_t switches_from_idle = 0;    // the idle task gave the CPU to a task
    // The same two, counted only for the workload's own tasks (not kernel
    // threads): what the program's getrusage() would report.
    std::uint64_t workload_voluntary_switches = 0;
    std::uint64_t workload_involuntary_switches = 0;
    std::uint64_t yields = 0;       // sched_yield() calls
    std::uint64_t idle_entries = 0;  // a CPU entered a cpuidle state (cpuidle's per-state `usage`, summed)
    Time irq_time;                  // kernel work done in interrupts (wakeups from device completions)
    Time runtime;                   // every task's sum_exec_runtime, at the end of the run
    // Payload bytes the workloads declared read (Kernel::note_data_read),
    // by where they were written relative to the reader's CPU.
    std::array<std::uint64_t, kDistanceClassCount> bytes_read{};
    std::uint64_t ipis = 0;                  // wake-list and reschedule IPIs sent
    // Wakeup selections that began while another CPU's was still open
    // (docs/model.md, Concurrent wakeups), and wakeups queued on a wakee
    // still switching out on its CPU (p->on_cpu), with no selection.
    std::uint64_t overlapping_selections = 0;
    std::uint64_t on_cpu_wakeups = 0;
    std::array<std::uint64_t, static_cast<std::size_t>(WakePath::Count)> wakeups_by_path{};
    std::array<std::uint64_t, kDistanceClassCount> placement_from_waker{};  // chosen CPU vs waker CPU
    std::array<std::uint64_t, kDistanceClassCount> placement_from_prev{};   // chosen CPU vs prev CPU
    std::array<std::uint64_t, kDistanceClassCount> migrations{};            // a task ran on another CPU than last time
    std::vector<CpuTimes> cpu_times;
    Time idle_while_waiting;  // some CPU idle while another had a runnable task waiting
    std::uint64_t events = 0;
};

}  // namespace wb

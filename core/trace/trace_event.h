// SPDX-License-Identifier: Apache-2.0
//
// TraceEvent: one line of a recorded trace, as the three text formats
// (tracefs, trace-cmd report, perf script) all carry it: which CPU's ring
// buffer it came from, its stamp, the task that was current there, and the
// fields of one of the five fair-class wakeup events (or a lost-events
// marker). Every format's parser produces these; nothing after parsing knows
// which format a line came from.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace wb {

enum class TraceEventKind {
    SchedWaking,       // try_to_wake_up() begins: target_cpu is task_cpu(p), the prev CPU
    SchedWakeup,       // ttwu_do_wakeup(): p is runnable, target_cpu is where it was queued
    SchedWakeupNew,    // wake_up_new_task(): a forked task's first placement
    SchedSwitch,       // __schedule() switched prev out and next in
    SchedMigrateTask,  // set_task_cpu() moved p from orig_cpu to dest_cpu
    LostEvents,        // the ring buffer of `cpu` dropped `lost` events here (0: a number it did not say)
    Count
};

inline constexpr std::array<std::string_view, static_cast<std::size_t>(TraceEventKind::Count)> kTraceEventNames{
    "sched_waking", "sched_wakeup", "sched_wakeup_new", "sched_switch", "sched_migrate_task", "lost events"};

// How prev left the CPU in a sched_switch, from its prev_state letters.
enum class PrevState {
    Runnable,  // "R" or "R+": preempted or yielded, still on its runqueue
    Sleeping,  // "S", "D", "I", "T", "t", "P", "W", "K", "N" and combinations: blocked
    Dead,      // "X" or "Z": exiting, never runs again under this pid incarnation
};

struct TraceEvent {
    TraceEventKind kind = TraceEventKind::SchedSwitch;
    int line = 0;        // 1-based, in the file as given
    int cpu = -1;        // the ring buffer the event was written to: the CPU it happened on
    std::int64_t ts = 0;  // the stamp as recorded: ns for the ns clocks, else the clock's raw count
    // The task current on `cpu` when the event was written (0: the idle task).
    int common_pid = 0;
    // sched_waking/sched_wakeup/sched_wakeup_new/sched_migrate_task: the
    // task the event is about; sched_switch: next.
    int pid = 0;
    std::string comm;
    int target_cpu = -1;  // waking, wakeup, wakeup_new
    int orig_cpu = -1;    // migrate_task
    int dest_cpu = -1;    // migrate_task
    // sched_switch: prev (0: the idle task) and how it left.
    int prev_pid = 0;
    std::string prev_comm;
    PrevState prev_state = PrevState::Runnable;
    std::uint64_t lost = 0;  // LostEvents
    // 1-based columns of the CPU numbers in the line, for messages: the
    // ring buffer's "[cpu]", then target_cpu, orig_cpu and dest_cpu.
    int cpu_column = 0;
    int target_column = 0;
    int orig_column = 0;
    int dest_column = 0;
};

}  // namespace wb

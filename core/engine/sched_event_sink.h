// SPDX-License-Identifier: Apache-2.0
//
// SchedEventSink: the five sched tracepoints of a simulated run, as the
// kernel would write them (include/trace/events/sched.h), for a trace
// writer (io/ftrace_text_writer.h, io/trace_event_json_writer.h). The
// simulator calls a sink only when one is attached: a null-pointer test on
// the paths that switch, wake, migrate and fork, nothing more, so that a
// run that writes no trace costs what it did before there were traces.
//
// Each event says which CPU writes it (its ring buffer) and what was
// current there, with the kernel's meaning, because importers and the
// decision replay rebuild the kernel's state from exactly that:
//   Waking      try_to_wake_up() on the waker's CPU as select_task_rq()
//               runs; target_cpu = task_cpu(p), the prev CPU
//   Wakeup      ttwu_do_activate() on the CPU that activates p (the target
//               itself for a wake-list wakeup); target_cpu = where p is queued
//   WakeupNew   wake_up_new_task() on the parent's CPU; target_cpu = chosen
//   MigrateTask set_task_cpu() changing p's CPU, on the CPU doing it
//   Switch      __schedule() switching prev out and p (next) in
#pragma once

#include <string_view>

#include "base/sim_time.h"
#include "sched/task.h"

namespace wb {

struct DecisionRecord;

enum class SchedEventKind { Waking, Wakeup, WakeupNew, MigrateTask, Switch };

// How prev left the CPU, as sched_switch's prev_state prints it.
enum class PrevTaskState : char {
    Runnable = 'R',  // preempted or yielded: still on its runqueue
    Sleeping = 'S',  // blocked
    IoWait = 'D',    // blocked in io_schedule()
    Dead = 'X',      // exited
};

struct SchedEvent {
    SchedEventKind kind = SchedEventKind::Switch;
    Time time;
    CpuId cpu = kNoCpu;       // the CPU the event is written on
    TaskId current = kNoTask;  // the task current there; kNoTask: the idle task
    TaskId p = kNoTask;        // the task the event is about; Switch: next (kNoTask: idle)
    CpuId target_cpu = kNoCpu;  // Waking, Wakeup, WakeupNew
    CpuId orig_cpu = kNoCpu;    // MigrateTask
    CpuId dest_cpu = kNoCpu;    // MigrateTask
    TaskId prev = kNoTask;      // Switch (kNoTask: idle)
    PrevTaskState prev_state = PrevTaskState::Runnable;  // Switch
};

class SchedEventSink {
public:
    virtual ~SchedEventSink() = default;
    // A task exists (at attach for those already created, then as they
    // are): its name and nice, which the events do not repeat.
    virtual void task_created(TaskId id, std::string_view name, int nice) = 0;
    virtual void event(const SchedEvent& e) = 0;
    // Every wakeup's and fork's decision record, before its Waking (or
    // WakeupNew) event. With a sink attached the selector records, as it
    // does for a record sink.
    virtual void decision(const DecisionRecord&) {}
};

}  // namespace wb

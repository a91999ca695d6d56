// SPDX-License-Identifier: Apache-2.0
//
// How the decision views print a record's facts, so that the diagram and
// the recent-wakeups list say them the same way.
#pragma once

#include <QString>

#include "sched/decision.h"

namespace wb {

// "WF_TTWU|WF_SYNC"; "0" when none is set.
QString wake_flags_text(unsigned int wake_flags);
// "task 3"; "irq" for kNoTask (an interrupt woke the task).
QString task_text(TaskId task);
// The waker of a record: its task, "irq" for a wakeup from an interrupt,
// "no task" for a fork or exec the workload made at setup.
QString waker_text(const DecisionRecord& rec);
// "cpu 5"; "-" for kNoCpu.
QString cpu_text(CpuId cpu);
// "12.345 us": simulated time in microseconds, the unit of the latency views.
QString time_text(Time t);

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// Kernel: the simulated kernel as a workload sees it, the system calls a
// program makes that matter to scheduling: create a task, wake one, and the
// costs and clock of the machine it runs on.
#pragma once

#include <cstdint>
#include <string>

#include "base/rng.h"
#include "base/sim_time.h"
#include "sched/task.h"
#include "topology/machine.h"

namespace wb {

struct TaskSpec {
    std::string name;
    int group = 0;
    CpuMask cpus_allowed;  // empty: every CPU
    int nice = 0;
    SchedPolicy policy = SchedPolicy::Normal;
    bool kthread = false;
    // The address space (process) the task belongs to: tasks with the same
    // value are threads of one process. -1: a process of its own.
    int process = -1;
    // The data the task keeps warm between two runs, that follow it when it
    // runs on another CPU (data_move_time() by the distance it moved). The
    // default is an L1D worth, 32 KiB: the set the engine's fixed refill
    // costs assumed before they were derived from it. A workload whose
    // program touches more or less says so.
    std::uint64_t working_set_bytes = kDefaultWorkingSetBytes;
    static constexpr std::uint64_t kDefaultWorkingSetBytes = 32 * 1024;
};

class Kernel {
public:
    virtual ~Kernel() = default;

    // A new task, not yet runnable (TaskState::Sleeping, no CPU).
    virtual TaskId create_task(const TaskSpec& spec) = 0;
    // wake_up_new_task(): place a created task with the fork slow path, as if
    // forked by `parent_cpu`'s current task, and make it runnable.
    virtual void wake_up_new_task(TaskId p, CpuId parent_cpu) = 0;
    // try_to_wake_up() from the task whose step is completing (the waker).
    virtual void wake_up(TaskId p, unsigned int wake_flags) = 0;
    // try_to_wake_up() from an interrupt (or softirq) on `cpu`: the waker is
    // whatever that CPU was running, possibly the idle task, and the wakeup
    // is not in task context. Its handling time delays the interrupted task.
    virtual void wake_up_from_irq(TaskId p, CpuId cpu, unsigned int wake_flags) = 0;
    // The step the running task is about to be given reads `bytes` of
    // payload that were written on CPU `written_on` (a pipe buffer, a
    // message): called from Workload::next_step(). Workloads declare what
    // they move; the engine counts it by distance (RunMetrics::bytes_read)
    // and charges the reading CPU data_move_time() for it before the step.
    virtual void note_data_read(std::uint64_t bytes, CpuId written_on) = 0;
    // Calls Workload::on_timer(token) at `at` (not before now).
    virtual void start_timer(Time at, std::int64_t token) = 0;

    // task_cpu(p): the CPU p last ran or was queued on; kNoCpu before its first placement.
    virtual CpuId task_cpu(TaskId p) const = 0;

    virtual Time now() const = 0;
    virtual const Machine& machine() const = 0;
    virtual Rng& rng() = 0;
};

}  // namespace wb

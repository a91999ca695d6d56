// SPDX-License-Identifier: Apache-2.0
//
// Task: a simulated task_struct, only what placement and the fair class read
// or write. Tasks are referred to by TaskId (their index in the run's task
// table), never by pointer, so state can be copied into GUI snapshots.
#pragma once

#include <cstdint>
#include <string>

#include "base/sim_time.h"
#include "sched/pelt.h"
#include "topology/cpumask.h"

namespace wb {

using TaskId = int;
inline constexpr TaskId kNoTask = -1;

enum class SchedPolicy { Normal, Batch, Idle };

enum class TaskState {
    Running,   // rq->curr of its CPU
    Runnable,  // queued, waiting for its CPU
    Waking,    // chosen a CPU, sitting on that CPU's wake list (ttwu_pending)
    Sleeping,  // blocked; possibly still queued as a delayed entity (se.sched_delayed)
    Dead,
};

// se->run_node: the entity's links in its runqueue's EEVDF tree and the
// values the tree keeps of the entity's subtree (sched/eevdf_tree.h).
// Meaningful only while the entity is in a tree.
struct RunNode {
    TaskId child[2] = {kNoTask, kNoTask};  // [0] left (earlier deadlines), [1] right
    TaskId parent = kNoTask;
    bool red = false;
    std::int64_t min_vruntime = 0;
    std::uint64_t min_slice = 0;
    std::uint64_t max_slice = 0;
};

// struct sched_entity, flat (no cgroups): the EEVDF state.
struct SchedEntity {
    std::int64_t vruntime = 0;
    std::int64_t deadline = 0;
    std::int64_t vlag = 0;
    std::int64_t vprot = 0;   // RUN_TO_PARITY protected vruntime while running
    std::uint64_t slice = 0;  // ns
    bool custom_slice = false;
    unsigned long weight = 1024;   // from nice (sched_prio_to_weight)
    bool on_rq = false;            // queued in its CPU's cfs_rq (running or waiting, or delayed)
    bool sched_delayed = false;    // DELAY_DEQUEUE: slept while ineligible, still queued
    bool rel_deadline = false;     // PLACE_REL_DEADLINE: deadline kept relative across migration
    std::uint64_t exec_start = 0;  // ns; start of the current run
    std::uint64_t sum_exec_runtime = 0;
    std::uint64_t prev_sum_exec_runtime = 0;
    SchedAvg avg;
    // UTIL_AVG_UNCHANGED: no PELT period has ended since util_est was last
    // updated, so the next dequeue has no new sample to learn from.
    bool util_avg_unchanged = false;
    RunNode run_node;
};

struct Task {
    TaskId id = kNoTask;
    std::string name;  // "pipe-0", "hackbench-g3-s2"
    int group = 0;     // workload-defined task group, for colours and per-group metrics

    TaskState state = TaskState::Sleeping;
    CpuMask cpus_allowed;  // p->cpus_ptr
    int nr_cpus_allowed = 0;
    int nice = 0;
    SchedPolicy policy = SchedPolicy::Normal;
    bool kthread = false;  // a per-CPU kthread is a kthread with one allowed CPU
    int mm = -1;           // address space; switching between different ones costs address_space_switch
    bool exiting = false;  // PF_EXITING
    bool in_iowait = false;  // asleep in io_schedule(): counted in its CPU's nr_iowait until the wakeup

    CpuId cpu = kNoCpu;              // task_cpu(p)
    CpuId wake_cpu = kNoCpu;         // p->wake_cpu: prev for the next wakeup
    CpuId recent_used_cpu = kNoCpu;  // written by select_idle_sibling step 4 and at fork
    bool on_cpu = false;             // still being switched out

    // As a waker (record_wakee / wake_wide).
    TaskId last_wakee = kNoTask;
    unsigned int wakee_flips = 0;
    std::uint64_t wakee_flip_decay_ts = 0;  // jiffies

    SchedEntity se;

    // Where the task's working set is warm: a task that runs elsewhere moves
    // working_set_bytes from there, at the cost of the distance
    // (engine/data_movement.h; docs/model.md, "Data on the move").
    CpuId cache_warm_cpu = kNoCpu;
    std::uint64_t working_set_bytes = 0;

    bool per_cpu_kthread() const { return kthread && nr_cpus_allowed == 1; }
};

}  // namespace wb

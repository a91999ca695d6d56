// SPDX-License-Identifier: Apache-2.0
//
// RunSnapshot: the values a viewer draws, copied out of a Simulator between
// events. A snapshot shares nothing with the run it came from, so it can
// cross threads while the run goes on.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/sim_time.h"
#include "metrics/run_metrics.h"
#include "sched/decision.h"
#include "sched/task.h"
#include "workload/workload.h"

namespace wb {

class Simulator;

struct CpuSnapshot {
    CpuId cpu = kNoCpu;
    unsigned int nr_running = 0;
    unsigned int h_nr_delayed = 0;
    TaskId curr = kNoTask;  // kNoTask: the idle task runs
    int curr_group = -1;    // the running task's workload group, the key of its colour
    int curr_process = -1;  // its address space (mm)
    bool idle = true;       // idle_cpu(): nothing running, queued or pending
    int idle_state = -1;    // index into Machine::idle_states while in one, deeper is larger; -1 when not
    unsigned long util_avg = 0;
    long capacity = 1024;  // capacity_of()
    std::int64_t avg_idle = 0;
    bool llc_has_idle_cores = false;  // the idle-cores hint of the CPU's LLC (sd_llc_shared)
};

struct RunSnapshot {
    std::string policy;  // the spec the run was built with
    Time now;
    std::uint64_t events = 0;
    std::uint64_t decisions = 0;  // wakeup decisions made, forks included: the next record's seq
    bool finished = false;
    double ops = 0;
    double progress = -1;  // 0 to 1 (1 once finished); below 0 when the workload cannot tell
    Headline headline;     // the workload's figure so far (final once finished)
    RunMetrics metrics;
    std::vector<CpuSnapshot> cpus;
};

RunSnapshot take_snapshot(const Simulator& sim, const std::string& policy);

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// The json workload file (docs/workload-json.md): task templates and the
// phases each instance loops through, rt-app style. Reading it checks
// everything that can be checked without a machine and reports every
// problem with line:column and JSON pointer.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/sim_time.h"
#include "sched/task.h"

namespace wb {

// The most tasks a json workload starts over a run, instances and forks
// together. The engine keeps every task it created for the run's figures,
// about 0.7 KB each, so this bounds a run's memory near 0.7 GB: far above
// real programs (hackbench's largest runs start a few thousand tasks) and
// below what a fork loop would take (docs/reliability.md).
inline constexpr std::uint64_t kMaxJsonWorkloadTasks = 1'000'000;

struct JsonPhase {
    enum class Kind { Run, Sleep, Timer, Wait, Signal, Yield, Barrier, Fork };
    Kind kind = Kind::Run;
    Time duration;           // run, sleep; the period of timer
    std::string name;        // wait, signal: the event; barrier: its name; fork: the task template
    bool sync = false;       // signal: a WF_SYNC wakeup (the signaller is about to sleep)
    bool broadcast = false;  // signal: wake every waiter, not one
};

struct JsonTask {
    std::string name;
    std::uint64_t instances = 1;
    std::string cpus;  // cpulist; "" = all CPUs. Checked against the machine when the run starts
    int cpus_line = 0, cpus_column = 0;
    int nice = 0;
    SchedPolicy policy = SchedPolicy::Normal;
    std::uint64_t loop = 1;
    bool start = true;  // false: a template only fork phases start
    std::vector<JsonPhase> phases;
};

struct WorkloadFile {
    std::string path;  // as given, for messages
    std::vector<JsonTask> tasks;
};

WorkloadFile parse_workload_json(std::string_view text, const std::string& file_label);
WorkloadFile load_workload_file(const std::string& path);

}  // namespace wb

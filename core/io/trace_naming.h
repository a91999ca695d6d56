// SPDX-License-Identifier: Apache-2.0
//
// How a simulated task appears in an exported trace: pid = a fixed base
// plus its TaskId, so that pid 0 stays the idle task; comm = its name cut
// to the kernel's TASK_COMM_LEN (16, with the terminating NUL); prio as
// the kernel prints a fair task's (120 + nice). Shared by both writers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sched/task.h"

namespace wb {

inline constexpr int kTracePidBase = 1000;
inline constexpr std::size_t kTaskCommLen = 16;

inline int trace_pid(TaskId id)
{
    return id == kNoTask ? 0 : kTracePidBase + static_cast<int>(id);
}

// The names and prios of the run's tasks, by TaskId.
class TraceTaskNames {
public:
    void add(TaskId id, std::string_view name, int nice)
    {
        const auto i = static_cast<std::size_t>(id);
        if (i >= comm_.size()) {
            comm_.resize(i + 1);
            prio_.resize(i + 1, 120);
        }
        comm_[i] = std::string(name.substr(0, kTaskCommLen - 1));
        // Fields are key=value split at spaces: a space would cut the name.
        for (char& c : comm_[i])
            if (c == ' ')
                c = '_';
        prio_[i] = 120 + nice;
    }
    const std::string& comm(TaskId id) const { return comm_[static_cast<std::size_t>(id)]; }
    int prio(TaskId id) const { return id == kNoTask ? 120 : prio_[static_cast<std::size_t>(id)]; }

private:
    std::vector<std::string> comm_;
    std::vector<int> prio_;
};

}  // namespace wb

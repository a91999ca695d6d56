// SPDX-License-Identifier: Apache-2.0
//
// DecisionRecord: why one wakeup landed where it did. select_task_rq_fair()
// and its callees append a step at every branch they take, with the values
// that decided it; the CLI's --record output and the GUI's animated diagram
// render this record and nothing else. When recording is off the selector
// gets a null record and builds no strings at all.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/sim_time.h"
#include "sched/task.h"
#include "topology/distance.h"

namespace wb {

// Which branch finally chose the CPU: the early return that won. Metrics
// count wakeups per path.
enum class WakePath {
    NotSelected,      // no selection: delayed task woken in place (ttwu_runnable) or one allowed CPU
    CurrentCpu,       // WF_CURRENT_CPU
    Energy,           // find_energy_efficient_cpu
    SlowPath,         // sched_balance_find_dst_cpu (fork, exec)
    Policy,           // a policy's own step returned (issue 4)
    TargetIdle,       // select_idle_sibling step 1
    PrevIdle,         // step 2
    PerCpuKthread,    // step 3
    RecentUsed,       // step 4
    AsymCapacity,     // step 5: select_idle_capacity
    NoLlc,            // step 6: target has no LLC domain
    SmtSibling,       // step 7: select_idle_smt
    LlcScan,          // step 8: select_idle_cpu found an idle CPU or core
    PrevAffFallback,  // step 10
    RecentFallback,   // step 10
    TargetFallback,   // step 11: nothing idle found
    Count
};

inline constexpr std::array<std::string_view, static_cast<std::size_t>(WakePath::Count)> kWakePathNames{
    "not_selected", "current_cpu",       "energy",          "slow_path",      "policy", "target_idle",
    "prev_idle",    "per_cpu_kthread",   "recent_used",     "asym_capacity",  "no_llc", "smt_sibling",
    "llc_scan",     "prev_aff_fallback", "recent_fallback", "target_fallback"};

inline std::string_view wake_path_name(WakePath p)
{
    return kWakePathNames[static_cast<std::size_t>(p)];
}

struct DecisionStep {
    std::string_view function;  // the kernel function: "wake_wide", "select_idle_sibling"
    std::string_view branch;    // the branch taken: "wide", "target idle"
    std::string detail;         // the values that decided it: "wakee_flips 3 < llc_size 80"
    CpuId result = kNoCpu;      // the CPU the step returned, if it returned one
};

struct DecisionRecord {
    std::uint64_t seq = 0;  // the n-th wakeup of the run
    Time time;
    TaskId waker = kNoTask;  // the task running on waker_cpu; kNoTask from interrupt context
    TaskId wakee = kNoTask;
    CpuId waker_cpu = kNoCpu;
    CpuId prev_cpu = kNoCpu;
    unsigned int wake_flags = 0;
    std::vector<DecisionStep> steps;
    std::vector<CpuId> scanned;  // CPUs examined by the idle scans, in order
    CpuId target = kNoCpu;       // wake_affine()'s choice, the centre of the idle search
    CpuId chosen = kNoCpu;
    WakePath path = WakePath::TargetFallback;
    DistanceClass from_waker = DistanceClass::SameCpu;
    DistanceClass from_prev = DistanceClass::SameCpu;
};

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// Decision replay: at every wakeup of a recorded trace that went through
// select_task_rq(), rebuild the state the selector reads, ask the model's
// select_task_rq_fair() (mainline, and each listed policy) where it would
// put the task, and compare with where the kernel put it.
//
// The state each policy is asked in (one SchedState per policy and per
// WF_SYNC mode, each over the machine's sched domains as that policy builds
// them):
//   - each CPU's current task and nr_running, from TraceState; a CPU with a
//     wakeup in flight to it (sched_waking seen, sched_wakeup not yet) has
//     ttwu_pending set, since its wakee is on its wake list;
//   - the waker's CPU and task (the line's current task; the idle task means
//     interrupt context), p's prev CPU (sched_waking's target_cpu), and the
//     waker's and p's last_wakee / wakee_flips from TraceState's
//     record_wakee();
//   - p->recent_used_cpu and the LLC idle-cores hint are each state's own:
//     the selector writes them as it decides, and the hint is set, as
//     update_idle_core() does, when a traced switch to the idle task
//     completes an idle core (wakeup-path.md §6.4); never derived from the
//     idle CPUs;
//   - PELT load and utilisation estimated from the traced schedule
//     (trace_pelt.h), and SIS_UTIL's nr_idle_scan recomputed from them once
//     per LLC min_interval (sd_weight ms, about how often some CPU of the
//     LLC balances it), since the trace does not show when the kernel
//     balanced;
//   - WF_SYNC, which no tracepoint carries, inferred: a wakeup from a task
//     that blocks (a sched_switch out of it with a sleeping prev_state)
//     within `sync_window_ns` of its sched_waking, as a pipe or socket
//     writer does, is taken as sync. Every figure is also given with no
//     wakeup taken as sync.
// Per-CPU kthreads are recognised by name (ksoftirqd/N, kworker/N:M,
// migration/N, cpuhp/N, ...) and pinned to their CPU; every other task may
// run anywhere. Forks (sched_wakeup_new) take the slow path, whose group
// statistics the trace cannot rebuild, and are not replayed.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sched/decision.h"
#include "sched/features.h"
#include "trace/trace_parser.h"
#include "trace/trace_report.h"

namespace wb {

struct Machine;

// Where a wakeup was placed, as the trace alone can tell it: the classes a
// kernel's choice and the model's are compared by when not by CPU.
enum class PlacedAt { Prev, WakerCpu, OtherIdle, OtherBusy, Count };
inline constexpr std::array<std::string_view, static_cast<std::size_t>(PlacedAt::Count)> kPlacedAtNames{
    "prev", "waker_cpu", "other_idle", "other_busy"};

struct ReplayOptions {
    std::vector<std::string> policies{"baseline"};  // specs (policies/registry.h); the first is the reference
    FeatureSet features;
    // Sync inference window: sched_waking to the waker's blocking switch.
    std::int64_t sync_window_ns = 20'000;
    TaskFilter filter;  // wakeups of these tasks only (every task drives the state)
    // Called every few thousand events with the share of events done (0 to
    // 1); returning false stops the replay (ReplayResult::cancelled). For a
    // viewer that replays a large trace in a worker thread.
    std::function<bool(double)> progress;
};

// One wakeup the model placed otherwise than the kernel (or than baseline).
struct ReplayDifference {
    int line = 0;  // the sched_waking
    int pid = 0;
    std::string comm;
    int waker_cpu = -1;
    int prev_cpu = -1;
    int kernel_cpu = -1;
    int model_cpu = -1;
    int baseline_cpu = -1;
    WakePath path = WakePath::TargetFallback;
    bool sync = false;
};

using PathCounts = std::array<std::uint64_t, static_cast<std::size_t>(WakePath::Count)>;

// One policy's decisions in one WF_SYNC mode.
struct ReplayFigures {
    std::uint64_t wakeups = 0;
    std::uint64_t same_cpu = 0;     // the kernel's exact CPU
    std::uint64_t same_class = 0;   // the same distance class from the waker's CPU
    std::uint64_t same_placed = 0;  // the same PlacedAt
    PathCounts by_path{};           // the model's path, every wakeup
    PathCounts differ_by_path{};    // ... of those where its CPU is not the kernel's
    // Of those, the kernel's CPU was prev: what a wakeup the kernel did in
    // place looks like in a trace (a task that blocked while ineligible
    // stays queued under DELAY_DEQUEUE, and ttwu_runnable() wakes it there
    // without select_task_rq()), which the trace cannot tell from a choice.
    std::uint64_t differ_kernel_kept_prev = 0;
    std::uint64_t differ_from_baseline = 0;
    PathCounts differ_from_baseline_by_path{};
    std::vector<ReplayDifference> first;  // the first differences from the kernel (up to kReplayListed)
};
inline constexpr std::size_t kReplayListed = 20;

struct PolicyReplay {
    std::string spec;
    ReplayFigures sync_inferred;
    ReplayFigures no_sync;
};

struct ReplayResult {
    std::vector<PolicyReplay> policies;  // in ReplayOptions::policies' order
    std::uint64_t wakeups_selected = 0;  // of the filtered tasks, that reached select_task_rq()
    std::uint64_t replayed = 0;
    std::uint64_t sync_inferred = 0;
    std::uint64_t skipped_pinned = 0;      // a per-CPU kthread: one allowed CPU, nothing to choose
    std::uint64_t skipped_no_outcome = 0;  // no sched_wakeup followed (lost events, end of trace)
    std::uint64_t skipped_unknown = 0;     // prev or the waker's CPU not known
    std::uint64_t forks = 0;
    std::uint64_t not_selected = 0;  // woken while still queued: no selection to replay
    std::array<std::uint64_t, static_cast<std::size_t>(PlacedAt::Count)> kernel_placed{};
    bool times = true;  // the stamps are ns: PELT and the sync inference could run
    bool cancelled = false;  // ReplayOptions::progress stopped it: the figures cover the events before
    TraceAnomalies anomalies;
};

// One CPU as the replay saw it at a wakeup, for a viewer's grid.
struct ReplayCpu {
    int curr_pid = 0;  // 0: the idle task; -1: not known
    std::string curr_comm;
    unsigned int nr_running = 0;
    bool idle = true;            // available_idle_cpu(): nothing running, queued or in flight to it
    unsigned long util_avg = 0;  // the PELT estimate
    bool llc_has_idle_cores = false;
};

// One replayed wakeup, everything a viewer steps through: the state each
// policy was asked in (the CPUs), the kernel's choice and each policy's
// full decision record (WF_SYNC as inferred).
struct ReplayFrame {
    int line = 0;  // the sched_waking
    std::int64_t ts = 0;
    int pid = 0;
    std::string comm;
    int waker_pid = 0;  // 0: interrupt context or the idle task
    CpuId waker_cpu = kNoCpu;
    CpuId prev_cpu = kNoCpu;
    CpuId kernel_cpu = kNoCpu;
    bool sync = false;
    std::vector<ReplayCpu> cpus;
    std::vector<std::pair<std::string, DecisionRecord>> choices;  // per policy, in ReplayOptions::policies' order
};

// Called for each replayed wakeup and policy (in the sync-inferred mode),
// with the model's full decision record, the kernel's CPU and the line.
using ReplayRecordSink =
    std::function<void(const std::string& policy, const DecisionRecord& rec, int kernel_cpu, int line)>;

using ReplayFrameSink = std::function<void(ReplayFrame&&)>;

// A CPU the machine lacks is an InputError naming `label`, the line and
// the column; a policy spec that does not parse is an InputError too.
ReplayResult replay_trace(const ParsedTrace& trace, const Machine& machine, const ReplayOptions& options,
                          const std::string& label, const ReplayRecordSink& record = {},
                          const ReplayFrameSink& frames = {});

std::string format_replay(const ReplayResult& result, const ReplayOptions& options);

}  // namespace wb

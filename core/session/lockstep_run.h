// SPDX-License-Identifier: Apache-2.0
//
// LockstepRun: one to four runs of one scenario case (same machine,
// workload, seed and features), one per policy, advanced together so that
// they can be watched side by side and compared wakeup by wakeup. Each run
// is built by prepare_run(), exactly as `wakesim run` and run_one() build
// theirs, so its figures are wakesim's.
//
// Wakeups are compared by index: the k-th decision of every run. Runs of
// identical decisions stay identical, so the first k whose records differ
// (chosen CPU or path) is where the policies part; after it, runs drift
// apart in time and later indexes compare whatever each run did next.
//
// One engine event can make several decisions (a waker waking two tasks).
// step_wakeup() still hands out exactly one record per run: the others wait
// in a queue for the next steps, while the engine state shown is that after
// the whole event.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/batch.h"
#include "metrics/decision_ring.h"
#include "sched/decision.h"
#include "session/run_snapshot.h"
#include "session/what_if.h"
#include "topology/machine.h"

namespace wb {

struct SchedState;

struct Divergence {
    std::uint64_t wakeup = 0;             // the index (seq) of the first records that differ
    std::vector<DecisionRecord> records;  // one per run, in run order
};

struct LockstepStep {
    // records[i]: run i's next decision; empty when run i has no more.
    std::vector<std::optional<DecisionRecord>> records;
    // hits[i]: records[i] met the break condition (set_break_condition).
    std::vector<bool> hits;
    bool diverged = false;  // the records of this step differ between runs
    // what_if[i]: what each case of the WhatIf set when records[i] was made
    // would have chosen in the state run i decided it in; empty when none
    // was set, or records[i] made no selection (woken in place).
    std::vector<WhatIfChoices> what_if;
};

class LockstepRun {
public:
    static constexpr int kMaxRuns = 4;

    // `policies` one to four policy specs; `base` gives the workload, seed,
    // features and time limit (its policy is ignored). Throws InputError
    // for a bad spec, std::invalid_argument for a bad count.
    LockstepRun(const Machine& machine, const RunRequest& base, const std::vector<std::string>& policies);
    ~LockstepRun();
    LockstepRun(const LockstepRun&) = delete;
    LockstepRun& operator=(const LockstepRun&) = delete;

    int size() const { return static_cast<int>(runs_.size()); }
    const Machine& machine() const { return machine_; }
    const Simulator& sim(int run) const;
    // The request that reproduces run `run` alone (run_one(), wakesim run).
    const RunRequest& request(int run) const { return runs_[static_cast<std::size_t>(run)].request; }

    // Every run one wakeup decision further (runs that have finished give none).
    LockstepStep step_wakeup();
    // Every run up to simulated time `until`; true while some run has more
    // to do. The first divergence is found on the way.
    bool run_until(Time until);
    // Steps in lockstep until the records of a step differ, at most
    // `max_wakeups` steps; nullopt when none did (or the runs ended).
    std::optional<Divergence> next_divergence(std::uint64_t max_wakeups);

    // The first index where the runs' decisions differed, once seen.
    const std::optional<Divergence>& first_divergence() const { return first_divergence_; }
    bool finished() const;  // every run
    Time now() const;       // how far the runs have been taken: the earliest of those still going

    // Evaluated on every record as it is made, with the state it was made
    // in; a true result is reported by the step that hands the record out.
    using BreakCondition = std::function<bool(int run, const DecisionRecord&, const SchedState&)>;
    void set_break_condition(BreakCondition condition) { break_condition_ = std::move(condition); }

    // Asks `what_if` (not owned; null stops) at every selection of every run
    // from now on, and hands its choices out with the record they go with
    // (LockstepStep::what_if). A copy of the state per case per selection:
    // for stepping, not for running at speed.
    void set_what_if(const WhatIf* what_if);

    RunSnapshot snapshot(int run) const;
    std::vector<RunSnapshot> snapshots() const;
    // The last `n` records of a run, oldest first (kept whatever the mode).
    std::vector<DecisionRecord> recent(int run, std::size_t n) const;

private:
    struct Pending {
        DecisionRecord rec;
        bool hit = false;
        WhatIfChoices what_if;
    };
    struct Asked {  // the what-if of the selection in progress
        std::uint64_t seq = 0;
        WhatIfChoices choices;
    };
    struct Lane {
        RunRequest request;
        PreparedRun prepared;
        std::deque<Pending> pending;  // made, not yet compared or handed out
        DecisionRing recent{kRecentKept};
        bool exhausted = false;  // finished, or out of events before the time limit
        Asked asked;
    };
    static constexpr std::size_t kRecentKept = 64;

    void on_record(int run, const DecisionRecord& rec);
    void compare_aligned();  // compares and drops the records every run has
    void stop_collecting();
    static bool differ(const DecisionRecord& a, const DecisionRecord& b);

    Machine machine_;
    std::vector<Lane> runs_;
    bool collecting_ = true;  // records go to the pending queues
    std::optional<Divergence> first_divergence_;
    BreakCondition break_condition_;
    const WhatIf* what_if_ = nullptr;
};

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// The values the simulation thread sends the window: a frame of snapshots
// (at most ~30 a second while running), and the records of one step. Plain
// copies, registered as metatypes so that queued signals can carry them; the
// window never touches the live runs.
#pragma once

#include <QMetaType>
#include <cstdint>
#include <optional>
#include <vector>

#include "session/lockstep_run.h"
#include "session/run_snapshot.h"

namespace wb {

enum class SimState {
    Empty,     // nothing loaded
    Paused,    // loaded, waiting
    Running,   // running on its own clock
    Seeking,   // stepping to the next divergence
    Finished,  // every run is done
    Failed     // a run broke (a policy's hook threw, or returned an impossible CPU): restart or load anew
};

// A run's generation: the session's count of loads and restarts when the run
// began. Anything the worker sent for an earlier generation is dropped on
// arrival, so a restart never shows the old run's frames or records.
using RunGeneration = std::uint64_t;

struct SimFrame {
    std::uint64_t serial = 0;
    RunGeneration generation = 0;
    SimState state = SimState::Empty;
    std::vector<RunSnapshot> runs;  // one per policy, in the setup's order
    // The last records of each run, oldest first, for the recent-wakeups list
    // and the grid's overlay while running.
    std::vector<std::vector<DecisionRecord>> recent;
    std::optional<Divergence> first_divergence;
    double events_per_second = 0;  // all runs together, against wall time
    Time target;                   // where a run-to stops; zero when none
};

struct StepRecords {
    RunGeneration generation = 0;
    std::vector<std::optional<DecisionRecord>> records;  // one per run
    std::vector<bool> hits;                              // a breakpoint matched records[i]
    bool diverged = false;                               // the records differ
    bool from_divergence_search = false;
    // what_if[i]: every What if case's choice in the state run i decided
    // records[i] in; empty when the panel is off or nothing was selected.
    std::vector<WhatIfChoices> what_if;
};

}  // namespace wb

Q_DECLARE_METATYPE(wb::SimFrame)
Q_DECLARE_METATYPE(wb::StepRecords)
Q_DECLARE_METATYPE(wb::SimState)

// SPDX-License-Identifier: Apache-2.0
//
// Breakpoints on wakeup decisions: pause when a wakeup takes a given branch
// of the path, or lands in a given distance class from its waker (optionally
// only while the waker's LLC held a wholly idle core, the case
// select_idle_sibling() is meant to catch). Pausing when side-by-side
// policies first diverge is LockstepRun's business, not a record's.
#pragma once

#include <string>

#include "sched/decision.h"
#include "sched/sched_state.h"
#include "topology/distance.h"

namespace wb {

struct Breakpoint {
    enum class Kind { Branch, Lands };
    Kind kind = Kind::Branch;
    // Branch: a step of the record has this function and, when `branch` is
    // not empty, this branch ("select_idle_sibling", "target idle").
    std::string function;
    std::string branch;
    // Lands: the chosen CPU is this far from the waker's CPU.
    DistanceClass lands_in = DistanceClass::OtherLlc;
    bool only_if_idle_core_in_waker_llc = false;

    std::string describe() const;  // "select_idle_sibling: target idle", "lands other_llc"
    friend bool operator==(const Breakpoint&, const Breakpoint&) = default;
};

// Some core of `cpu`'s LLC has every thread idle (idle_cpu()). The real
// state, not the has_idle_cores hint, which may be stale either way.
bool llc_has_idle_core(const SchedState& s, CpuId cpu);

// `s` is the state the decision was made in: read before the wakee is queued.
bool breakpoint_hit(const Breakpoint& bp, const DecisionRecord& rec, const SchedState& s);

}  // namespace wb

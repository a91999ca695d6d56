// SPDX-License-Identifier: Apache-2.0
//
// What if: for one wakeup of a simulated run, what other policies (and
// mainline with features flipped) would have chosen in exactly the state the
// run decided it in. The engine's decision probe (Simulator::set_decision_probe)
// hands over that state just before select_task_rq() reads it; each case is
// asked on its own copy, with its own policy, features and sched domains,
// so that nothing it writes (last_wakee, recent_used_cpu, the idle-cores
// hint) reaches the run. The trace replay answers the same question for a
// recorded kernel's wakeups (trace/trace_replay.h).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sched/decision.h"
#include "sched/fair_select.h"
#include "sched/features.h"
#include "sched/sched_state.h"
#include "topology/sched_domains.h"

namespace wb {

class PlacementPolicy;
struct Machine;

// One case: a policy spec and features switched from the run's, in
// features.def's syntax ("NO_SIS_UTIL,WA_BIAS"; empty for none).
struct WhatIfCase {
    std::string policy = "baseline";
    std::string features;
    // "sync-waker-v3", "baseline NO_SIS_UTIL".
    std::string label() const { return features.empty() ? policy : policy + " " + features; }
};

using WhatIfChoices = std::vector<std::pair<std::string, DecisionRecord>>;  // label, what it chose and why

class WhatIf {
public:
    // Throws InputError for a bad policy spec or feature name, naming the case.
    WhatIf(const Machine& machine, const FeatureSet& run_features, const std::vector<WhatIfCase>& cases);
    ~WhatIf();
    WhatIf(const WhatIf&) = delete;
    WhatIf& operator=(const WhatIf&) = delete;

    // Each case's choice for p in state `s` (left untouched), in the cases' order.
    WhatIfChoices ask(const SchedState& s, const WakerContext& waker, TaskId p, CpuId prev,
                      unsigned int wake_flags) const;

    std::size_t size() const { return cases_.size(); }

private:
    struct Case {
        std::string label;
        std::unique_ptr<PlacementPolicy> policy;
        FeatureSet feats;
        SchedDomains domains;
        std::vector<SharedDomainState> fresh_shared;  // a new run's, for domains the run's state has no twin of
    };
    std::vector<Case> cases_;
};

}  // namespace wb

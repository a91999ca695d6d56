// SPDX-License-Identifier: Apache-2.0
//
// The pace of a scenario: how much simulated time its first wakeups take,
// from which a viewer picks a speed at which the first decisions can be
// followed (a pipe pair makes a wakeup every few microseconds, a GEMM's
// threads a few per millisecond).
#pragma once

#include <cstdint>
#include <memory>

#include "base/sim_time.h"
#include "session/scenario_session.h"

namespace wb {

class LockstepRun;

// A run of the setup's first policy alone, taken one wakeup at a time so
// that its caller can stop it when it has seen enough (or spent enough).
class PaceProbe {
public:
    explicit PaceProbe(const SessionSetup& setup);
    ~PaceProbe();
    PaceProbe(const PaceProbe&) = delete;
    PaceProbe& operator=(const PaceProbe&) = delete;

    // One more wakeup decision; false once the run has ended.
    bool advance();
    std::uint64_t wakeups() const { return wakeups_; }

    // The simulated time of the first `wakeups` decisions: measured when the
    // probe got that far, otherwise scaled up from what it did; a run with
    // no wakeup at all gives how far it got.
    Time estimate(std::uint64_t wakeups) const;

private:
    std::unique_ptr<LockstepRun> run_;
    std::uint64_t wakeups_ = 0;
    Time at_wakeups_;  // the simulated time when the last decision counted was made
};

}  // namespace wb

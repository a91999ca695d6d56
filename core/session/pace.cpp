// SPDX-License-Identifier: Apache-2.0
#include "session/pace.h"

#include "session/lockstep_run.h"

namespace wb {

PaceProbe::PaceProbe(const SessionSetup& setup)
    : run_(std::make_unique<LockstepRun>(setup.machine, setup.base, std::vector<std::string>{setup.policies.front()}))
{
}

PaceProbe::~PaceProbe() = default;

bool PaceProbe::advance()
{
    const LockstepStep step = run_->step_wakeup();
    if (!step.records.front())
        return false;
    ++wakeups_;
    at_wakeups_ = step.records.front()->time;
    return true;
}

Time PaceProbe::estimate(std::uint64_t wakeups) const
{
    if (wakeups_ == 0)
        return run_->now();
    const double scale = static_cast<double>(wakeups) / static_cast<double>(wakeups_);
    return Time::ns(static_cast<std::int64_t>(static_cast<double>(at_wakeups_.ns()) * scale));
}

}  // namespace wb

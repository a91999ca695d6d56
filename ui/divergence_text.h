// SPDX-License-Identifier: Apache-2.0
//
// The status bar's words for a wakeup the policies decided differently:
// "#3: baseline → CPU 2 (prev idle), sync-waker-v3 → CPU 3 (sync-waker-v3)".
#pragma once

#include <QString>
#include <cstdint>
#include <vector>

#include "sched/decision.h"

namespace wb {

struct PolicyChoice {
    QString policy;  // the spec shown on the grid: "sync-waker-v3:smt_check=off"
    const DecisionRecord* record = nullptr;
};

// Why `rec` went where it did: the branch of the step that returned the
// chosen CPU, or the policy's name when the policy's own step did.
QString choice_reason(const DecisionRecord& rec, const QString& policy);

// Choices without a record (a run that has ended) are left out.
QString divergence_text(std::uint64_t wakeup, const std::vector<PolicyChoice>& choices);

}  // namespace wb

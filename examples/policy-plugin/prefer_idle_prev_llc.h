// SPDX-License-Identifier: Apache-2.0
//
// prefer-idle-prev-llc: wake p on prev when prev is idle and shares the LLC
// with the waker, before wake_affine() can pull it towards the waker.
//
// Why: mainline's wake_affine() moves the target to the waker's CPU, and
// select_idle_sibling() then takes that target when it is idle, before it
// looks at prev. Where prev is idle and as close to the waker's data (same
// LLC), the move buys no locality and costs a migration: a cold L1/L2 and
// the PELT signals moved. The example of docs/writing-a-policy.md.
#pragma once

#include <wakebench/policy.h>

class PreferIdlePrevLlc final : public wakebench::Policy {
public:
    enum Switch { kSameLlc, kSync };
    static const wakebench::PolicyInfo& info();
    explicit PreferIdlePrevLlc(std::vector<bool> on) : Policy(info(), std::move(on)) {}

    int before_wake_affine(const wakebench::SchedView& v, const wakebench::Wakeup& w, int sd,
                           wakebench::Trace* trace) const override;
};

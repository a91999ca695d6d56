// SPDX-License-Identifier: Apache-2.0
//
// smt-active-balance: active balance at once between SMT cores.
//
// Models a reviewer's suggestion in the asym-stable-core thread (2026).
// Why: two tasks sharing one core while another core idles each run at SMT
// speed; the regular balance cannot move a running task, and mainline waits
// for nr_balance_failed > cache_nice_tries + 2 failed attempts before
// pushing it with an active balance, which at MC level is several balance
// intervals of halved throughput.
//
// Where: imbalanced_active_balance() in the load balancer: when the
// balancing domain's groups share CPU capacity (each group is an SMT core:
// the local group, i.e. dst's child domain, has SD_SHARE_CPUCAPACITY),
// allow the active balance now instead of after the failure threshold.
// Expected effect: doubled-up cores are split within one balance interval.
// This policy changes no wakeup decision.
#pragma once

#include "sched/placement_policy.h"

namespace wb {

class SmtActiveBalance final : public PlacementPolicy {
public:
    enum Switch { kSmtGroups };
    static const PolicyInfo& info();
    explicit SmtActiveBalance(std::vector<bool> on);

    bool imbalanced_active_balance_now(const SchedState& s, int sd, CpuId dst_cpu, CpuId src_cpu) const override;
};

}  // namespace wb

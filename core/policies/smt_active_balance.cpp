// SPDX-License-Identifier: Apache-2.0
#include "policies/smt_active_balance.h"

namespace wb {

const PolicyInfo& SmtActiveBalance::info()
{
    static const PolicyInfo kInfo{
        "smt-active-balance",
        "active balance at once when the balancing domain's groups are SMT cores (no failure threshold)",
        "load balancer: imbalanced_active_balance(), in need_active_balance()",
        "reviewer's suggestion in the asym-stable-core thread (2026)",
        {
            {"smt_groups", true, "only when the domain's groups share CPU capacity (SMT cores); off: at every level"},
        },
    };
    return kInfo;
}

SmtActiveBalance::SmtActiveBalance(std::vector<bool> on) : PlacementPolicy(info(), std::move(on)) {}

bool SmtActiveBalance::imbalanced_active_balance_now(const SchedState& s, int sd, CpuId dst_cpu, CpuId) const
{
    if (!on(kSmtGroups))
        return true;
    // sd->groups->flags are the child domain's flags: the groups are SMT
    // cores when dst's domain below sd is the SMT level.
    const std::vector<int>& chain = s.domains->domains_of(dst_cpu);
    for (std::size_t i = 1; i < chain.size(); ++i)
        if (chain[i] == sd)
            return (s.domains->domain(chain[i - 1]).flags & SD_SHARE_CPUCAPACITY) != 0;
    return false;
}

}  // namespace wb

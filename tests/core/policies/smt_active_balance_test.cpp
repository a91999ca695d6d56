// SPDX-License-Identifier: Apache-2.0
#include "policies/smt_active_balance.h"

#include <gtest/gtest.h>

#include "policy_world.h"

namespace wb::test {
namespace {

// The domain of `cpu` called `name`.
int domain_named(const World& w, CpuId cpu, std::string_view name)
{
    for (int id : w.d.domains_of(cpu))
        if (w.d.domain(id).name == name)
            return id;
    ADD_FAILURE() << "cpu " << cpu << " has no " << name << " domain";
    return -1;
}

TEST(SmtActiveBalance, NowWhenTheGroupsAreSmtCores)
{
    const World w("cluster=2,core=2,smt=2");  // SMT, CLS {0-3} {4-7}, MC {0-7}
    const std::unique_ptr<PlacementPolicy> policy = make_policy("smt-active-balance");
    // CLS balances between SMT cores: active balance now.
    EXPECT_TRUE(policy->imbalanced_active_balance_now(w.s, domain_named(w, 0, "CLS"), 0, 2));
    // MC's groups are clusters, SMT's are single threads: mainline's threshold.
    EXPECT_FALSE(policy->imbalanced_active_balance_now(w.s, domain_named(w, 0, "MC"), 0, 4));
    EXPECT_FALSE(policy->imbalanced_active_balance_now(w.s, domain_named(w, 0, "SMT"), 0, 1));
    EXPECT_FALSE(make_policy("baseline")->imbalanced_active_balance_now(w.s, domain_named(w, 0, "CLS"), 0, 2));
}

TEST(SmtActiveBalance, NoSmtNoChange)
{
    const World w("core=4");
    EXPECT_FALSE(make_policy("smt-active-balance")->imbalanced_active_balance_now(w.s, domain_named(w, 0, "MC"), 0, 1));
}

TEST(SmtActiveBalance, SmtGroupsSwitch)
{
    const World w("cluster=2,core=2,smt=2");
    const std::unique_ptr<PlacementPolicy> policy = make_policy("smt-active-balance:smt_groups=off");
    EXPECT_TRUE(policy->imbalanced_active_balance_now(w.s, domain_named(w, 0, "MC"), 0, 4));
}

TEST(SmtActiveBalance, ChangesNoWakeup)
{
    World w("llc=2,core=4,smt=2");
    w.run_on_all_but({5});
    const TaskId p = w.add_task(9);
    DecisionRecord rec;
    EXPECT_EQ(w.wake_under("smt-active-balance", 0, p, WF_TTWU, &rec), w.wake_under("baseline", 0, p, WF_TTWU));
    EXPECT_TRUE(policy_steps(rec).empty());
}

}  // namespace
}  // namespace wb::test

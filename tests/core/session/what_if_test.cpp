// SPDX-License-Identifier: Apache-2.0
#include "session/what_if.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <map>

#include "io/input_error.h"
#include "io/topology_library.h"
#include "session/lockstep_run.h"

namespace wb {
namespace {

using ::testing::HasSubstr;

RunRequest request(const std::string& workload)
{
    RunRequest r;
    r.workload = workload;
    r.seed = 3;
    return r;
}

const Machine& teaching()
{
    static const Machine m = resolve_machine("teaching-8");
    return m;
}

const DecisionRecord* choice(const WhatIfChoices& choices, const std::string& label)
{
    for (const auto& [l, rec] : choices)
        if (l == label)
            return &rec;
    return nullptr;
}

struct OwnCase {
    std::string machine;
    std::string workload;
    bool policies_differ;  // sync-waker-v3 acts here (no SMT), so the other policy's answer differs at times
};

class WhatIfOwnPolicy : public ::testing::TestWithParam<OwnCase> {};

// Asked what its own policy would choose, in the state it decided in, a run
// answers what it chose: the what-if sees exactly the selector's inputs.
// And asking changes nothing the runs go on to do.
TEST_P(WhatIfOwnPolicy, ARunsOwnPolicyAnswersWhatTheRunChose)
{
    const Machine machine = resolve_machine(GetParam().machine);
    const std::vector<std::string> policies{"baseline", "sync-waker-v3"};
    const std::string& workload = GetParam().workload;
    LockstepRun asked(machine, request(workload), policies);
    LockstepRun plain(machine, request(workload), policies);
    const WhatIf what_if(machine, FeatureSet{}, {{"baseline", ""}, {"sync-waker-v3", ""}});
    asked.set_what_if(&what_if);

    int compared = 0, differed_between_policies = 0;
    for (int k = 0; k < 400; ++k) {
        const LockstepStep a = asked.step_wakeup();
        const LockstepStep b = plain.step_wakeup();
        ASSERT_EQ(a.what_if.size(), policies.size());
        for (std::size_t run = 0; run < policies.size(); ++run) {
            ASSERT_EQ(a.records[run].has_value(), b.records[run].has_value());
            if (!a.records[run])
                continue;
            EXPECT_EQ(a.records[run]->chosen, b.records[run]->chosen) << "asking changed run " << run;
            EXPECT_EQ(a.records[run]->path, b.records[run]->path) << "asking changed run " << run;
            // Woken in place (ttwu_runnable(), p->on_cpu): select_task_rq() never ran.
            const bool selected = a.records[run]->steps.front().function == "select_task_rq" ||
                                  a.records[run]->path != WakePath::NotSelected;
            if (!selected) {
                EXPECT_TRUE(a.what_if[run].empty()) << "wakeup " << a.records[run]->seq << " of run " << run;
                continue;
            }
            ASSERT_EQ(a.what_if[run].size(), 2u);
            const DecisionRecord* own = choice(a.what_if[run], policies[run]);
            ASSERT_NE(own, nullptr);
            EXPECT_EQ(own->chosen, a.records[run]->chosen) << "wakeup " << a.records[run]->seq << " of run " << run;
            EXPECT_EQ(own->path, a.records[run]->path) << "wakeup " << a.records[run]->seq << " of run " << run;
            ++compared;
            const DecisionRecord* other = choice(a.what_if[run], policies[1 - run]);
            differed_between_policies += other->chosen != own->chosen;
        }
    }
    EXPECT_GT(compared, 300);
    if (GetParam().policies_differ) {
        EXPECT_GT(differed_between_policies, 0);
    }
    std::printf("%d selections compared; the other policy chose otherwise at %d\n", compared,
                differed_between_policies);
}

INSTANTIATE_TEST_SUITE_P(Runs, WhatIfOwnPolicy,
                         ::testing::Values(OwnCase{"teaching-8", "hackbench:groups=1,loops=20", false},
                                           OwnCase{"ampere-altra-80", "pipe:loops=200", true}));

// Mainline with a feature flipped is asked in the same state: without
// WA_IDLE, wake_affine() no longer takes an idle waker's or prev's CPU on
// that alone, and wake_affine_weight() decides instead.
TEST(WhatIf, MainlineWithAFeatureFlippedDecidesByAnotherBranch)
{
    LockstepRun run(teaching(), request("pipe:loops=200"), {"baseline"});
    const WhatIf what_if(teaching(), FeatureSet{}, {{"baseline", ""}, {"baseline", "NO_WA_IDLE"}});
    EXPECT_EQ(what_if.size(), 2u);
    run.set_what_if(&what_if);
    std::map<std::string, int> functions_with, functions_without;
    for (int k = 0; k < 100; ++k) {
        const LockstepStep s = run.step_wakeup();
        if (s.what_if[0].empty())
            continue;
        for (const DecisionStep& step : choice(s.what_if[0], "baseline")->steps)
            ++functions_with[std::string(step.function)];
        for (const DecisionStep& step : choice(s.what_if[0], "baseline NO_WA_IDLE")->steps)
            ++functions_without[std::string(step.function)];
    }
    EXPECT_GT(functions_with["wake_affine_idle"], 0);
    EXPECT_EQ(functions_without["wake_affine_idle"], 0);
    EXPECT_GT(functions_without["wake_affine_weight"], functions_with["wake_affine_weight"]);
}

TEST(WhatIf, AFeatureThatDoesNotExistIsNamed)
{
    try {
        WhatIf(teaching(), FeatureSet{}, {{"baseline", "NO_SIS_FOO"}});
        FAIL() << "expected an InputError";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("'baseline NO_SIS_FOO'"));
        EXPECT_THAT(e.what(), HasSubstr("SIS_FOO"));
    }
}

TEST(WhatIf, SetToNullStopsAsking)
{
    LockstepRun run(teaching(), request("pipe:loops=50"), {"baseline"});
    const WhatIf what_if(teaching(), FeatureSet{}, {{"baseline", ""}});
    run.set_what_if(&what_if);
    EXPECT_FALSE(run.step_wakeup().what_if[0].empty());
    run.set_what_if(nullptr);
    // A record made with the first (in the same event) still carries its answer.
    run.step_wakeup();
    for (int k = 0; k < 20; ++k)
        EXPECT_TRUE(run.step_wakeup().what_if[0].empty());
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// Validation cases: what a case file must say, the errors a bad one gets,
// and how a case's figures are computed and judged against their bands.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "io/input_error.h"
#include "io/topology_library.h"
#include "validation/validation_case.h"
#include "validation/validation_run.h"

namespace wb {
namespace {

// A small case on the teaching machine: pipe free and pinned, two policies.
std::string teaching_case(const std::string& figures)
{
    return R"({
  "schema_version": 1,
  "title": "pipe on the teaching machine",
  "source": {"report": "a test", "date": "2026", "machine": "teaching-8", "kernel": "none"},
  "machine": "teaching-8",
  "run_conditions": {"hz": {"value": 1000, "source": "the test's kernel"}},
  "runs": [
    {"label": "free", "workload": "pipe:loops=20000", "quick": "pipe:loops=2000"},
    {"label": "pinned", "workload": "pipe:loops=20000,cpus=3", "quick": "pipe:loops=2000,cpus=3"}
  ],
  "policies": ["baseline", "sync-waker-v3"],
  "figures": )" + figures + R"(,
  "not_produced": [{"name": "IPC", "measured": "1.2", "reason": "no instruction stream"}]
})";
}

const char* const kTwoFigures = R"([
    {"name": "headline", "run": "pinned", "measured": 2.0, "tolerance": [0.1, 10], "quick_tolerance": [0.1, 10]},
    {"name": "headline", "run": "free", "over": {"run": "pinned"}, "measured": 1.0,
     "tolerance": [100, 200], "quick_tolerance": [0.5, 2]}
  ])";

std::string error_of(const std::string& text)
{
    try {
        parse_validation_case(text, "case.json", "case");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

TEST(ValidationCase, ReadsRunsPoliciesFiguresAndConditions)
{
    const ValidationCase c = parse_validation_case(teaching_case(kTwoFigures), "case.json", "t1");
    EXPECT_EQ(c.id, "t1");
    ASSERT_EQ(c.runs.size(), 2u);
    EXPECT_EQ(c.runs[1].quick_workload, "pipe:loops=2000,cpus=3");
    ASSERT_EQ(c.run_conditions.size(), 1u);
    EXPECT_EQ(c.run_conditions[0].cost, Cost::hz);
    EXPECT_EQ(c.run_conditions[0].value, 1000);
    ASSERT_EQ(c.figures.size(), 2u);
    // Unsaid sides default: the first policy, and for the denominator the numerator's own.
    EXPECT_EQ(c.figures[0].of.policy, "baseline");
    ASSERT_TRUE(c.figures[1].over.has_value());
    EXPECT_EQ(c.figures[1].over->run, "pinned");
    EXPECT_EQ(c.figures[1].over->policy, "baseline");
    EXPECT_EQ(c.figures[1].quick.low, 0.5);
    EXPECT_EQ(c.not_produced.at(0).reason, "no instruction stream");
}

TEST(ValidationCase, BadFiguresAreNamedWithTheirPlace)
{
    const std::string e = error_of(teaching_case(R"([
    {"name": "gflops", "measured": 1, "tolerance": [1, 2], "quick_tolerance": [1, 2]},
    {"name": "headline", "run": "loose", "measured": 1, "tolerance": [2, 1], "quick_tolerance": [1, 2]},
    {"name": "headline", "policy": "sis-sync-stack", "measured": 0, "tolerance": [1, 2]}
  ])"));
    EXPECT_NE(e.find("case.json:13:14: /figures/0/name"), std::string::npos) << e;
    EXPECT_NE(e.find("/figures/0/name: unknown figure \"gflops\"; expected one of headline, ops_per_sec"),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("/figures/1/run: unknown run \"loose\"; expected free, pinned"), std::string::npos) << e;
    EXPECT_NE(e.find("/figures/1/tolerance: expected [low, high] with low <= high"), std::string::npos) << e;
    EXPECT_NE(e.find("/figures/2/policy: policy \"sis-sync-stack\" is not among the case's \"policies\""),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("/figures/2/measured: expected a measured value other than 0"), std::string::npos) << e;
    EXPECT_NE(e.find("/figures/2/quick_tolerance: missing \"quick_tolerance\""), std::string::npos) << e;
}

TEST(ValidationCase, BadWorkloadsPoliciesAndConditionsAreRefused)
{
    std::string text = teaching_case(kTwoFigures);
    text.replace(text.find("pipe:loops=2000\""), 16, "pipe:loopz=2000\"");
    text.replace(text.find("\"hz\""), 4, "\"hertz\"");
    text.replace(text.find("sync-waker-v3"), 13, "sync-waker-v9");
    const std::string e = error_of(text);
    EXPECT_NE(e.find("/runs/0/quick: "), std::string::npos) << e;
    EXPECT_NE(e.find("loopz"), std::string::npos) << e;
    EXPECT_NE(e.find("/run_conditions/hertz: unknown cost \"hertz\""), std::string::npos) << e;
    EXPECT_NE(e.find("/policies/1: "), std::string::npos) << e;
}

TEST(ValidationRun, FiguresAreModelOverMeasuredAndJudgedByTheFormsBand)
{
    const ValidationCase c = parse_validation_case(teaching_case(kTwoFigures), "case.json", "t1");
    ValidationOptions quick;
    quick.quick = true;
    const CaseResult r = run_validation_case(c, quick);
    ASSERT_EQ(r.figures.size(), 2u);
    EXPECT_EQ(r.figures[0].label, "usecs/op pinned baseline");
    EXPECT_EQ(r.figures[1].label, "usecs/op free baseline / pinned");
    // A pinned pipe round trip on one CPU is a few microseconds.
    EXPECT_GT(r.figures[0].model, 1.0);
    EXPECT_LT(r.figures[0].model, 20.0);
    EXPECT_DOUBLE_EQ(r.figures[0].ratio, r.figures[0].model / 2.0);
    EXPECT_TRUE(r.figures[0].within);
    // Free against pinned is a ratio near 1: inside the quick band, never
    // inside the full form's [100, 200].
    EXPECT_GT(r.figures[1].model, 0.5);
    EXPECT_LT(r.figures[1].model, 2.0);
    EXPECT_TRUE(r.figures[1].within);
    ValidationOptions full;
    full.seeds = 1;
    const CaseResult f = run_validation_case(c, full);
    EXPECT_FALSE(f.figures[1].within);
    EXPECT_FALSE(f.all_within());
    EXPECT_NE(format_case_result(f).find("OUTSIDE"), std::string::npos);
    EXPECT_NE(format_case_result(f).find("not produced: IPC (1.2): no instruction stream"), std::string::npos);

    const nlohmann::json j = nlohmann::json::parse(validation_results_to_json({r}));
    const nlohmann::json& fig = j["cases"][0]["figures"][1];
    EXPECT_EQ(j["cases"][0]["id"], "t1");
    EXPECT_EQ(fig["name"], "headline");
    EXPECT_EQ(fig["measured"], 1.0);
    EXPECT_EQ(fig["within"], true);
    EXPECT_EQ(fig["tolerance"][0], 0.5);
    EXPECT_EQ(j["cases"][0]["not_produced"][0]["reason"], "no instruction stream");
}

TEST(ValidationRun, RunConditionsOverrideTheMachinesCostsWithTheirSource)
{
    const Machine m = case_machine(parse_validation_case(teaching_case(kTwoFigures), "case.json", "t"));
    EXPECT_EQ(m.costs[Cost::hz], 1000);
    EXPECT_EQ(m.costs.at(Cost::hz).source, "the test's kernel");
    EXPECT_EQ(m.costs.at(Cost::clock_rate), resolve_machine("teaching-8").costs.at(Cost::clock_rate));
}

TEST(ValidationCase, EveryShippedCaseReads)
{
    const std::vector<std::string> files = list_validation_case_files();
    ASSERT_EQ(files.size(), 5u);
    for (const std::string& file : files)
        EXPECT_NO_THROW(load_validation_case(file)) << file;
}

}  // namespace
}  // namespace wb

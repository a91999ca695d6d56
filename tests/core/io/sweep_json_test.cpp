// SPDX-License-Identifier: Apache-2.0
#include "io/sweep_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "io/input_error.h"
#include "sweep/sweep_grid.h"

namespace wb {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string error_of(std::string_view text, SweepChecks checks = SweepChecks::Full)
{
    try {
        parse_sweep_json(text, "s.json", checks);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

constexpr std::string_view kGood = R"({
  "schema_version": 1,
  "name": "hackbench-groups",
  "machines": ["teaching-8", "synthetic:core=4"],
  "workloads": [
    {"label": "hb", "workload": "hackbench:loops=10,fds=2", "parameters": {"groups": {"from": 1, "to": 8, "factor": 2}}},
    {"workload": "schbench:runtime=10ms", "parameters": {"work": {"from": 10, "to": 30, "step": 10, "unit": "us"},
                                                       "threads": [2, "4"]}}
  ],
  "policies": ["baseline", "sync-waker-v3:smt_check=off"],
  "features": ["", "NO_WA_BIAS"],
  "seeds": {"from": 1, "to": 5}
})";

TEST(SweepJson, ReadsRangesListsAndDefaults)
{
    const SweepSpec s = parse_sweep_json(kGood, "s.json");
    EXPECT_EQ(s.name, "hackbench-groups");
    ASSERT_EQ(s.workloads.size(), 2u);
    EXPECT_EQ(s.workloads[1].label, "schbench:runtime=10ms");  // the spec, without a label
    ASSERT_EQ(s.workloads[0].parameters.size(), 1u);
    std::vector<std::string> groups;
    for (const ParameterValue& v : s.workloads[0].parameters[0].values)
        groups.push_back(v.text);
    EXPECT_EQ(groups, (std::vector<std::string>{"1", "2", "4", "8"}));
    EXPECT_EQ(s.workloads[1].parameters[0].values[2].text, "30us");
    EXPECT_EQ(s.workloads[1].parameters[0].values[2].number, 30.0);
    EXPECT_EQ(s.workloads[1].parameters[1].values[1].text, "4");
    EXPECT_EQ(s.seeds, (std::vector<std::uint64_t>{1, 2, 3, 4, 5}));
    EXPECT_EQ(s.features, (std::vector<std::string>{"", "NO_WA_BIAS"}));
    // (4 + 3 x 2) workload points x 2 features x 2 policies x 5 seeds, on 2 machines
    EXPECT_EQ(SweepGrid(s).size(), 2u * 10u * 20u);

    const SweepSpec bare = parse_sweep_json(
        R"({"schema_version": 1, "name": "b", "machines": ["teaching-8"], "workloads": [{"workload": "pipe"}]})",
        "b.json");
    EXPECT_EQ(bare.policies, std::vector<std::string>{"baseline"});
    EXPECT_EQ(bare.features, std::vector<std::string>{""});
    EXPECT_EQ(bare.seeds, std::vector<std::uint64_t>{1});
}

TEST(SweepJson, TheCanonicalFormReadsBackTheSame)
{
    const SweepSpec s = parse_sweep_json(kGood, "s.json");
    const std::string canonical = sweep_to_json(s);
    EXPECT_EQ(canonical.find('\n'), std::string::npos);
    EXPECT_THAT(canonical, HasSubstr(R"("parameters":{"groups":[1,2,4,8]})"));
    EXPECT_THAT(canonical, HasSubstr(R"("work":["10us","20us","30us"],"threads":[2,4])"));
    EXPECT_EQ(parse_sweep_json(canonical, "canonical"), s);
    EXPECT_EQ(sweep_to_json(parse_sweep_json(canonical, "canonical")), canonical);
}

TEST(SweepJson, TheFingerprintFollowsTheGrid)
{
    const SweepSpec s = parse_sweep_json(kGood, "s.json");
    EXPECT_EQ(sweep_fingerprint(s).size(), 16u);
    EXPECT_EQ(sweep_fingerprint(s), sweep_fingerprint(parse_sweep_json(sweep_to_json(s), "c")));
    SweepSpec more = s;
    more.seeds.push_back(6);
    EXPECT_NE(sweep_fingerprint(more), sweep_fingerprint(s));
}

TEST(SweepJson, ReportsEveryProblemWithFileLineColumnAndPointer)
{
    const std::string msg = error_of(R"({
  "schema_version": 1,
  "name": "bad",
  "machines": ["teaching-8", "no-such-machine"],
  "workloads": [
    {"workload": "hackbench:loops=10", "parameters": {"grups": [1, 2]}},
    {"workload": "hackbench:loops=10", "parameters": {"groups": {"from": 1, "to": 8, "step": 0}}},
    {"workload": "pipes"}
  ],
  "policies": ["baseline", "nope"],
  "features": ["", "NO_FOO"],
  "seeds": [1, 2, 2],
  "colour": "red"
})");
    EXPECT_THAT(msg, HasSubstr("s.json:4:30: /machines/1: no such machine"));
    EXPECT_THAT(msg, HasSubstr("s.json:6:65: /workloads/0/parameters/grups/0: unknown parameter 'grups' of "
                               "hackbench; expected groups, fds, loops"));
    // Two workloads without labels are named by their specs: the same name twice.
    EXPECT_THAT(msg, HasSubstr("s.json:7:18: /workloads/1/workload: the label \"hackbench:loops=10\" is given "
                               "twice; expected each workload's once"));
    EXPECT_THAT(msg, HasSubstr("s.json:7:65: /workloads/1/parameters/groups: expected \"step\" above 0"));
    EXPECT_THAT(msg, HasSubstr("s.json:8:18: /workloads/2/workload: unknown workload 'pipes'"));
    EXPECT_THAT(msg, HasSubstr("s.json:10:28: /policies/1: expected one of baseline"));
    EXPECT_THAT(msg, HasSubstr("s.json:11:20: /features/1: unknown scheduler feature 'FOO'"));
    EXPECT_THAT(msg, HasSubstr("s.json:12:19: /seeds/2: seed 2 is given twice; expected each once"));
    EXPECT_THAT(msg, HasSubstr("s.json:13:13: /colour: unknown key \"colour\"; expected description, features, "
                               "machines, name, policies, schema_version, seeds, workloads"));
    // In reading order, one line each.
    EXPECT_LT(msg.find("/machines/1"), msg.find("/colour"));
    EXPECT_EQ(std::count(msg.begin(), msg.end(), '\n'), 8);
}

TEST(SweepJson, AValueOfARangeIsNamedByItsPlaceInTheRange)
{
    const std::string msg = error_of(R"({"schema_version": 1, "name": "r", "machines": ["teaching-8"],
 "workloads": [{"workload": "hackbench", "parameters": {"groups": {"from": 0, "to": 4, "step": 2}}}]})");
    EXPECT_EQ(msg, "s.json:2:67: /workloads/0/parameters/groups: value 0 (the 1st of the range): groups=0: expected "
                   "a whole number from 1 to 100000");
}

TEST(SweepJson, MissingPartsAndWrongShapes)
{
    const std::string msg = error_of(R"({"schema_version": 2, "machines": [], "workloads": [{"label": "x"}],
 "features": 3, "seeds": {"from": 5, "to": 1}})");
    EXPECT_THAT(msg, HasSubstr("s.json:1:20: /schema_version: expected \"schema_version\": 1"));
    EXPECT_THAT(msg, HasSubstr("/name: missing \"name\": expected a string"));
    EXPECT_THAT(msg, HasSubstr("s.json:1:35: /machines: expected a non-empty array"));
    EXPECT_THAT(msg, HasSubstr("s.json:1:53: /workloads/0: expected an object with a \"workload\" spec"));
    EXPECT_THAT(msg, HasSubstr("s.json:2:14: /features: expected a feature list such as \"NO_WA_BIAS\""));
    EXPECT_THAT(msg, HasSubstr("s.json:2:44: /seeds/to: expected \"to\" at or above \"from\""));
}

TEST(SweepJson, DuplicatesAreRefused)
{
    const std::string msg = error_of(R"({"schema_version": 1, "name": "d", "name": "e", "machines": ["teaching-8"],
 "workloads": [{"workload": "pipe", "parameters": {"loops": [10, 10]}}, {"label": "pipe", "workload": "pipe:loops=5"}],
 "policies": ["baseline", "baseline"]})");
    EXPECT_THAT(msg, HasSubstr("/name: key given twice"));
    EXPECT_THAT(msg, HasSubstr("/workloads/0/parameters/loops/1: the value 10 is given twice"));
    EXPECT_THAT(msg, HasSubstr("/workloads/1/label: the label \"pipe\" is given twice"));
    EXPECT_THAT(msg, HasSubstr("/policies/1: \"baseline\" is given twice"));
}

TEST(SweepJson, StructureChecksLeaveMachinesAndNamesAlone)
{
    // A result read on a host that lacks the machine file or the plugin.
    const std::string text = R"({"schema_version": 1, "name": "s", "machines": ["/elsewhere/m.json"],
 "workloads": [{"workload": "pipe"}], "policies": ["a-plugins-policy"]})";
    EXPECT_EQ(error_of(text, SweepChecks::Structure), "no error");
    EXPECT_THAT(error_of(text), HasSubstr("/machines/0"));
    EXPECT_THAT(error_of(text), HasSubstr("/policies/0"));
}

TEST(SweepJson, SyntaxErrorsHaveALineAndColumn)
{
    EXPECT_THAT(error_of("{\n  \"name\": \"x\",\n}"), HasSubstr("s.json:3:1: invalid JSON"));
}

TEST(SweepJson, TheShippedSweepsLoad)
{
    for (const char* name : {"small.json", "hackbench-groups.json"}) {
        const SweepSpec s = load_sweep_file(std::string(WB_SOURCE_DIR) + "/resources/sweeps/" + name);
        EXPECT_GT(SweepGrid(s).size(), 1u) << name;
    }
}

// The schema names the keys the reader takes, no more and no fewer.
TEST(SweepJson, TheSchemaNamesTheKeysTheReaderTakes)
{
    std::ifstream in(std::string(WB_SOURCE_DIR) + "/resources/schema/sweep.schema.json");
    const nlohmann::json schema = nlohmann::json::parse(in);
    std::set<std::string> keys;
    for (const auto& [key, value] : schema["properties"].items())
        keys.insert(key);
    EXPECT_EQ(keys, (std::set<std::string>{"schema_version", "name", "description", "machines", "workloads",
                                           "policies", "features", "seeds"}));
    std::set<std::string> workload_keys;
    for (const auto& [key, value] : schema["properties"]["workloads"]["items"]["properties"].items())
        workload_keys.insert(key);
    EXPECT_EQ(workload_keys, (std::set<std::string>{"label", "workload", "parameters"}));
    EXPECT_THAT(error_of(R"({"schema_version": 1, "name": "x", "machines": ["teaching-8"], "workloads":
 [{"workload": "pipe", "parameters": {"loops": {"from": 1, "to": 2, "step": 1, "by": 2}}}]})"),
                HasSubstr("unknown key \"by\"; expected factor, from, step, to, unit"));
}

}  // namespace
}  // namespace wb

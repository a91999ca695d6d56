// SPDX-License-Identifier: Apache-2.0
#include "io/scenario_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "io/input_error.h"
#include "topology/machine.h"

namespace wb {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

std::string error_of(std::string_view text)
{
    try {
        parse_scenario_json(text, "s.json");
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

TEST(ScenarioJson, TheShippedDefaultScenarioLoads)
{
    const Scenario s = load_scenario_file(std::string(WB_SOURCE_DIR) + "/resources/scenarios/altra-pipe.json");
    EXPECT_EQ(s.machine, "ampere-altra-80");
    ASSERT_EQ(s.cases.size(), 3u);
    EXPECT_EQ(s.cases[1].label, "same-cpu-79");
    EXPECT_EQ(s.cases[1].workload, "pipe:loops=1000000,cpus=79");
    EXPECT_EQ(s.policies, (std::vector<std::string>{"baseline", "sis-sync-stack", "sync-waker-v3"}));
    EXPECT_EQ(s.runs, 20);
}

TEST(ScenarioJson, RoundTrips)
{
    Scenario s;
    s.name = "x";
    s.machine = "teaching-8";
    s.cases = {{"one", "pipe:loops=10"}, {"two", "pipe:loops=10,cpus=3"}};
    s.policies = {"baseline", "sync-waker-v3:smt_check=off"};
    s.features = "NO_WA_BIAS";
    s.seed = 9;
    s.runs = 4;
    EXPECT_EQ(parse_scenario_json(scenario_to_json(s), "rt"), s);
}

TEST(ScenarioJson, ReportsEveryProblemWithItsPlace)
{
    const std::string msg = error_of(R"({
  "schema_version": 1,
  "name": "bad",
  "machine": "teaching-8",
  "cases": [{"label": "a", "workload": "pipes"}],
  "policies": ["baseline", "nope"],
  "features": "NO_FOO",
  "runs": 0,
  "colour": "red"
})");
    EXPECT_THAT(msg, HasSubstr("s.json:5:40: /cases/0/workload: unknown workload 'pipes'"));
    EXPECT_THAT(msg, HasSubstr("s.json:6:28: /policies/1: expected one of baseline, sync-waker-v3"));
    EXPECT_THAT(msg, HasSubstr("/features: unknown scheduler feature 'FOO'"));
    EXPECT_THAT(msg, HasSubstr("/runs: expected a whole number of runs from 1 to 100000"));
    EXPECT_THAT(msg, HasSubstr("/colour: unknown key \"colour\""));
    // In reading order.
    EXPECT_LT(msg.find("/cases/0/workload"), msg.find("/colour"));
}

TEST(ScenarioJson, SyntaxErrorsHaveALineAndColumn)
{
    EXPECT_THAT(error_of("{\n  \"name\": \"x\",,\n}"),
                HasSubstr("s.json:2:15: invalid JSON: syntax error while parsing object key - unexpected ','"));
    // A missing member is blamed on the object that lacks it, under its own pointer.
    const std::string missing = error_of("{\"schema_version\": 1}");
    EXPECT_THAT(missing, HasSubstr("s.json:1:1: /name: missing \"name\": expected a string"));
    EXPECT_THAT(missing, HasSubstr("s.json:1:1: /cases: expected \"cases\": a non-empty array"));
}

TEST(ScenarioJson, AFolderIsNoScenario)
{
    try {
        load_scenario_file(std::string(WB_SOURCE_DIR) + "/resources/scenarios");
        FAIL() << "a folder was read as a scenario";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("resources/scenarios: is a directory; expected a scenario file"));
    }
}

TEST(ScenarioJson, RelativeMachineFilesAreTakenFromTheScenarioFolder)
{
    Scenario s;
    s.machine = "machines/m.json";
    EXPECT_EQ(scenario_machine_spec(s, "/a/b/scn.json"), "/a/b/machines/m.json");
    s.machine = "teaching-8";
    EXPECT_EQ(scenario_machine_spec(s, "/a/b/scn.json"), "teaching-8");
}

TEST(ScenarioJson, ASyntheticSpecIsNoPathEvenWithASlash)
{
    Scenario s;
    s.machine = "synthetic:core=4,capacity=512x2/1024x2";
    EXPECT_EQ(scenario_machine_spec(s, "/a/b/scn.json"), s.machine);
    EXPECT_EQ(resolve_scenario_machine(s, "/a/b/scn.json").cpus[3].capacity, 1024);
}

TEST(ScenarioJson, AKeyGivenTwiceIsRefusedAtTheSecond)
{
    // nlohmann kept the last "name" silently.
    EXPECT_THAT(error_of("{\"schema_version\": 1, \"name\": \"x\", \"name\": \"y\", \"machine\": \"teaching-8\",\n"
                         " \"cases\": [{\"workload\": \"pipe\", \"workload\": \"pipe:loops=3\"}]}"),
                AllOf(HasSubstr("s.json:1:36: /name: duplicate key: a key may appear only once in an object"),
                      HasSubstr("s.json:2:33: /cases/0/workload: duplicate key")));
}

TEST(ScenarioJson, ANumberBeyondADoubleIsAnInputErrorWithItsPlace)
{
    EXPECT_THAT(error_of("{\"schema_version\": 1,\n \"seed\": 1e400}"),
                HasSubstr("s.json:2:10: invalid JSON: number overflow parsing '1e400'; expected a number within the "
                          "range of a double"));
}

TEST(ScenarioJson, ABadMachineNamesTheScenarioAndItsMachineFirst)
{
    const std::string path = testing::TempDir() + "bad-machine-scenario.json";
    Scenario s;
    s.name = "x";
    s.machine = "synthetic:core=4,capacity=5000x4";
    s.cases = {{"one", "pipe:loops=10"}};
    s.policies = {"baseline"};
    save_scenario_file(s, path);
    try {
        resolve_scenario_machine(load_scenario_file(path), path);
        FAIL() << "a bad machine was resolved";
    } catch (const InputError& e) {
        ASSERT_EQ(e.diagnostics().size(), 2u);
        EXPECT_EQ(e.diagnostics()[0].to_string(),
                  path +
                      ":4:14: /machine: the machine \"synthetic:core=4,capacity=5000x4\" cannot be used; its "
                      "problems follow");
        EXPECT_THAT(e.diagnostics()[1].to_string(),
                    HasSubstr("synthetic spec:1:27: capacity value '5000': expected a whole capacity"));
    }
    // A scenario edited since it was saved: the message names no stale line.
    s.machine = "no-such-machine";
    try {
        resolve_scenario_machine(s, path);
        FAIL() << "an unknown machine was resolved";
    } catch (const InputError& e) {
        EXPECT_THAT(e.diagnostics()[0].to_string(), HasSubstr(path + ": /machine: the machine \"no-such-machine\""));
    }
}

}  // namespace
}  // namespace wb

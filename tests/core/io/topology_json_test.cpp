// SPDX-License-Identifier: Apache-2.0
#include "io/topology_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "io/input_error.h"

namespace wb {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

std::string fixture(const std::string& name)
{
    return std::string(WB_TEST_DATA) + "/machines/" + name;
}

std::string read_text(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The text of the InputError parsing `text` throws, or a marker if none.
std::string errors(std::string_view text)
{
    try {
        parse_machine_json(text, "bad.json");
    } catch (const InputError& e) {
        return e.what();
    }
    return "(accepted)";
}

std::vector<Diagnostic> diagnostics(std::string_view text)
{
    try {
        parse_machine_json(text, "bad.json");
    } catch (const InputError& e) {
        return e.diagnostics();
    }
    return {};
}

// "line:column" of the first `needle` in `text`, counted independently of
// the code under test (the texts here are ASCII).
std::string where(std::string_view text, std::string_view needle)
{
    const std::size_t at = text.find(needle);
    EXPECT_NE(at, std::string_view::npos) << needle;
    const std::size_t line_start = text.rfind('\n', at) == std::string_view::npos ? 0 : text.rfind('\n', at) + 1;
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
    return std::to_string(line) + ":" + std::to_string(at - line_start + 1);
}

constexpr std::string_view kOneLlc = R"([{"packages": [{"llcs": [{"cores": [{"repeat": 2, "threads": 2}]}]}]}])";
constexpr std::string_view kCorePath = "/nodes/0/packages/0/llcs/0/cores/0";

// A valid machine file around `nodes`, with `extra` members (each starting
// with ",\n") after it.
std::string machine(std::string_view nodes = kOneLlc, std::string_view extra = "")
{
    return std::string(
               "{\n  \"schema_version\": 1,\n  \"name\": \"m\",\n  \"description\": \"test\",\n"
               "  \"source\": \"\",\n  \"nodes\": ") +
           std::string(nodes) + std::string(extra) + "\n}\n";
}

// One core given as `core` inside a one-LLC machine.
std::string machine_with_core(std::string_view core, std::string_view extra = "")
{
    return machine(std::string(R"([{"packages": [{"llcs": [{"cores": [)") + std::string(core) + "]}]}]}]", extra);
}

// ----------------------------------------------------------------------------
// Reading good files

TEST(LoadMachineFile, ReadsTheTeachingMachine)
{
    const Machine m = load_machine_file(fixture("teaching-8.json"));
    EXPECT_EQ(m.name, "teaching-8");
    EXPECT_EQ(m.description, "Teaching machine: 2 LLCs x 2 cores x SMT-2, 8 CPUs");
    EXPECT_EQ(m.arch, Arch::Generic);
    EXPECT_FALSE(m.asym_packing);
    EXPECT_EQ(m.numbering, CpuNumbering::CoreMajor);
    EXPECT_EQ(m.node_distance, (std::vector<std::vector<int>>{{10}}));
    ASSERT_EQ(m.nr_cpus(), 8);
    EXPECT_EQ(m.nr_llcs(), 2);
    EXPECT_EQ(m.nr_cores(), 4);
    EXPECT_EQ(m.llc_mask(0).to_cpulist(), "0-3");
    EXPECT_EQ(m.llc_mask(5).to_cpulist(), "4-7");
    EXPECT_EQ(m.smt_mask(2).to_cpulist(), "2-3");
    EXPECT_EQ(m.smt_mask(7).to_cpulist(), "6-7");
    EXPECT_EQ(m.idle_states.size(), 2u);
    EXPECT_EQ(m.idle_states[1].name, "cpu-sleep");
    EXPECT_EQ(m.idle_states[1].exit_latency_ns, 150000.0);
    EXPECT_EQ(m.idle_states[1].target_residency_ns, 1500000.0);
    EXPECT_EQ(m.costs[Cost::context_switch], 1900.0);
    EXPECT_EQ(m.costs.at(Cost::context_switch).source, "lmbench lat_ctx -s 0 2, median of 10 runs");
    EXPECT_EQ(m.costs[Cost::smt_contention], 0.62);
    EXPECT_EQ(m.costs.at(Cost::syscall), CostModel().at(Cost::syscall));  // not given: the default
}

TEST(ParseMachineJson, RepeatGivesEveryContainerItsOwnTreeOrderIndex)
{
    const Machine m = parse_machine_json(machine(R"([{"repeat": 2, "packages": [{"repeat": 2, "llcs": [
        {"repeat": 2, "clusters": [{"repeat": 2, "cores": [{"repeat": 2, "threads": 2}]}]}]}]}])",
                                                 ",\n  \"node_distance\": [[10, 20], [20, 10]]"),
                                         "m.json");
    ASSERT_EQ(m.nr_cpus(), 2 * 2 * 2 * 2 * 2 * 2);
    EXPECT_EQ(m.nr_nodes(), 2);
    EXPECT_EQ(m.nr_packages(), 4);
    EXPECT_EQ(m.nr_llcs(), 8);
    EXPECT_EQ(m.nr_clusters(), 16);
    EXPECT_EQ(m.nr_cores(), 32);
    // 32 CPUs a node, 16 a package, 8 an LLC, 4 a cluster: CPU 45 is node 1's
    // first package, its second LLC, that LLC's second cluster, its first core.
    const CpuTopo& c = m.cpus[45];
    EXPECT_EQ(c.cpu, 45);
    EXPECT_EQ(c.node, 1);
    EXPECT_EQ(c.package, 2);
    EXPECT_EQ(c.llc, 5);
    EXPECT_EQ(c.cluster, 11);
    EXPECT_EQ(c.core, 22);
    EXPECT_EQ(c.thread, 1);
    EXPECT_EQ(m.cluster_mask(45).to_cpulist(), "44-47");
}

TEST(ParseMachineJson, CoresListedInAnLlcAreEachTheirOwnCluster)
{
    const Machine m = parse_machine_json(machine(), "m.json");
    EXPECT_EQ(m.nr_clusters(), 2);
    EXPECT_EQ(m.cluster_mask(1).to_cpulist(), "0-1");
}

TEST(ParseMachineJson, ThreadMajorNumbersFirstThreadsOfAllCoresFirst)
{
    const Machine m = load_machine_file(fixture("x86-2s-16.json"));
    EXPECT_EQ(m.arch, Arch::X86);
    EXPECT_EQ(m.numbering, CpuNumbering::ThreadMajor);
    ASSERT_EQ(m.nr_cpus(), 16);
    EXPECT_EQ(m.smt_mask(0).to_cpulist(), "0,8");
    EXPECT_EQ(m.smt_mask(13).to_cpulist(), "5,13");
    EXPECT_EQ(m.node_mask(1).to_cpulist(), "4-7,12-15");
    EXPECT_EQ(m.cpus[8].thread, 1);
    EXPECT_EQ(m.cpus[8].core, 0);
    EXPECT_EQ(m.node_distance, (std::vector<std::vector<int>>{{10, 21}, {21, 10}}));
}

TEST(ParseMachineJson, ThreadMajorWithUnevenSmtTakesEachPositionInTurn)
{
    const Machine m = parse_machine_json(machine_with_core(R"({"threads": 1}, {"threads": 3}, {"threads": 2})",
                                                           ",\n  \"cpu_numbering\": \"thread-major\""),
                                         "m.json");
    // Position 0: cores 0,1,2 -> CPUs 0-2; position 1: cores 1,2 -> 3-4; position 2: core 1 -> 5.
    EXPECT_EQ(m.smt_mask(1).to_cpulist(), "1,3,5");
    EXPECT_EQ(m.smt_mask(2).to_cpulist(), "2,4");
    EXPECT_EQ(m.cpus[5].thread, 2);
}

TEST(ParseMachineJson, ExplicitCpuIdsNeedFollowNoNumbering)
{
    const Machine m = load_machine_file(fixture("explicit-ids.json"));
    ASSERT_EQ(m.nr_cpus(), 8);
    EXPECT_EQ(m.llc_mask(0).to_cpulist(), "0,2,4,6");
    EXPECT_EQ(m.llc_mask(1).to_cpulist(), "1,3,5,7");
    EXPECT_EQ(m.smt_mask(0).to_cpulist(), "0,4");
    EXPECT_EQ(m.smt_mask(2).to_cpulist(), "2,6");
    EXPECT_EQ(m.cpus[6].core, 1);
    EXPECT_EQ(m.cpus[6].thread, 1);
}

TEST(ParseMachineJson, CoreValuesAreThreadDefaultsAndCpusOverridesComeLast)
{
    const Machine m = load_machine_file(fixture("dynamiq-8.json"));
    ASSERT_EQ(m.nr_cpus(), 8);
    EXPECT_EQ(m.nr_clusters(), 3);
    EXPECT_EQ(m.cluster_mask(5).to_cpulist(), "4-6");
    for (CpuId cpu : {0, 3}) {
        EXPECT_EQ(m.cpus[cpu].capacity, 325) << cpu;
        EXPECT_EQ(m.cpus[cpu].speed, 0.45) << cpu;
    }
    for (CpuId cpu : {4, 6}) {
        EXPECT_EQ(m.cpus[cpu].capacity, 871) << cpu;
        EXPECT_EQ(m.cpus[cpu].speed, 1.1) << cpu;
    }
    EXPECT_EQ(m.cpus[5].asym_prio, 0);
    EXPECT_EQ(m.cpus[6].asym_prio, 2);
    EXPECT_EQ(m.cpus[7].capacity, 1024);
    EXPECT_EQ(m.cpus[7].speed, 1.4);
    EXPECT_EQ(m.cpus[7].asym_prio, 3);
}

TEST(ParseMachineJson, LaterCpusEntriesWinWhereTheyOverlap)
{
    const Machine m = parse_machine_json(
        machine(kOneLlc,
                ",\n  \"cpus\": {\"0-3\": {\"capacity\": 500}, \"2\": {\"capacity\": 700}, \"0-3:2/4\": "
                "{\"speed\": 0.5}}"),
        "m.json");
    EXPECT_EQ(m.cpus[1].capacity, 500);
    EXPECT_EQ(m.cpus[2].capacity, 700);
    EXPECT_EQ(m.cpus[1].speed, 0.5);
    EXPECT_EQ(m.cpus[2].speed, 1.0);
}

TEST(ParseMachineJson, ConvertsCostUnitsExactly)
{
    const Machine m = parse_machine_json(machine(kOneLlc, R"(,
  "costs": {
    "context_switch": {"value": 1.9, "unit": "us"},
    "wakeup_ipi": {"value": 0.0021, "unit": "ms"},
    "syscall": {"value": 0.00000009, "unit": "s"},
    "pipe_transfer": {"value": 4.5e2, "unit": "ns"},
    "clock_rate": {"value": 2100, "unit": "MHz"},
    "hz": {"value": 1000, "unit": "Hz", "source": "CONFIG_HZ_1000"},
    "smt_contention": {"value": 0.7}
  })"),
                                         "m.json");
    // Exactly the double nearest the decimal, not 1.9 * 1000 rounded twice.
    EXPECT_EQ(m.costs[Cost::context_switch], 1900.0);
    EXPECT_EQ(m.costs[Cost::wakeup_ipi], 2100.0);
    EXPECT_EQ(m.costs[Cost::syscall], 90.0);
    EXPECT_EQ(m.costs[Cost::pipe_transfer], 450.0);
    EXPECT_EQ(m.costs[Cost::clock_rate], 2.1);
    EXPECT_EQ(m.costs[Cost::hz], 1000.0);
    EXPECT_EQ(m.costs.at(Cost::hz).source, "CONFIG_HZ_1000");
    EXPECT_EQ(m.costs.at(Cost::context_switch).source, "");
    EXPECT_EQ(m.costs[Cost::smt_contention], 0.7);
}

TEST(ParseMachineJson, ReadsNodeReclaimDistance)
{
    EXPECT_EQ(parse_machine_json(machine(), "m.json").node_reclaim_distance, 30);
    const Machine zen = parse_machine_json(machine(kOneLlc, ",\n  \"node_reclaim_distance\": 32"), "m.json");
    EXPECT_EQ(zen.node_reclaim_distance, 32);
    EXPECT_THAT(errors(machine(kOneLlc, ",\n  \"node_reclaim_distance\": 5")),
                HasSubstr("bad.json:7:28: /node_reclaim_distance: expected a node distance of at least 10, found 5"));
}

TEST(ParseMachineJson, AcceptsTheLargestMachine)
{
    const Machine m = parse_machine_json(machine_with_core(R"({"repeat": 2048, "threads": 2})"), "m.json");
    EXPECT_EQ(m.nr_cpus(), kMaxCpus);
}

// ----------------------------------------------------------------------------
// Bad files: each class of mistake, with its message and its place.

TEST(LoadMachineFile, ReportsEveryProblemOfAFileAtOnceInReadingOrder)
{
    try {
        load_machine_file(fixture("bad.json"));
        FAIL() << "bad.json was accepted";
    } catch (const InputError& e) {
        const std::string path = fixture("bad.json");
        ASSERT_EQ(e.diagnostics().size(), 4u) << e.what();
        EXPECT_EQ(e.diagnostics()[0].to_string(),
                  path +
                      ":7:35: /nodes/0/packages/0/llcs/0/cores/0/threads/1/capacity: expected a capacity from 1 "
                      "to 1024, found 2000");
        EXPECT_EQ(e.diagnostics()[1].to_string(),
                  path +
                      ":8:20: /nodes/0/packages/0/llcs/0/cores/1/capcity: unknown key \"capcity\" (did you mean "
                      "\"capacity\"?); expected one of: repeat, threads, capacity, speed, asym_prio");
        EXPECT_EQ(e.diagnostics()[2].to_string(),
                  path +
                      ":9:16: /nodes/0/packages/0/llcs/0/cores/2/repeat: expected a repeat count of at least 1, "
                      "found 0");
        EXPECT_EQ(e.diagnostics()[3].to_string(),
                  path +
                      ":12:46: /costs/context_switch/unit: expected \"ns\", \"us\", \"ms\" or \"s\" "
                      "(context_switch is a time), found \"sec\"");
    }
}

TEST(LoadMachineFile, ReportsJsonSyntaxErrorsWithLineAndColumn)
{
    EXPECT_THAT(errors(read_text(fixture("bad-syntax.json"))),
                HasSubstr("bad.json:5:10: invalid JSON: syntax error while parsing object - unexpected string "
                          "literal; expected '}'"));
    EXPECT_THAT(errors("{\n  \"a\": [1, 2\n"),
                HasSubstr("bad.json:3:1: invalid JSON: syntax error while parsing array"));
    EXPECT_THAT(errors(""), HasSubstr("bad.json:1:1: invalid JSON: syntax error while parsing value - unexpected end "
                                      "of input"));
    EXPECT_THAT(errors("{\n  \"x\": 1e400}"), HasSubstr("bad.json:2:8: invalid JSON: number overflow parsing '1e400'"));
}

TEST(LoadMachineFile, ReportsFilesThatCannotBeRead)
{
    EXPECT_THROW(
        {
            try {
                load_machine_file(fixture("no-such-file.json"));
            } catch (const InputError& e) {
                EXPECT_THAT(e.what(), HasSubstr("no-such-file.json: cannot open: No such file or directory"));
                throw;
            }
        },
        InputError);
    try {
        load_machine_file(std::string(WB_TEST_DATA) + "/machines");
        ADD_FAILURE() << "a directory was accepted";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("machines: is a directory; expected a machine file"));
    }
}

TEST(ParseMachineJson, ReportsWrongTypes)
{
    EXPECT_THAT(errors("[1]"), HasSubstr("bad.json:1:1: expected a machine object"));
    EXPECT_THAT(errors(machine("{}")), HasSubstr("bad.json:6:12: /nodes: expected an array of NODE objects, found an "
                                                 "empty object"));
    EXPECT_THAT(errors(machine("[3]")), HasSubstr("bad.json:6:13: /nodes/0: expected a NODE object, found 3"));

    const std::string text =
        machine_with_core(R"({"threads": 1.5}, {"threads": [{"capacity": "big"}]})", ",\n  \"asym_packing\": \"yes\"");
    const std::string all = errors(text);
    EXPECT_THAT(all, HasSubstr("bad.json:" + where(text, "1.5") + ": " + std::string(kCorePath) +
                               "/threads: expected a thread count (an integer of at least 1) or an array of THREAD "
                               "objects, found 1.5"));
    EXPECT_THAT(all, HasSubstr("bad.json:" + where(text, "\"big\"") +
                               ": /nodes/0/packages/0/llcs/0/cores/1/threads/0/capacity: expected a capacity from 1 "
                               "to 1024, found \"big\""));
    EXPECT_THAT(all, HasSubstr("bad.json:" + where(text, "\"yes\"") +
                               ": /asym_packing: expected true or false, found "
                               "\"yes\""));
}

TEST(ParseMachineJson, ReportsUnknownKeysAtTheKeyWithASuggestion)
{
    const std::string text =
        machine(R"([{"packages": [{"llcs": [{"clusters": [{"cores": [{"threads": 1}], "rpeat": 2}]}]}]}])",
                ",\n  \"nmae\": \"x\",\n  \"frobnicate\": true");
    const std::string all = errors(text);
    EXPECT_THAT(all, HasSubstr("bad.json:" + where(text, "\"nmae\"") +
                               ": /nmae: unknown key \"nmae\" (did you mean \"name\"?); expected one of: "
                               "schema_version, name, description, source, arch, asym_packing, cpu_numbering, "
                               "node_distance, node_reclaim_distance, nodes, cpus, idle_states, costs"));
    EXPECT_THAT(all, HasSubstr("bad.json:" + where(text, "\"rpeat\"") +
                               ": /nodes/0/packages/0/llcs/0/clusters/0/rpeat: unknown key \"rpeat\" (did you mean "
                               "\"repeat\"?); expected one of: repeat, cores"));
    EXPECT_THAT(all, HasSubstr("/frobnicate: unknown key \"frobnicate\"; expected one of: schema_version"));
}

TEST(ParseMachineJson, ReportsMissingKeysAtTheObjectThatLacksThem)
{
    const std::string all =
        errors("{\n  \"nodes\": [{\"packages\": [{\"llcs\": [{\"cores\": [{\"repeat\": 2}]}]}]}]\n}");
    EXPECT_THAT(all, HasSubstr("bad.json:1:1: /schema_version: missing required key \"schema_version\": expected 1"));
    EXPECT_THAT(all, HasSubstr("bad.json:1:1: /name: missing required key \"name\": expected a name of lowercase"));
    EXPECT_THAT(all, HasSubstr("bad.json:1:1: /description: missing required key \"description\""));
    EXPECT_THAT(all, HasSubstr("bad.json:1:1: /source: missing required key \"source\""));
    EXPECT_THAT(all, HasSubstr("bad.json:2:48: /nodes/0/packages/0/llcs/0/cores/0/threads: missing required key "
                               "\"threads\": expected a thread count (an integer of at least 1) or an array of THREAD "
                               "objects"));

    EXPECT_THAT(errors(machine(R"([{"packages": [{"llcs": [{"repeat": 2}]}]}])")),
                HasSubstr("bad.json:6:37: /nodes/0/packages/0/llcs/0/cores: missing required key \"cores\" or "
                          "\"clusters\""));
}

TEST(ParseMachineJson, ReportsEmptyLevels)
{
    EXPECT_THAT(errors(machine("[]")), HasSubstr("bad.json:6:12: /nodes: expected at least one NODE, found an empty "
                                                 "array"));
    EXPECT_THAT(errors(machine(R"([{"packages": []}])")),
                HasSubstr("bad.json:6:26: /nodes/0/packages: expected at least one PACKAGE, found an empty array"));
    EXPECT_THAT(errors(machine_with_core(R"({"threads": []})")),
                HasSubstr(std::string(kCorePath) + "/threads: expected at least one THREAD, found an empty array"));
    EXPECT_THAT(errors(machine(R"([{"packages": [{"llcs": [{"cores": [{"threads": 1}], "clusters": []}]}]}])")),
                HasSubstr("/nodes/0/packages/0/llcs/0/cores: expected either \"clusters\" or \"cores\" in an LLC, "
                          "not both"));
}

TEST(ParseMachineJson, ReportsRepeatBelowOne)
{
    const std::string text = machine_with_core(R"({"repeat": -3, "threads": 1}, {"repeat": "2", "threads": 1})");
    const std::string all = errors(text);
    EXPECT_THAT(all, HasSubstr("bad.json:" + where(text, "-3") + ": " + std::string(kCorePath) +
                               "/repeat: expected a repeat count of at least 1, found -3"));
    EXPECT_THAT(all, HasSubstr("/cores/1/repeat: expected a repeat count of at least 1, found \"2\""));
}

TEST(ParseMachineJson, ReportsCapacitiesAndSpeedsOutOfRange)
{
    const std::string text =
        machine_with_core(R"({"threads": [{"capacity": 0}, {"speed": 0}, {"speed": -1.5}], "capacity": 1025})");
    const std::string all = errors(text);
    EXPECT_THAT(all, HasSubstr("bad.json:" + where(text, "0}") + ": " + std::string(kCorePath) +
                               "/threads/0/capacity: expected a capacity from 1 to 1024, found 0"));
    EXPECT_THAT(all, HasSubstr(std::string(kCorePath) + "/threads/1/speed: expected a speed above 0 (1.0 = nominal), "
                                                        "found 0"));
    EXPECT_THAT(all, HasSubstr("/threads/2/speed: expected a speed above 0 (1.0 = nominal), found -1.5"));
    EXPECT_THAT(all, HasSubstr("bad.json:" + where(text, "1025") + ": " + std::string(kCorePath) +
                               "/capacity: expected a capacity from 1 to 1024, found 1025"));
}

TEST(ParseMachineJson, SendsValidateProblemsBackToTheValueThatCausedThem)
{
    // validate() also bounds speed above (16); the reader leaves that to it.
    const std::string text = machine_with_core(R"({"threads": [{}, {"speed": 20}]})");
    const std::vector<Diagnostic> d = diagnostics(text);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].to_string(), "bad.json:" + where(text, "20") + ": " + std::string(kCorePath) +
                                    "/threads/1/speed: CPU 1: expected a relative speed above 0 and at most 16 (1.0 = "
                                    "nominal)");

    // A core-level value or a "cpus" entry is blamed where it is written.
    const std::string via_cpus = machine(kOneLlc, ",\n  \"cpus\": {\"2-3\": {\"speed\": 17}}");
    EXPECT_THAT(errors(via_cpus), HasSubstr("bad.json:" + where(via_cpus, "17") +
                                            ": /cpus/2-3/speed: CPU 2: expected a relative speed above 0"));
    EXPECT_THAT(errors(via_cpus), HasSubstr("/cpus/2-3/speed: CPU 3: expected a relative speed above 0"));
}

TEST(ParseMachineJson, ReportsBadDistanceMatrices)
{
    const std::string two_nodes = R"([{"repeat": 2, "packages": [{"llcs": [{"cores": [{"threads": 1}]}]}]}])";
    EXPECT_THAT(errors(machine(two_nodes)),
                HasSubstr("bad.json:1:1: /node_distance: missing required key \"node_distance\": expected a 2 x 2 "
                          "matrix of node distances, as the machine has 2 nodes"));
    const std::string three_rows =
        machine(two_nodes, ",\n  \"node_distance\": [[10, 21, 21], [21, 10, 21], [21, 21, 10]]");
    EXPECT_THAT(errors(three_rows), HasSubstr("bad.json:" + where(three_rows, "[[") +
                                              ": /node_distance: expected 2 rows (one per node), found 3"));
    EXPECT_THAT(errors(machine(two_nodes, ",\n  \"node_distance\": [[10], [21, 10]]")),
                HasSubstr("bad.json:7:21: /node_distance/0: expected 2 distances (one per node), found 1"));
    EXPECT_THAT(errors(machine(two_nodes, ",\n  \"node_distance\": [[11, 21], [21, 10]]")),
                HasSubstr("bad.json:7:22: /node_distance/0/0: expected 10 (the local distance) on the diagonal, "
                          "found 11"));
    EXPECT_THAT(errors(machine(two_nodes, ",\n  \"node_distance\": [[10, 10], [21, 10]]")),
                HasSubstr("bad.json:7:26: /node_distance/0/1: expected a remote distance greater than 10, found 10"));
    EXPECT_THAT(errors(machine(two_nodes, ",\n  \"node_distance\": [[10, 21], [31, 10]]")),
                HasSubstr("bad.json:7:32: /node_distance/1/0: expected 21, the same as /node_distance/0/1 "
                          "(distances are symmetric), found 31"));
    EXPECT_THAT(errors(machine(two_nodes, ",\n  \"node_distance\": [[10, \"far\"], [21, 10]]")),
                HasSubstr("/node_distance/0/1: expected a remote distance greater than 10, found \"far\""));
}

TEST(ParseMachineJson, CountsCpusBeforeExpandingRepeats)
{
    EXPECT_THAT(errors(machine_with_core(R"({"repeat": 2048, "threads": 2}, {"threads": 1})")),
                HasSubstr("bad.json:6:12: /nodes: expected at most 4096 CPUs, found 4097 (counting repeats)"));
    // Would be terabytes if expanded; answers at once.
    EXPECT_THAT(errors(machine_with_core(R"({"repeat": 1000000000000, "threads": 2})")),
                HasSubstr("/nodes: expected at most 4096 CPUs, found 2000000000000 (counting repeats)"));
    const std::string huge = R"([{"repeat": 9223372036854775807, "packages": [{"repeat": 9223372036854775807, )"
                             R"("llcs": [{"cores": [{"threads": 4}]}]}]}])";
    EXPECT_THAT(errors(machine(huge)), HasSubstr("found more than 18446744073709551615 (counting repeats)"));
}

TEST(ParseMachineJson, ReportsDuplicateAndMissingCpuIdsByNumber)
{
    const std::string text =
        machine_with_core(R"({"threads": [{"cpu": 0}, {"cpu": 1}, {"cpu": 1}, {"cpu": 3}, {"cpu": 9}]})");
    const std::string all = errors(text);
    const std::string threads = std::string(kCorePath) + "/threads/";
    EXPECT_THAT(all, HasSubstr("bad.json:" + where(text, "1}, {\"cpu\": 3") + ": " + threads +
                               "2/cpu: duplicate CPU id 1, also given at " + threads +
                               "1/cpu; expected each id from 0 to 4 exactly once"));
    EXPECT_THAT(all, HasSubstr(threads + "4/cpu: expected a CPU id from 0 to 4 (the machine has 5 CPUs), found 9"));
    EXPECT_THAT(all,
                HasSubstr("bad.json:6:12: /nodes: missing CPU ids 2,4: expected each id from 0 to 4 exactly once"));

    EXPECT_THAT(errors(machine_with_core(R"({"repeat": 2, "threads": [{"cpu": 0}]})")),
                HasSubstr("/threads/0/cpu: duplicate CPU id 0 (the element that gives it is repeated); expected each "
                          "id from 0 to 1 exactly once"));
    EXPECT_THAT(errors(machine_with_core(R"({"threads": [{"cpu": -1}]})")),
                HasSubstr("/threads/0/cpu: expected a CPU id (an integer of at least 0), found -1"));
}

TEST(ParseMachineJson, ExplicitIdsMustBeOnEveryThread)
{
    const std::string text = machine_with_core(R"({"threads": [{"cpu": 1}, {}]}, {"threads": 2})");
    const std::string all = errors(text);
    EXPECT_THAT(all, HasSubstr("bad.json:" + where(text, "{}") + ": " + std::string(kCorePath) +
                               "/threads/1/cpu: missing required key \"cpu\": expected a CPU id on every thread, as "
                               "this file gives one at " +
                               std::string(kCorePath) + "/threads/0/cpu"));
    EXPECT_THAT(all, HasSubstr("/cores/1/threads: expected an array of THREAD objects each with a \"cpu\" id, found 2 "
                               "(this file gives CPU ids, as at "));
    // No "missing id" noise on top of the real mistake.
    EXPECT_THAT(all, Not(HasSubstr("missing CPU id")));
}

TEST(ParseMachineJson, ReportsBadCosts)
{
    const std::string text = machine(kOneLlc, R"(,
  "costs": {
    "context_swtich": {"value": 1.9, "unit": "us"},
    "context_switch": {"value": 1.9},
    "smt_contention": {"value": 0.5, "unit": "%"},
    "clock_rate": {"value": 3, "unit": "GHZ"},
    "hz": {"value": 0, "unit": "Hz"},
    "syscall": {"value": -1, "unit": "ns", "source": 7},
    "wakeup_ipi": 1500
  })");
    const std::string all = errors(text);
    EXPECT_THAT(all, HasSubstr("bad.json:" + where(text, "\"context_swtich\"") +
                               ": /costs/context_swtich: unknown cost \"context_swtich\" (did you mean "
                               "\"context_switch\"?); expected one of: clock_rate, hz, context_switch"));
    EXPECT_THAT(all, HasSubstr("bad.json:" + where(text, "\"context_switch\"") +
                               ": /costs/context_switch/unit: missing required key \"unit\": expected \"ns\", \"us\", "
                               "\"ms\" or \"s\" (context_switch is a time)"));
    EXPECT_THAT(all, HasSubstr("bad.json:" + where(text, "\"unit\": \"%\"") +
                               ": /costs/smt_contention/unit: unexpected key \"unit\": smt_contention is a ratio, a "
                               "plain number without unit"));
    EXPECT_THAT(all, HasSubstr("/costs/clock_rate/unit: expected \"GHz\" or \"MHz\" (clock_rate is a frequency), found "
                               "\"GHZ\" (did you mean \"GHz\"?)"));
    EXPECT_THAT(all, HasSubstr("/costs/hz/value: expected a rate above 0, found 0"));
    EXPECT_THAT(all, HasSubstr("/costs/syscall/value: expected a time of at least 0, found -1"));
    EXPECT_THAT(all, HasSubstr("/costs/syscall/source: expected a string saying where the value comes from, found 7"));
    EXPECT_THAT(all, HasSubstr("/costs/wakeup_ipi: expected an object such as {\"value\": 1.5, \"unit\": \"ns\"}, "
                               "found 1500"));
}

TEST(ParseMachineJson, ReportsBadCpulistKeys)
{
    const std::string text = machine(kOneLlc,
                                     ",\n  \"cpus\": {\"0-3x\": {\"capacity\": 5}, \"2,9\": {\"speed\": 2}, "
                                     "\"\": {\"speed\": 2}, \"1\": {\"sped\": 2}}");
    const std::string all = errors(text);
    EXPECT_THAT(all, HasSubstr("bad.json:" + where(text, "\"0-3x\"") +
                               ": /cpus/0-3x: expected a cpulist such as \"0-3,8\" as key: expected ',' or the end of "
                               "the list, found 'x' (character 4 of \"0-3x\")"));
    EXPECT_THAT(all, HasSubstr("/cpus/2,9: expected a cpulist such as \"0-3,8\" as key: CPU 9 is out of range: this "
                               "machine has CPUs 0-3"));
    EXPECT_THAT(all, HasSubstr("/cpus/: expected a cpulist naming at least one CPU"));
    EXPECT_THAT(all, HasSubstr("/cpus/1/sped: unknown key \"sped\" (did you mean \"speed\"?); expected one of: "
                               "capacity, speed, asym_prio"));
}

TEST(ParseMachineJson, ReportsUnknownArchAndNumbering)
{
    const std::string text = machine(kOneLlc, ",\n  \"arch\": \"arm64\",\n  \"cpu_numbering\": \"thread_major\"");
    const std::string all = errors(text);
    EXPECT_THAT(all, HasSubstr("bad.json:7:11: /arch: expected \"generic\", \"x86\" or \"powerpc\", found \"arm64\""));
    EXPECT_THAT(all, HasSubstr("bad.json:8:20: /cpu_numbering: expected \"core-major\" or \"thread-major\", found "
                               "\"thread_major\" (did you mean \"thread-major\"?)"));
}

TEST(ParseMachineJson, ReportsHeaderMistakes)
{
    std::string text = machine();
    text.replace(text.find("1,"), 1, "2");
    text.replace(text.find("\"m\""), 3, "\"Teaching 8\"");
    text.replace(text.find("\"test\""), 6, "\"two\\nlines\"");
    const std::string all = errors(text);
    EXPECT_THAT(all, HasSubstr("bad.json:2:21: /schema_version: expected 1, the only schema version this program "
                               "reads, found 2"));
    EXPECT_THAT(all, HasSubstr("bad.json:3:11: /name: expected a name of lowercase letters, digits, '.', '_' and '-' "
                               "that starts with a letter or digit, found \"Teaching 8\""));
    EXPECT_THAT(all, HasSubstr("bad.json:4:18: /description: expected a one-line description"));
}

TEST(ParseMachineJson, ReportsRepeatedKeys)
{
    const std::string text = machine(kOneLlc, ",\n  \"name\": \"again\"");
    EXPECT_THAT(errors(text), HasSubstr("bad.json:7:3: /name: duplicate key: a key may appear only once in an object"));
}

TEST(ParseMachineJson, ReportsBadIdleStates)
{
    const std::string text = machine(kOneLlc, R"(,
  "idle_states": [
    {"name": "C1", "exit_latency_us": 2, "target_residency_us": 2},
    {"name": "C6", "exit_latency_us": 1, "target_residency_us": -4},
    {"exit_latency_us": 200}
  ])");
    const std::string all = errors(text);
    EXPECT_THAT(all, HasSubstr("bad.json:9:39: /idle_states/1/exit_latency_us: expected idle states shallowest first: "
                               "exit latency at least 2 us (the previous state's), found 1"));
    EXPECT_THAT(all, HasSubstr("/idle_states/1/target_residency_us: expected the target residency in microseconds, a "
                               "number from 0 to 1000000 (1 s), found -4"));
    EXPECT_THAT(all, HasSubstr("bad.json:10:5: /idle_states/2/name: missing required key \"name\""));
    EXPECT_THAT(all, HasSubstr("/idle_states/2/target_residency_us: missing required key \"target_residency_us\""));
}

TEST(ParseMachineJson, ProblemsInSeveralSectionsComeInOneError)
{
    const std::string text = machine(R"([{"packages": [{"llcs": [{"cores": [{"threads": 0}]}]}]}])",
                                     ",\n  \"arch\": 4,\n  \"costs\": {\"hz\": {\"value\": 100}},\n"
                                     "  \"cpus\": {\"x\": {}},\n  \"idle_states\": {}");
    const std::vector<Diagnostic> d = diagnostics(text);
    ASSERT_EQ(d.size(), 5u);
    EXPECT_EQ(d[0].pointer, "/nodes/0/packages/0/llcs/0/cores/0/threads");
    EXPECT_EQ(d[1].pointer, "/arch");
    EXPECT_EQ(d[2].pointer, "/costs/hz/unit");
    EXPECT_EQ(d[3].pointer, "/cpus/x");
    EXPECT_EQ(d[4].pointer, "/idle_states");
    for (const Diagnostic& x : d) {
        EXPECT_EQ(x.file, "bad.json");
        EXPECT_GT(x.line, 0) << x.message;
        EXPECT_GT(x.column, 0) << x.message;
    }
}

// ----------------------------------------------------------------------------
// Writing

Machine reload(const Machine& m)
{
    return parse_machine_json(machine_to_json(m), "saved.json");
}

TEST(MachineToJson, RoundTripsEveryFixture)
{
    for (const char* name : {"teaching-8.json", "x86-2s-16.json", "dynamiq-8.json", "explicit-ids.json"}) {
        const Machine m = load_machine_file(fixture(name));
        const std::string text = machine_to_json(m);
        EXPECT_EQ(parse_machine_json(text, name), m) << text;
        EXPECT_EQ(machine_to_json(parse_machine_json(text, name)), text) << name;
    }
}

TEST(MachineToJson, WritesTheCompactFormWhenItReadsBackEqual)
{
    const std::string text = machine_to_json(load_machine_file(fixture("x86-2s-16.json")));
    EXPECT_THAT(text, Not(HasSubstr("\"cpu\"")));
    EXPECT_THAT(text, HasSubstr("\"cpu_numbering\": \"thread-major\""));
    EXPECT_THAT(text, HasSubstr("{\"cores\": [{\"repeat\": 4, \"threads\": 2}]}"));
    EXPECT_THAT(text, HasSubstr("\"node_distance\": [[10, 21], [21, 10]]"));
    EXPECT_THAT(text,
                HasSubstr("\"clock_rate\": {\"value\": 2.1, \"unit\": \"GHz\", \"source\": \"nominal frequency\"}"));
    EXPECT_THAT(text, HasSubstr("\"wakeup_ipi\": {\"value\": 2.1, \"unit\": \"us\"}"));
    EXPECT_THAT(text, HasSubstr("{\"name\": \"C6\", \"exit_latency_us\": 170, \"target_residency_us\": 600}"));
    EXPECT_EQ(text.substr(0, 2), "{\n");
    EXPECT_EQ(text.back(), '\n');
    EXPECT_THAT(text, HasSubstr("\n  \"name\": \"x86-2s-16\",\n"));
}

TEST(MachineToJson, WritesNodeReclaimDistanceOnlyWhenNotTheDefault)
{
    Machine m = load_machine_file(fixture("x86-2s-16.json"));
    EXPECT_THAT(machine_to_json(m), Not(HasSubstr("node_reclaim_distance")));
    m.node_reclaim_distance = 32;
    EXPECT_THAT(machine_to_json(m), HasSubstr("\n  \"node_reclaim_distance\": 32,\n"));
    EXPECT_EQ(reload(m), m);
}

TEST(MachineToJson, SpellsOutIdsThatFollowNoNumbering)
{
    const std::string text = machine_to_json(load_machine_file(fixture("explicit-ids.json")));
    EXPECT_THAT(text, HasSubstr("{\"threads\": [{\"cpu\": 2}, {\"cpu\": 6}]}"));

    // Thread-major ids in a machine that says core-major: explicit too.
    Machine m = load_machine_file(fixture("x86-2s-16.json"));
    m.numbering = CpuNumbering::CoreMajor;
    const std::string explicit_text = machine_to_json(m);
    EXPECT_THAT(explicit_text, HasSubstr("{\"threads\": [{\"cpu\": 0}, {\"cpu\": 8}]}"));
    EXPECT_EQ(parse_machine_json(explicit_text, "x.json"), m);
}

TEST(MachineToJson, RoundTripsAwkwardValuesExactly)
{
    std::mt19937_64 rng(20240611);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    auto awkward = [&](double scale) { return std::ldexp(unit(rng), static_cast<int>(rng() % 40) - 20) * scale; };
    for (int round = 0; round < 100; ++round) {
        Machine m = load_machine_file(fixture("teaching-8.json"));
        m.numbering = round % 2 ? CpuNumbering::ThreadMajor : CpuNumbering::CoreMajor;
        for (CpuTopo& c : m.cpus) {
            c.capacity = 1 + static_cast<int>(rng() % 1024);
            c.speed = 0.001 + awkward(1.0) * 15 / 1048576;
            c.asym_prio = static_cast<int>(rng() % 7) - 3;
        }
        double exit_latency = 0, target_residency = 0;
        // Within the bounds a machine file allows: at most 2^19 x 400 ns
        // per state, so two states stay under 1 s.
        for (IdleState& s : m.idle_states) {
            s.exit_latency_ns = exit_latency += awkward(400);
            s.target_residency_ns = target_residency += awkward(400);
        }
        for (std::size_t i = 0; i < m.costs.values.size(); ++i) {
            const CostRange range = cost_range(kCostInfo[i].kind);
            m.costs.values[i].value = range.min + awkward(1.0) * (range.max - range.min) / 1048576 + 1e-300;
        }
        const Machine back = reload(m);
        ASSERT_EQ(back, m) << machine_to_json(m);
    }
}

// HZ below 1 divided by zero and a 1 ns tick never let a run end; an exit
// latency of 9.2e15 us overflowed into a hang: each is refused at its value.
TEST(ParseMachineJson, RefusesCostsAndIdleStatesOutsideTheirPhysicalRange)
{
    const auto with = [](const std::string& costs, const std::string& exit_us) {
        return errors(R"({"schema_version": 1, "name": "m", "description": "d", "source": "s", "arch": "x86", "nodes": [{"packages": [{"llcs": [{"cores": [{"threads": 2}]}]}]}],
 "idle_states": [{"name": "C1", "exit_latency_us": )" + exit_us + R"(, "target_residency_us": 2}],
 "costs": {)" + costs + "}}");
    };
    EXPECT_THAT(with(R"("hz": {"value": 0.5, "unit": "Hz"})", "1"),
                HasSubstr("/costs/hz/value: expected a rate from 10 to 10000 Hz, found 0.5 Hz"));
    EXPECT_THAT(with(R"("hz": {"value": 999999999, "unit": "Hz"})", "1"), HasSubstr("from 10 to 10000 Hz"));
    EXPECT_THAT(with(R"("context_switch": {"value": 20, "unit": "s"})", "1"),
                HasSubstr("/costs/context_switch/value: expected a time from 0 to 10 s, found 20 s"));
    EXPECT_THAT(with(R"("hz": {"value": 1000, "unit": "Hz"})", "9.2e15"),
                HasSubstr("/idle_states/0/exit_latency_us: expected the exit latency in microseconds, a number from 0 "
                          "to 1000000 (1 s), found 9.2e+15"));
    EXPECT_EQ(with(R"("hz": {"value": 1000, "unit": "Hz"})", "1"), "(accepted)");
}

TEST(MachineToJson, RefusesMachinesWithoutAFileForm)
{
    Machine m = load_machine_file(fixture("teaching-8.json"));
    m.name = "My Laptop";
    EXPECT_THROW(
        {
            try {
                machine_to_json(m);
            } catch (const InputError& e) {
                EXPECT_THAT(e.what(), HasSubstr("machine \"My Laptop\": /name: cannot be written as a machine file: "
                                                "expected a name of lowercase letters"));
                throw;
            }
        },
        InputError);

    m = load_machine_file(fixture("teaching-8.json"));
    m.cpus[3].capacity = 0;
    try {
        machine_to_json(m);
        ADD_FAILURE() << "capacity 0 was written";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(),
                    HasSubstr("cannot be written as a machine file: CPU 3: capacity: expected a capacity from "
                              "1 to 1024, found 0"));
    }

    // LLC indexes with a gap (as kernel ids may have): a file cannot say that.
    m = load_machine_file(fixture("teaching-8.json"));
    for (CpuTopo& c : m.cpus)
        c.llc *= 2;
    try {
        machine_to_json(m);
        ADD_FAILURE() << "LLCs out of tree order were written";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(),
                    HasSubstr("/nodes: cannot be written as a machine file: CPU 4 is in llc 2 where tree order "
                              "expects llc 1; expected llc indexes numbered depth-first"));
    }
}

class SaveMachineFile : public ::testing::Test {
protected:
    void SetUp() override
    {
        dir_ = std::filesystem::temp_directory_path() /
               ("wb-topology-json-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                std::to_string(reinterpret_cast<std::uintptr_t>(this)));
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::filesystem::path dir_;
};

TEST_F(SaveMachineFile, WritesAFileThatLoadsBackEqual)
{
    const Machine m = load_machine_file(fixture("dynamiq-8.json"));
    const std::string path = (dir_ / "saved.json").string();
    save_machine_file(m, path);
    EXPECT_EQ(load_machine_file(path), m);
    EXPECT_EQ(read_text(path), machine_to_json(m));
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

TEST_F(SaveMachineFile, ReportsAPlaceItCannotWrite)
{
    const std::string path = (dir_ / "no-such-dir" / "saved.json").string();
    try {
        save_machine_file(load_machine_file(fixture("teaching-8.json")), path);
        ADD_FAILURE() << "saved into a missing directory";
    } catch (const InputError& e) {
        EXPECT_EQ(e.diagnostics().at(0).file, path);
        EXPECT_THAT(e.what(), HasSubstr("cannot write: No such file or directory"));
    }
}

// ----------------------------------------------------------------------------
// The schema and the user documentation stay in step with the reader.

TEST(MachineFormatDocs, EveryCostAndKeyIsInTheSchema)
{
    const std::string schema = read_text(std::string(WB_SOURCE_DIR) + "/resources/schema/machine.schema.json");
    ASSERT_FALSE(schema.empty());
    for (const CostInfo& info : kCostInfo)
        EXPECT_THAT(schema, HasSubstr("\"" + std::string(info.name) + "\": {")) << info.name;
    for (const char* key : {"schema_version",
                            "name",
                            "description",
                            "source",
                            "arch",
                            "asym_packing",
                            "cpu_numbering",
                            "node_distance",
                            "node_reclaim_distance",
                            "nodes",
                            "cpus",
                            "idle_states",
                            "costs",
                            "repeat",
                            "packages",
                            "llcs",
                            "clusters",
                            "cores",
                            "threads",
                            "capacity",
                            "speed",
                            "asym_prio",
                            "cpu",
                            "exit_latency_us",
                            "target_residency_us",
                            "value",
                            "unit"})
        EXPECT_THAT(schema, HasSubstr("\"" + std::string(key) + "\"")) << key;
}

TEST(MachineFormatDocs, EveryExampleMachineInTheDocsLoads)
{
    const std::string doc = read_text(std::string(WB_SOURCE_DIR) + "/docs/topology-format.md");
    int examples = 0;
    for (std::size_t at = doc.find("```json\n"); at != std::string::npos; at = doc.find("```json\n", at + 1)) {
        const std::size_t begin = at + 8;
        const std::string block = doc.substr(begin, doc.find("```", begin) - begin);
        if (block.find("\"schema_version\"") == std::string::npos)
            continue;
        ++examples;
        EXPECT_NO_THROW(parse_machine_json(block, "docs example " + std::to_string(examples))) << block;
    }
    EXPECT_GE(examples, 1);
}

TEST(MachineFormatDocs, TheDocsTeachingMachineIsTheFixture)
{
    const std::string doc = read_text(std::string(WB_SOURCE_DIR) + "/docs/topology-format.md");
    EXPECT_THAT(doc, HasSubstr(read_text(fixture("teaching-8.json"))));
}

}  // namespace
}  // namespace wb

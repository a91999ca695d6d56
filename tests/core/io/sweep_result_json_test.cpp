// SPDX-License-Identifier: Apache-2.0
#include "io/sweep_result_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "engine/batch.h"
#include "io/input_error.h"
#include "io/sweep_json.h"
#include "io/topology_library.h"

namespace wb {
namespace {

using ::testing::HasSubstr;

constexpr std::string_view kSweep = R"({"schema_version": 1, "name": "t", "machines": ["teaching-8"],
  "workloads": [{"workload": "pipe:loops=50", "parameters": {"cpus": ["0-1", "3"]}}],
  "policies": ["baseline", "sis-sync-stack"], "seeds": [4, 5]})";

class SweepResultJson : public ::testing::Test {
protected:
    SweepResultJson() : spec_(parse_sweep_json(kSweep, "t.json")), grid_(spec_) {}

    PointResult run(std::size_t index) const
    {
        const SweepPoint p = grid_.point(index);
        return point_result(index, run_one(resolve_machine("teaching-8"),
                                           {grid_.workload_spec(p), spec_.policies[p.policy], FeatureSet(),
                                            spec_.seeds[p.seed]}));
    }
    std::string error_of(std::string_view line) const
    {
        try {
            parse_point_line(line, grid_, "p.jsonl");
        } catch (const InputError& e) {
            return e.what();
        }
        return "no error";
    }

    SweepSpec spec_;
    SweepGrid grid_;
};

TEST_F(SweepResultJson, APointReadsBackAsItWasWritten)
{
    const PointResult r = run(5);
    const std::string line = point_to_json_line(grid_, r);
    EXPECT_EQ(line.find('\n'), std::string::npos);
    EXPECT_THAT(line, HasSubstr(R"({"index":5,"machine":"teaching-8","label":"pipe:loops=50",)"
                                R"("workload":"pipe:loops=50,cpus=3","parameters":{"cpus":3},"features":"",)"
                                R"("policy":"baseline","seed":5,"finished":true,)"));
    const PointResult back = parse_point_line(line, grid_, "p.jsonl");
    EXPECT_EQ(back, r);
    EXPECT_EQ(point_to_json_line(grid_, back), line);
}

TEST_F(SweepResultJson, APointMustBeTheOneItsIndexNames)
{
    std::string line = point_to_json_line(grid_, run(1));
    EXPECT_EQ(error_of(std::string(line).replace(line.find("\"seed\":5"), 8, "\"seed\":7")),
              "p.jsonl: /seed: expected 5 (the sweep's point 1), found 7");
    EXPECT_EQ(error_of(std::string(line).replace(line.find("\"index\":1"), 9, "\"index\":8")),
              "p.jsonl: /index: expected a point of the sweep, from 0 to 7");
    EXPECT_EQ(error_of(std::string(line).replace(line.find("\"p99\":"), 6, "\"p98\":")),
              "p.jsonl: /wakeup_latency_ns: missing \"p99\"");
    EXPECT_THAT(error_of(line.substr(0, 40)), HasSubstr("p.jsonl:1:41: invalid JSON"));
}

TEST_F(SweepResultJson, AFigureThatIsNoNumberIsNull)
{
    PointResult r = run(0);
    r.headline.value = std::nan("");
    const std::string line = point_to_json_line(grid_, r);
    EXPECT_THAT(line, HasSubstr(R"("value":null)"));
    EXPECT_TRUE(std::isnan(parse_point_line(line, grid_, "p").headline.value));
}

TEST_F(SweepResultJson, ResultsAreReadPointByPointWhateverTheOrderOfTheirKeys)
{
    const auto dir = std::filesystem::temp_directory_path();
    const std::string path = (dir / ("wb-result-" + std::to_string(::getpid()) + ".json")).string();
    const PointResult a = run(2), b = run(6);
    {
        std::ofstream out(path);
        out << result_head(spec_, ShardId{1, 2}) << result_point(point_to_json_line(grid_, a), false)
            << result_point(point_to_json_line(grid_, b), true) << result_tail();
    }
    auto read = [&](const std::string& file) {
        std::vector<PointResult> points;
        std::optional<SweepResultHead> head;
        read_sweep_result(
            file,
            [&](const SweepResultHead& h) {
                EXPECT_TRUE(points.empty());  // the head comes first
                head = h;
            },
            [&](PointResult r) { points.push_back(std::move(r)); });
        EXPECT_TRUE(head && head->spec == spec_ && head->shard == (ShardId{1, 2}));
        return points;
    };
    EXPECT_EQ(read(path), (std::vector<PointResult>{a, b}));

    // `jq -S .` sorts the keys: "points" comes before "sweep".
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t sweep_at = text.find("  \"sweep\": "), points_at = text.find("  \"points\": [");
    const std::string sweep_member = text.substr(sweep_at, points_at - sweep_at);
    std::string sorted = text;
    sorted.erase(sweep_at, points_at - sweep_at);
    sorted.insert(sorted.size() - 2, ",\n" + sweep_member.substr(0, sweep_member.size() - 2) + "\n");
    std::ofstream(path) << sorted;
    EXPECT_EQ(read(path), (std::vector<PointResult>{a, b}));

    std::ofstream(path) << text.substr(0, text.size() - 5);
    try {
        read(path);
        ADD_FAILURE() << "expected an InputError";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr(path + ":" + std::to_string(std::count(text.begin(), text.end(), '\n') - 1)));
        EXPECT_THAT(e.what(), HasSubstr("invalid JSON"));
    }
    std::filesystem::remove(path);
}

TEST(PartialHeader, ReadsBackAndRefusesOtherLines)
{
    const PartialHeader h{"00ff00ff00ff00ff", 180, ShardId{2, 4}};
    EXPECT_EQ(parse_partial_header(partial_header_line(h)), h);
    const PartialHeader whole{"00ff00ff00ff00ff", 180, std::nullopt};
    EXPECT_EQ(parse_partial_header(partial_header_line(whole)), whole);
    EXPECT_EQ(parse_partial_header(R"({"index":0})"), std::nullopt);
    EXPECT_EQ(parse_partial_header("not json"), std::nullopt);
}

}  // namespace
}  // namespace wb

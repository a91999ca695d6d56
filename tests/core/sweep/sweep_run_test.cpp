// SPDX-License-Identifier: Apache-2.0
#include "sweep/sweep_run.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/input_error.h"
#include "io/sweep_json.h"
#include "io/sweep_result_json.h"
#include "io/topology_library.h"
#include "sweep/sweep_merge.h"

namespace wb {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

// 2 values x 2 policies x 2 seeds on teaching-8: eight short pipe runs.
constexpr std::string_view kSweep = R"({"schema_version": 1, "name": "tiny", "machines": ["teaching-8"],
  "workloads": [{"label": "pipe", "workload": "pipe", "parameters": {"loops": [100, 300]}}],
  "policies": ["baseline", "sync-waker-v3"], "seeds": [1, 2]})";

std::string slurp(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

class SweepRun : public ::testing::Test {
protected:
    SweepRun()
        : dir_(fs::temp_directory_path() / ("wb-sweep-run-" + std::to_string(::getpid()) + "-" +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name())),
          spec_(parse_sweep_json(kSweep, "tiny.json")), grid_(spec_), machines_{resolve_machine("teaching-8")},
          costs_(grid_, machines_, 2)
    {
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    ~SweepRun() override { fs::remove_all(dir_); }

    std::string path(const std::string& name) const { return (dir_ / name).string(); }

    bool run(const std::string& out, int jobs, std::optional<ShardId> shard = std::nullopt,
             const std::atomic<bool>* stop = nullptr, std::function<void(const SweepProgress&)> progress = {})
    {
        SweepRunOptions options;
        options.jobs = jobs;
        options.shard = shard;
        options.stop = stop;
        options.progress = std::move(progress);
        return run_sweep(grid_, machines_, costs_, out, options);
    }

    // The result of one straight run on one thread: what every other way
    // of running the sweep must give, byte for byte.
    std::string reference()
    {
        EXPECT_TRUE(run(path("reference.json"), 1));
        return slurp(path("reference.json"));
    }

    fs::path dir_;
    SweepSpec spec_;
    SweepGrid grid_;
    std::vector<Machine> machines_;
    SweepCosts costs_;
};

TEST_F(SweepRun, WritesEveryPointInIndexOrderAndRemovesThePartialFile)
{
    ASSERT_TRUE(run(path("out.json"), 2));
    EXPECT_FALSE(fs::exists(path("out.json.partial")));
    std::vector<std::size_t> order;
    std::optional<SweepResultHead> head;
    read_sweep_result(
        path("out.json"), [&](const SweepResultHead& h) { head = h; },
        [&](PointResult r) {
            order.push_back(r.index);
            EXPECT_TRUE(r.finished);
            EXPECT_GT(r.events, 0u);
        });
    EXPECT_EQ(order, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7}));
    ASSERT_TRUE(head);
    EXPECT_EQ(head->spec, spec_);
    EXPECT_FALSE(head->shard);
    // More loops, more events: the points are the runs they say they are.
    EXPECT_THAT(slurp(path("out.json")), HasSubstr(R"("workload":"pipe:loops=300","parameters":{"loops":300})"));
}

TEST_F(SweepRun, TheBytesDoNotDependOnTheNumberOfThreads)
{
    const std::string one = reference();
    ASSERT_TRUE(run(path("two.json"), 2));
    ASSERT_TRUE(run(path("eight.json"), 8));
    EXPECT_EQ(slurp(path("two.json")), one);
    EXPECT_EQ(slurp(path("eight.json")), one);
}

TEST_F(SweepRun, GoesOnFromAnInterruptedRunToTheSameBytes)
{
    const std::string whole = reference();
    std::atomic<bool> stop{false};
    const std::string out = path("out.json");
    // Stopped after three points: OUT is not written, the partial file holds them.
    EXPECT_FALSE(run(out, 1, std::nullopt, &stop, [&](const SweepProgress& p) { stop = p.done >= 3; }));
    EXPECT_FALSE(fs::exists(out));
    const std::string partial = slurp(out + ".partial");
    EXPECT_EQ(std::count(partial.begin(), partial.end(), '\n'), 4);  // header and three points
    // A kill in the middle of a write leaves half a line, without a newline.
    std::ofstream(out + ".partial", std::ios::app) << R"({"index":5,"machine":"teach)";

    std::size_t resumed = 0;
    EXPECT_TRUE(run(out, 2, std::nullopt, nullptr, [&](const SweepProgress& p) { resumed = p.resumed; }));
    EXPECT_EQ(resumed, 3u);
    EXPECT_EQ(slurp(out), whole);
    EXPECT_FALSE(fs::exists(out + ".partial"));
}

TEST_F(SweepRun, ALineThatIsNoPointOfTheSweepIsRunAgain)
{
    const std::string whole = reference();
    std::atomic<bool> stop{false};
    const std::string out = path("out.json");
    EXPECT_FALSE(run(out, 1, std::nullopt, &stop, [&](const SweepProgress& p) { stop = p.done >= 2; }));
    // A line whose policy is not its index's (a file edited by hand, or
    // written by another build) is dropped and its point runs again.
    std::string partial = slurp(out + ".partial");
    partial.replace(partial.find("\"policy\":\"") + 10, 0, "x");
    std::ofstream(out + ".partial", std::ios::trunc) << partial;
    std::size_t resumed = 0;
    EXPECT_TRUE(run(out, 1, std::nullopt, nullptr, [&](const SweepProgress& p) { resumed = p.resumed; }));
    EXPECT_EQ(resumed, 1u);
    EXPECT_EQ(slurp(out), whole);
}

TEST_F(SweepRun, APartialFileOfAnotherSweepIsRefused)
{
    const std::string out = path("out.json");
    std::ofstream(out + ".partial") << partial_header_line({"0123456789abcdef", 8, std::nullopt}) << "\n";
    try {
        run(out, 1);
        FAIL() << "expected an InputError";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("out.json.partial: holds points of another sweep or shard (fingerprint "
                                        "0123456789abcdef); this one is " +
                                        sweep_fingerprint(spec_) + ": remove the file to start again"));
    }
}

TEST_F(SweepRun, ShardsMergeToTheBytesOfOneRun)
{
    const std::string whole = reference();
    std::vector<std::string> shards;
    std::size_t points = 0;
    for (std::uint32_t i = 0; i < 3; ++i) {
        shards.push_back(path("out.json." + std::to_string(i)));
        ASSERT_TRUE(run(shards.back(), 2, ShardId{i, 3}));
        read_sweep_result(
            shards.back(), [&](const SweepResultHead& h) { EXPECT_EQ(h.shard, (ShardId{i, 3})); },
            [&](PointResult) { ++points; });
    }
    EXPECT_EQ(points, 8u);  // each point in one shard
    merge_sweep_results({shards[2], shards[0], shards[1]}, path("merged.json"));
    EXPECT_EQ(slurp(path("merged.json")), whole);
    EXPECT_FALSE(fs::exists(path("merged.json.merging")));
}

TEST_F(SweepRun, MergeSaysWhatIsMissingOrTwice)
{
    std::vector<std::string> shards;
    for (std::uint32_t i = 0; i < 3; ++i) {
        shards.push_back(path("out.json." + std::to_string(i)));
        ASSERT_TRUE(run(shards.back(), 2, ShardId{i, 3}));
    }
    auto error_of = [&](const std::vector<std::string>& inputs) -> std::string {
        try {
            merge_sweep_results(inputs, path("merged.json"));
        } catch (const InputError& e) {
            return e.what();
        }
        return "no error";
    };
    EXPECT_EQ(error_of({shards[0], shards[2]}), "sweep merge: expected every shard of 3; missing shard 1");
    EXPECT_EQ(error_of({shards[0], shards[1], shards[1]}),
              shards[1] + ": shard 1 of 3 is given twice; expected each shard once");
    EXPECT_FALSE(fs::exists(path("merged.json")));
    EXPECT_FALSE(fs::exists(path("merged.json.merging")));

    // A shard of another sweep (one more seed) has another fingerprint.
    SweepSpec other = spec_;
    other.seeds.push_back(3);
    std::ofstream(path("other.json")) << result_head(other, ShardId{1, 3}) << result_tail();
    EXPECT_THAT(error_of({shards[0], path("other.json")}),
                HasSubstr("other.json: is a result of another sweep (fingerprint " + sweep_fingerprint(other)));
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "workload/json_workload.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "base/rng.h"
#include "engine/simulator.h"
#include "io/input_error.h"
#include "metrics/histogram.h"
#include "topology/sd_flags.h"
#include "topology/synthetic.h"
#include "workload/workload_spec.h"

#include "workload_test_util.h"

namespace wb {
namespace {

using test::error_of;
using test::workload_as;

Machine small_machine()
{
    Machine m = parse_synthetic("llc=2,core=2,smt=2");
    auto set = [&](Cost c, double v) { m.costs.at(c).value = v; };
    set(Cost::syscall, 100);
    set(Cost::wakeup_local, 600);
    set(Cost::context_switch, 1500);
    set(Cost::wakeup_ipi, 1000);
    m.idle_states = {{"C1", 2000, 4000}};
    return m;
}

std::string data(const std::string& name)
{
    return std::string(WB_TEST_DATA) + "/workloads/" + name;
}

std::string run_error_of(const std::string& text)
{
    try {
        Simulator sim(small_machine(), std::make_unique<JsonWorkload>(parse_workload_json(text, "w.json")), {});
        sim.run();
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

TEST(JsonWorkload, SignalWakesTheWaiterWithTheSyncFlagAndTimersComeFromInterrupts)
{
    std::vector<DecisionRecord> records;
    Simulator sim(small_machine(), make_workload("json:file=" + data("producer_consumer.json")), {});
    sim.set_record_sink([&](const DecisionRecord& r) { records.push_back(r); });
    ASSERT_TRUE(sim.run());
    int signals = 0, timers = 0;
    for (const DecisionRecord& r : records) {
        if (r.wake_flags & WF_FORK)
            continue;
        const std::string wakee = sim.state().task(r.wakee).name;
        if (wakee == "consumer-0") {
            ++signals;
            EXPECT_NE(r.wake_flags & WF_SYNC, 0u);
            ASSERT_NE(r.waker, kNoTask);
            EXPECT_EQ(sim.state().task(r.waker).name, "producer-0");
        } else {
            ++timers;
            EXPECT_EQ(wakee, "producer-0");
            EXPECT_EQ(r.wake_flags & WF_SYNC, 0u);
        }
    }
    EXPECT_EQ(signals, 10);  // the consumer waits before each signal
    EXPECT_EQ(timers, 10);
    // The consumer is pinned to CPUs 4-7.
    EXPECT_TRUE(sim.state().task(records[1].wakee).cpus_allowed == CpuMask::range(8, 4, 7));
    // Ten 1 ms periods from the start: the last loop ends on the 10 ms boundary.
    EXPECT_GE(sim.elapsed(), Time::ms(10));
    EXPECT_LT(sim.elapsed(), Time::ms(10) + Time::us(100));
    const auto& w = workload_as<JsonWorkload>(sim);
    EXPECT_EQ(w.stats(0).loops, 10u);
    EXPECT_EQ(w.stats(1).runs, 10u);
    EXPECT_EQ(w.stats(0).latency.count(), 10u);  // one per timer expiry
    EXPECT_EQ(sim.workload().ops(), 20.0);
}

TEST(JsonWorkload, ForksBarriersAndYieldsRunToCompletion)
{
    Simulator sim(small_machine(), make_workload("json:file=" + data("barrier_fork.json")), {});
    ASSERT_TRUE(sim.run());
    const auto& w = workload_as<JsonWorkload>(sim);
    EXPECT_EQ(w.stats(0).tasks, 1u);
    EXPECT_EQ(w.stats(1).tasks, 2u);  // forked twice by main
    EXPECT_EQ(w.stats(1).loops, 6u);
    EXPECT_EQ(w.stats(2).loops, 15u);
    // Crew: five rounds of 40 us, each ended at a barrier.
    EXPECT_GE(sim.elapsed(), Time::us(200));
    EXPECT_EQ(sim.workload().ops(), 1.0 + 6 + 15);
}

TEST(JsonWorkload, ReportsEachTasksLoopsRunsAndLatency)
{
    Simulator sim(small_machine(), make_workload("json:file=" + data("producer_consumer.json")), {});
    ASSERT_TRUE(sim.run());
    const std::string out = sim.workload().report(sim.elapsed());
    EXPECT_NE(out.find("producer_consumer.json: 2 tasks in 0.01"), std::string::npos) << out;
    EXPECT_NE(out.find("task              tasks      loops       runs  lat p50(us)"), std::string::npos) << out;
    EXPECT_NE(out.find("\nproducer              1         10         10 "), std::string::npos) << out;
    EXPECT_NE(out.find("\nloops/s: "), std::string::npos) << out;
    const Headline h = sim.workload().headline(sim.elapsed());
    EXPECT_EQ(h.name, "loops/s");
    EXPECT_NEAR(h.value, 20 / sim.elapsed().to_seconds(), 1e-6);
}

TEST(JsonWorkload, FileErrorsNameLineColumnPointerAndWhatWasExpected)
{
    const std::string e = error_of("json:file=" + data("bad.json"));
    EXPECT_NE(e.find("bad.json:5:20: /tasks/0/instances: expected a whole number from 1 to 100000"), std::string::npos)
        << e;
    EXPECT_NE(e.find("bad.json:6:7: /tasks/0/colour: unknown key 'colour'"), std::string::npos) << e;
    EXPECT_NE(e.find("bad.json:8:17: /tasks/0/phases/0/run: expected a duration above 0"), std::string::npos) << e;
    EXPECT_NE(e.find("/tasks/0/phases/1/fork: no task named 'nobody'"), std::string::npos) << e;
    EXPECT_NE(e.find("bad.json:10:9: /tasks/0/phases/2: expected an object with one of run"), std::string::npos) << e;
}

TEST(JsonWorkload, SyntaxErrorsAndHugeNumbersNameTheirPlace)
{
    auto parse_error = [](const std::string& text) -> std::string {
        try {
            parse_workload_json(text, "w.json");
        } catch (const InputError& e) {
            return e.what();
        }
        return "no error";
    };
    EXPECT_THAT(parse_error("{\n  \"tasks\": [,]\n}"),
                testing::HasSubstr("w.json:2:13: invalid JSON: syntax error while parsing value"));
    EXPECT_THAT(parse_error("{\n  \"tasks\": 1e400}"),
                testing::HasSubstr("w.json:2:12: invalid JSON: number overflow parsing '1e400'; expected a number "
                                   "within the range of a double"));
}

TEST(JsonWorkload, BadSpecsAndMachineDependentErrors)
{
    EXPECT_NE(error_of("json:path=x").find("unknown parameter 'path' of json; expected file"), std::string::npos);
    EXPECT_NE(error_of("json").find("file=: expected the path of a workload JSON file"), std::string::npos);
    EXPECT_NE(error_of("json:file=/nonexistent.json").find("/nonexistent.json: cannot open"), std::string::npos);
    // The machine's CPUs are named once.
    const std::string range =
        run_error_of("{\"tasks\": [{\"name\": \"a\",\n \"cpus\": \"9-12\", \"phases\": [{\"run\": \"1us\"}]}]}");
    EXPECT_NE(range.find("w.json:2:10: /tasks/0/cpus: \"9-12\": CPU 12 is out of range: this machine has CPUs 0-7"),
              std::string::npos)
        << range;
    EXPECT_EQ(range.find("this machine has CPUs"), range.rfind("this machine has CPUs")) << range;
    EXPECT_NE(run_error_of("{\"tasks\": [{\"name\": \"a\", \"phases\": []}]}")
                  .find("w.json:1:36: /tasks/0/phases: expected 'phases', a non-empty array"),
              std::string::npos);
}

std::string parse_error(const std::string& text)
{
    try {
        parse_workload_json(text, "w.json");
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

TEST(JsonWorkload, AForkCycleIsRefusedWhereItCloses)
{
    // a forks b, b forks a: every new task started the cycle again, and the
    // run grew until memory ran out.
    EXPECT_THAT(parse_error("{\"tasks\": [\n"
                            " {\"name\": \"a\", \"phases\": [{\"run\": \"10us\"}, {\"fork\": \"b\"}]},\n"
                            " {\"name\": \"b\", \"start\": false, \"phases\": [{\"fork\": \"a\"}]}]}"),
                testing::HasSubstr("w.json:3:52: /tasks/1/phases/0/fork: a fork cycle (a -> b -> a): every task it "
                                   "starts would fork the cycle again, without end"));
    // The 167-byte fork bomb of issue 16: a task that forks itself twice.
    EXPECT_THAT(parse_error(R"({"tasks":[{"name":"a","phases":[{"fork":"a"},{"fork":"a"}]}]})"),
                testing::HasSubstr("/tasks/0/phases/0/fork: a fork cycle (a -> a)"));
    // Forks that end are fine, however they branch.
    EXPECT_EQ(parse_error(R"({"tasks":[{"name":"a","phases":[{"fork":"b"},{"fork":"c"}]},
        {"name":"b","start":false,"phases":[{"fork":"c"}]},{"name":"c","start":false,"phases":[{"run":"1us"}]}]})"),
              "no error");
}

TEST(JsonWorkload, TheTasksARunStartsAreBounded)
{
    std::string many = "{\"tasks\": [";
    for (int i = 0; i < 11; ++i)
        many += std::string(i ? "," : "") + "{\"name\": \"t" + std::to_string(i) +
                "\", \"instances\": 100000, \"phases\": [{\"run\": \"1us\"}]}";
    EXPECT_THAT(parse_error(many + "]}"),
                testing::HasSubstr("w.json:1:11: /tasks: the tasks that start add up to 1100000 instances; a json "
                                   "workload starts at most 1000000 tasks"));
    // Forks are counted as the run makes them.
    const std::string forks =
        "{\"tasks\": [{\"name\": \"a\", \"loop\": 1000000000, \"phases\": [{\"fork\": \"b\"}]},\n"
        " {\"name\": \"b\", \"start\": false, \"phases\": [{\"run\": \"1us\"}]}]}";
    try {
        Simulator sim(small_machine(), std::make_unique<JsonWorkload>(parse_workload_json(forks, "w.json"), 500), {});
        sim.run();
        ADD_FAILURE() << "the run went past its bound of tasks";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(),
                    testing::HasSubstr("w.json: /tasks/0/phases/0/fork: this fork would start task 501 of the run; "
                                       "a json workload starts at most 500 tasks"));
    }
}

TEST(JsonWorkload, ALoopThatTakesNoTimeStillLetsTimePassAndTheLimitEndIt)
{
    // A signal to itself and the wait it satisfies: the loop used to turn at
    // one instant, a billion times, and no time limit could stop it.
    SimOptions options;
    options.time_limit = Time::ms(1);
    Simulator sim(
        small_machine(),
        std::make_unique<JsonWorkload>(parse_workload_json(
            R"({"tasks":[{"name":"a","loop":1000000000,"phases":[{"signal":"x"},{"wait":"x"}]}]})", "w.json")),
        options);
    EXPECT_FALSE(sim.run());
    EXPECT_EQ(sim.elapsed(), Time::ms(1));
    // Each lap costs its two phases' system calls, 100 ns each here.
    const auto& w = workload_as<JsonWorkload>(sim);
    EXPECT_NEAR(static_cast<double>(w.stats(0).loops), 5000, 50);
}

TEST(JsonWorkload, ATemplateKeepsOnlyTheLatencyBucketsItUses)
{
    // Each template held a whole Histogram, 59 KB: 200,000 templates of a
    // 9.7 MB file ended in bad_alloc.
    EXPECT_LT(sizeof(JsonWorkload::TemplateStats), 128u);
    JsonWorkload::Latency sparse;
    Histogram full;
    Rng rng(7);
    for (int i = 0; i < 10000; ++i) {
        const auto v = static_cast<std::int64_t>(rng.next() % 5'000'000);
        sparse.record(v);
        full.record(v);
    }
    for (double q : {0.0, 0.5, 0.9, 0.99, 1.0})
        EXPECT_EQ(sparse.percentile(q), full.percentile(q)) << q;
    EXPECT_EQ(sparse.max(), full.max());
    EXPECT_EQ(sparse.count(), 10000u);
}

}  // namespace
}  // namespace wb

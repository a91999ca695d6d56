// SPDX-License-Identifier: Apache-2.0
#include "workload/web.h"

#include <gtest/gtest.h>

#include <map>

#include "engine/simulator.h"
#include "io/input_error.h"
#include "topology/sd_flags.h"
#include "topology/synthetic.h"
#include "workload/workload_spec.h"

#include "workload_test_util.h"

namespace wb {
namespace {

using test::error_of;
using test::teaching;
using test::workload_as;

std::string role(const Simulator& sim, TaskId t)
{
    if (t == kNoTask)
        return "irq";
    const std::string& name = sim.state().task(t).name;
    return name.substr(0, name.find('-'));
}

TEST(Web, InterruptWakesAcceptorWhichHandsToAWorkerWhichCallsABackend)
{
    std::vector<DecisionRecord> records;
    Simulator sim(teaching(), make_workload("web:clients=1,duration=5ms"), {});
    sim.set_record_sink([&](const DecisionRecord& r) { records.push_back(r); });
    ASSERT_TRUE(sim.run());
    std::map<std::string, int> edges;
    for (const DecisionRecord& r : records) {
        if (r.wake_flags & WF_FORK)
            continue;
        const std::string wakee = role(sim, r.wakee);
        const bool sync = (r.wake_flags & WF_SYNC) != 0;
        if (wakee == "acceptor") {
            // From the network interrupt: whatever the CPU ran, not sync.
            EXPECT_FALSE(sync);
            ++edges["irq->acceptor"];
        } else {
            EXPECT_TRUE(sync) << role(sim, r.waker) << "->" << wakee;
            ++edges[role(sim, r.waker) + "->" + wakee];
        }
    }
    const int n = static_cast<int>(sim.workload().ops());
    ASSERT_GE(n, 10);
    // One request in flight: every step of every request is a wakeup, but
    // for the first arrival, which finds the acceptor not yet asleep.
    EXPECT_EQ(edges["irq->acceptor"], n - 1);
    EXPECT_EQ(edges["acceptor->worker"], n);
    EXPECT_EQ(edges["worker->backend"], n);
    EXPECT_EQ(edges["backend->worker"], n);
    EXPECT_EQ(edges.size(), 4u);
}

TEST(Web, OneClientsLatencyIsTheSumOfTheServiceTimes)
{
    Simulator sim(teaching(), make_workload("web:clients=1,duration=10ms"), {});
    ASSERT_TRUE(sim.run());
    const auto& web = workload_as<WebWorkload>(sim);
    // 5 + 200 + 50 us of work and four system calls, plus wakeups, switches
    // and idle exits (C6: 50 us) at each of the four hops.
    const double p50_us = static_cast<double>(web.latency().percentile(0.5)) / 1e3;
    EXPECT_GT(p50_us, 255.4);
    EXPECT_LT(p50_us, 255.4 + 4 * 60);
    const Headline h = web.headline(sim.elapsed());
    EXPECT_EQ(h.name, "requests/s");
    EXPECT_FALSE(h.lower_is_better);
    EXPECT_NEAR(h.value, 1e6 / p50_us, 0.1 * 1e6 / p50_us);
}

TEST(Web, OpenLoopServesEveryPoissonArrival)
{
    Simulator sim(teaching(), make_workload("web:rate=4000,duration=20ms,work=50us"), {});
    ASSERT_TRUE(sim.run());
    // 80 arrivals expected; a Poisson count is within 4 sigma of it.
    EXPECT_GT(sim.workload().ops(), 80 - 4 * 9);
    EXPECT_LT(sim.workload().ops(), 80 + 4 * 9);
    EXPECT_GE(sim.elapsed(), Time::ms(20));
}

TEST(Web, SaturationIsBoundByTheBackends)
{
    // 64 clients, 8 workers: the two backends (50 us a call) are the limit,
    // 40000 calls/s at most.
    Simulator sim(teaching(), make_workload("web:duration=10ms,work=20us"), {});
    ASSERT_TRUE(sim.run());
    const double rps = sim.workload().headline(sim.elapsed()).value;
    EXPECT_LT(rps, 40000);
    EXPECT_GT(rps, 20000);
}

TEST(Web, ReportsInWrkLayout)
{
    Simulator sim(teaching(), make_workload("web:clients=2,duration=2ms"), {});
    ASSERT_TRUE(sim.run());
    const std::string out = sim.workload().report(sim.elapsed());
    EXPECT_EQ(out.rfind("Running ", 0), 0u) << out;
    EXPECT_NE(out.find("  1 acceptors, 8 workers, 2 backends, 2 connections (closed loop)\n"), std::string::npos)
        << out;
    EXPECT_NE(out.find("  Latency Distribution\n     50%  "), std::string::npos) << out;
    EXPECT_NE(out.find("   99.9%  "), std::string::npos) << out;
    EXPECT_NE(out.find("\nRequests/sec: "), std::string::npos) << out;
    EXPECT_NE(out.find(" requests in 2."), std::string::npos) << out;
}

TEST(Web, BadParametersNameTheParameterAndWhatWasExpected)
{
    EXPECT_NE(error_of("web:threads=4").find("unknown parameter 'threads' of web; expected rate, clients"),
              std::string::npos);
    EXPECT_NE(error_of("web:rate=-5").find("rate=-5: expected a number"), std::string::npos);
    EXPECT_NE(error_of("web:backends=0").find("backends=0: expected a whole number from 1"), std::string::npos);
    EXPECT_NE(error_of("web:duration=0ms").find("duration=0ms: expected a duration above 0"), std::string::npos);
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// schbench: the futex wakeups between message threads and workers, the
// latencies and RPS the model implies, schbench's output layout and the
// parameter errors.
#include "workload/schbench.h"

#include <gtest/gtest.h>

#include "engine/simulator.h"
#include "io/input_error.h"
#include "topology/synthetic.h"
#include "workload/workload_spec.h"

#include "workload_test_util.h"

namespace wb {
namespace {

using test::error_of;
using test::Outcome;
using test::simulate;

TEST(Schbench, MessageThreadsAndWorkersWakeEachOtherWithoutSync)
{
    // Task 0 is the message thread, 1 and 2 its workers.
    const Outcome r = simulate("schbench:message_threads=1,threads=2,runtime=3ms");
    int to_worker = 0, to_message = 0, timer = 0;
    for (const DecisionRecord& d : r.wakeups) {
        EXPECT_EQ(d.wake_flags & WF_SYNC, 0u) << "futex wakeups are not sync";
        if (d.waker == kNoTask) {
            // The message thread's nap ends with a timer interrupt.
            EXPECT_EQ(d.wakee, 0);
            ++timer;
        } else if (d.waker == 0) {
            EXPECT_TRUE(d.wakee == 1 || d.wakee == 2);
            ++to_worker;
        } else {
            EXPECT_EQ(d.wakee, 0);
            ++to_message;
        }
    }
    EXPECT_GT(to_worker, 10);
    EXPECT_GT(timer, 10);
    EXPECT_GE(to_message, 1);  // at least the start, when the message thread found no one
}

TEST(Schbench, LatenciesAndRequestsFollowFromWorkAndSleep)
{
    const Outcome r = simulate("schbench:message_threads=1,threads=2,runtime=10ms,work=20us,sleep=100us");
    const SchbenchWorkload& sb = r.workload<SchbenchWorkload>();
    EXPECT_EQ(r.sim->elapsed(), Time::ms(10));
    // A request is at least its work, and starts no earlier than its wake.
    EXPECT_GE(sb.request_latency().min(), 20000);
    EXPECT_GE(sb.request_latency().min(), sb.wakeup_latency().min() + 20000);
    EXPECT_EQ(static_cast<double>(sb.request_latency().count()), r.sim->workload().ops());
    // Each worker does one request per round, a round is a nap of 100 us
    // plus the wakes: at most 2 * 10 ms / 100 us requests, and not far below
    // with 8 CPUs for 3 threads.
    EXPECT_LE(sb.request_latency().count(), 200u);
    EXPECT_GE(sb.request_latency().count(), 150u);
    // One 10 ms RPS window: its sample is the requests over 10 ms.
    ASSERT_EQ(sb.rps().count(), 1u);
    EXPECT_NEAR(static_cast<double>(sb.rps().max()), static_cast<double>(sb.request_latency().count()) / 0.010, 1.0);
    const Headline h = r.sim->workload().headline(r.sim->elapsed());
    EXPECT_EQ(h.name, "p99 wakeup latency");
    EXPECT_DOUBLE_EQ(h.value, static_cast<double>(sb.wakeup_latency().percentile(0.99)) / 1e3);
    EXPECT_TRUE(h.lower_is_better);
}

TEST(Schbench, WarmupRunsFirstAndIsNotMeasured)
{
    const Outcome warm = simulate("schbench:message_threads=1,threads=2,runtime=5ms,warmup=5ms");
    const Outcome cold = simulate("schbench:message_threads=1,threads=2,runtime=10ms");
    EXPECT_EQ(warm.sim->elapsed(), Time::ms(10));
    EXPECT_LT(warm.workload<SchbenchWorkload>().wakeup_latency().count() * 10,
              cold.workload<SchbenchWorkload>().wakeup_latency().count() * 6);
    EXPECT_GT(warm.workload<SchbenchWorkload>().wakeup_latency().count() * 10,
              cold.workload<SchbenchWorkload>().wakeup_latency().count() * 4);
}

TEST(Schbench, ReportsLikeSchbench)
{
    const Outcome r = simulate("schbench:message_threads=1,threads=2,runtime=2ms");
    const std::string out = r.sim->workload().report(r.sim->elapsed());
    const std::string n = std::to_string(r.workload<SchbenchWorkload>().wakeup_latency().count());
    EXPECT_EQ(
        out.rfind("Wakeup Latencies percentiles (usec) runtime 0.002 (s) (" + n + " total samples)\n\t  50.0th: ", 0),
        0u)
        << out;
    EXPECT_NE(out.find("\t* 99.0th: "), std::string::npos);
    EXPECT_NE(out.find("\t  99.9th: "), std::string::npos);
    EXPECT_NE(out.find("\t  min="), std::string::npos);
    EXPECT_NE(out.find("\nRequest Latencies percentiles (usec) runtime 0.002 (s) ("), std::string::npos);
    EXPECT_NE(out.find("\nRPS percentiles (requests) runtime 0.002 (s) (1 total samples)\n\t  20.0th: "),
              std::string::npos);
    EXPECT_NE(out.find("\t* 50.0th: "), std::string::npos);
    char avg[64];
    std::snprintf(avg, sizeof avg, "\naverage rps: %.2f\n", r.sim->workload().ops() / 0.002);
    EXPECT_NE(out.find(avg), std::string::npos) << out;
}

TEST(Schbench, BadParametersAreReportedWithWhatWasExpected)
{
    EXPECT_NE(error_of("schbench:workers=4").find("unknown parameter 'workers' of schbench"), std::string::npos);
    EXPECT_NE(error_of("schbench:runtime=0s").find("runtime=0s: expected a duration above 0"), std::string::npos);
    EXPECT_NE(error_of("schbench:sleep=soon").find("sleep=soon: expected a duration"), std::string::npos);
    EXPECT_NE(error_of("schbench:threads=0").find("threads=0: expected a whole number from 1"), std::string::npos);
}

}  // namespace
}  // namespace wb

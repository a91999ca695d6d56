// SPDX-License-Identifier: Apache-2.0
//
// hackbench: who wakes whom, the buffers that block senders, the message
// count, the output layout and the parameter errors.
#include "workload/hackbench.h"

#include <gtest/gtest.h>

#include <cstdio>

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
using test::teaching;

// Task ids follow hackbench's fork order: per group, receivers then senders.
bool is_sender(TaskId t, int fds)
{
    return t % (2 * fds) >= fds;
}

TEST(Hackbench, ReadersAndWritersWakeEachOtherWithSyncWakeupsInTheirGroup)
{
    // Pipes of 2 messages (32 KiB each): senders block on full pipes and
    // the receivers' reads wake them.
    const Outcome r = simulate("hackbench:groups=2,fds=2,loops=10,mode=pipe,datasize=32768");
    ASSERT_EQ(r.workload<HackbenchWorkload>().channel_capacity(), 2u);
    int sender_wakes_receiver = 0, receiver_wakes_sender = 0;
    for (const DecisionRecord& d : r.wakeups) {
        ASSERT_NE(d.waker, kNoTask) << "every hackbench wakeup is from a task";
        EXPECT_NE(d.wake_flags & WF_SYNC, 0u);
        EXPECT_EQ(d.waker / 4, d.wakee / 4) << "wakeups stay inside a group";
        // A sender may also pass a pipe's wakeup on to the next writer.
        ASSERT_TRUE(is_sender(d.waker, 2) || is_sender(d.wakee, 2)) << "no receiver wakes a receiver";
        if (is_sender(d.waker, 2) && !is_sender(d.wakee, 2))
            ++sender_wakes_receiver;
        if (!is_sender(d.waker, 2))
            ++receiver_wakes_sender;
    }
    EXPECT_GT(sender_wakes_receiver, 0);
    EXPECT_GT(receiver_wakes_sender, 0);
}

TEST(Hackbench, SocketsLargeEnoughNeverBlockTheSenders)
{
    // 212992 bytes hold 2129 messages of 100 bytes: more than the 40 each
    // receiver gets, so no receiver ever wakes a sender.
    const Outcome r = simulate("hackbench:groups=1,fds=4,loops=10");
    EXPECT_EQ(r.workload<HackbenchWorkload>().channel_capacity(), 2129u);
    ASSERT_FALSE(r.wakeups.empty());
    for (const DecisionRecord& d : r.wakeups) {
        EXPECT_TRUE(is_sender(d.waker, 4));
        EXPECT_FALSE(is_sender(d.wakee, 4));
    }
}

TEST(Hackbench, DeliversGroupsTimesSendersTimesReceiversTimesLoopsMessages)
{
    const Outcome r = simulate("hackbench:groups=3,fds=3,loops=7,mode=pipe,datasize=20000");
    EXPECT_EQ(r.sim->workload().ops(), 3.0 * 3 * 3 * 7);
    EXPECT_TRUE(r.sim->workload().done());
}

TEST(Hackbench, SocketMessagesCostMoreThanPipeMessages)
{
    // pipe: 100 + 400 * (1 + 100/4096); socket: 100 + 400 * (2 + 100/4096).
    const Outcome pipe = simulate("hackbench:groups=1,fds=2,loops=20,mode=pipe,cpus=3");
    const Outcome sock = simulate("hackbench:groups=1,fds=2,loops=20,mode=socket,cpus=3");
    EXPECT_EQ(pipe.workload<HackbenchWorkload>().write_cost(), Time::ns(510));
    EXPECT_EQ(sock.workload<HackbenchWorkload>().write_cost(), Time::ns(910));
    EXPECT_GT(sock.sim->elapsed(), pipe.sim->elapsed());
    // On one CPU the work adds up: 80 writes and 80 reads, plus switches.
    EXPECT_GT(pipe.sim->elapsed(), Time::ns(160 * 510));
}

TEST(Hackbench, ReportsLikeHackbench)
{
    const Outcome r = simulate("hackbench:groups=2,fds=3,loops=4,threads=1");
    char time[64];
    std::snprintf(time, sizeof time, "Time: %.3f\n", r.sim->elapsed().to_seconds());
    EXPECT_EQ(r.sim->workload().report(r.sim->elapsed()),
              "Running in threaded mode with 2 groups using 6 file descriptors each (== 12 tasks)\n"
              "Each sender will pass 4 messages of 100 bytes\n" +
                  std::string(time));
    const Headline h = r.sim->workload().headline(r.sim->elapsed());
    EXPECT_EQ(h.name, "Time");
    EXPECT_EQ(h.unit, "s");
    EXPECT_TRUE(h.lower_is_better);
    EXPECT_DOUBLE_EQ(h.value, r.sim->elapsed().to_seconds());
}

TEST(Hackbench, BadParametersAreReportedWithWhatWasExpected)
{
    EXPECT_NE(error_of("hackbench:group=2").find("unknown parameter 'group' of hackbench"), std::string::npos);
    EXPECT_NE(error_of("hackbench:mode=fifo").find("mode=fifo: expected one of socket, pipe"), std::string::npos);
    EXPECT_NE(error_of("hackbench:fds=0").find("fds=0: expected a whole number from 1"), std::string::npos);
    EXPECT_NE(error_of("hackbench:threads=2").find("threads=2: expected 0 or 1"), std::string::npos);
    Simulator sim(teaching(), make_workload("hackbench:cpus=9-12"), SimOptions{});
    EXPECT_THROW(sim.run(), InputError);
}

}  // namespace
}  // namespace wb

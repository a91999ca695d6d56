// SPDX-License-Identifier: Apache-2.0
//
// hackbench: who wakes whom, the buffers that block senders, the message
// count, the output layout and the parameter errors.
#include "workload/hackbench.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "engine/simulator.h"
#include "io/input_error.h"
#include "topology/synthetic.h"
#include "workload/unix_skb.h"
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

// A kernel that only hands out task ids and writes down wakeups, so a test
// can step a sender and a receiver by hand, in whatever order it likes.
class HandKernel final : public Kernel {
public:
    TaskId create_task(const TaskSpec&) override { return next_++; }
    void wake_up_new_task(TaskId, CpuId) override {}
    void wake_up(TaskId p, unsigned int) override { woken.push_back(p); }
    void wake_up_from_irq(TaskId p, CpuId, unsigned int) override { woken.push_back(p); }
    void start_timer(Time, std::int64_t) override {}
    void note_data_read(std::uint64_t, CpuId) override {}
    CpuId task_cpu(TaskId) const override { return 0; }
    Time now() const override { return Time(); }
    const Machine& machine() const override { return machine_; }
    Rng& rng() override { return rng_; }

    std::vector<TaskId> woken;

private:
    Machine machine_ = teaching();
    Rng rng_{1};
    TaskId next_ = 0;
};

// One sender (task 1) writing to one receiver (task 0): the writes the
// sender makes before its first Block, with the receiver never reading.
std::uint64_t writes_before_block(HackbenchWorkload& w, HandKernel& k)
{
    std::uint64_t writes = 0;
    while (w.next_step(k, 1).kind == Step::Kind::Compute)
        ++writes;
    return writes;
}

HackbenchOptions one_pair()
{
    HackbenchOptions o;
    o.groups = 1;
    o.fds = 1;
    o.loops = 1000;
    return o;
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

TEST(Hackbench, ASocketWriterBlocksOnceTheTruesizeInFlightReachesSndbuf)
{
    // A send buffer one byte over 9 messages' truesize: sock_alloc_send_pskb()
    // lets a write allocate while sk_wmem_alloc < sk_sndbuf, so the 10th
    // write still goes through and the 11th blocks.
    const std::uint64_t truesize = unix_skb::unix_stream_write_truesize(100, unix_skb::kSkWmemMax);
    const std::uint64_t sndbuf = 9 * truesize + 1;
    HackbenchOptions o = one_pair();
    o.sndbuf = sndbuf;
    HackbenchWorkload w(o);
    HandKernel k;
    w.setup(k);
    EXPECT_EQ(w.message_charge(), truesize);
    EXPECT_EQ(w.channel_capacity(), 10u);
    EXPECT_EQ(writes_before_block(w, k), 10u);
    EXPECT_TRUE(k.woken.empty()) << "the receiver never waited, so no one was woken";
}

TEST(Hackbench, AReadWakesTheSocketWritersOnlyOnceAQuarterOfSndbufIsInFlight)
{
    // A quarter of this buffer is two messages' truesize and one byte: two
    // messages still in flight pass unix_writable() only without the two
    // references it also counts, so the test tells the rules apart.
    const std::uint64_t truesize = unix_skb::unix_stream_write_truesize(100, unix_skb::kSkWmemMax);
    const std::uint64_t sndbuf = 8 * truesize + 4;
    HackbenchOptions o = one_pair();
    o.sndbuf = sndbuf;
    HackbenchWorkload w(o);
    HandKernel k;
    w.setup(k);
    const std::uint64_t written = writes_before_block(w, k);
    // unix_writable(): (in flight + the socket's and sock_wfree()'s
    // references) << 2 <= sk_sndbuf, tested after each freed skb.
    std::uint64_t reads_needed = 0;
    while (((written - reads_needed) * truesize + 2) * 4 > sndbuf)
        ++reads_needed;
    ASSERT_GT(reads_needed, 1u) << "the test needs a read that frees room without waking";
    std::uint64_t reads = 0;
    ASSERT_EQ(w.next_step(k, 0).kind, Step::Kind::Compute);  // the first read starts
    while (k.woken.empty()) {
        w.next_step(k, 0);  // a read ends (and the next starts)
        ++reads;
        ASSERT_LE(reads, written);
    }
    EXPECT_EQ(reads, reads_needed);
    EXPECT_EQ(k.woken, std::vector<TaskId>{1});
}

TEST(Hackbench, APipeWriterStillBlocksWhenItsSixteenPagesAreFull)
{
    HackbenchOptions o = one_pair();
    o.pipe = true;
    o.datasize = 4096;
    HackbenchWorkload w(o);
    HandKernel k;
    w.setup(k);
    EXPECT_EQ(writes_before_block(w, k), kPipeCapacityBytes / 4096);
    o.datasize = 100;
    HackbenchWorkload small(o);
    HandKernel k2;
    small.setup(k2);
    EXPECT_EQ(writes_before_block(small, k2), kPipeCapacityBytes / 100) << "pipes count messages, not truesize";
}

TEST(Hackbench, DefaultSocketsBlockTheSendersOfAFullGroup)
{
    // 20 senders each write 100 messages to each receiver: 2000 messages of
    // 768 bytes' truesize against 212992 bytes, so the senders block and
    // the receivers' reads wake them.
    const Outcome r = simulate("hackbench:groups=1");
    int receiver_wakes_sender = 0;
    for (const DecisionRecord& d : r.wakeups)
        if (!is_sender(d.waker, 20) && is_sender(d.wakee, 20))
            ++receiver_wakes_sender;
    EXPECT_GT(receiver_wakes_sender, 0);
    // Had a message charged only its 100 bytes, 2129 would fit and no
    // receiver would ever wake a sender.
    EXPECT_GT(20u * 100u, r.workload<HackbenchWorkload>().channel_capacity());
    EXPECT_LT(20u * 100u, unix_skb::kSkWmemMax / 100);
}

TEST(Hackbench, SocketsLargeEnoughNeverBlockTheSenders)
{
    // 212992 bytes hold 278 skbs of a 100-byte message: more than the 40
    // each receiver gets, so no receiver ever wakes a sender.
    const Outcome r = simulate("hackbench:groups=1,fds=4,loops=10");
    EXPECT_GT(r.workload<HackbenchWorkload>().channel_capacity(), 40u);
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
    EXPECT_NE(error_of("hackbench:sndbuf=4607").find("sndbuf=4607: expected a whole number from 4608"),
              std::string::npos)
        << "SOCK_MIN_SNDBUF";
    Simulator sim(teaching(), make_workload("hackbench:cpus=9-12"), SimOptions{});
    EXPECT_THROW(sim.run(), InputError);
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// stress-ng tee (stress-tee.c) on the kernel's pipes: 16-byte writes merge
// into pages, the writer blocks at 16 slots, tee() blocks on an empty input
// or a full output, a bogo op is one tee+splice cycle, the wake flags of
// each call, the merge batching, stress-ng's metrics layout and the
// parameter errors.
#include "workload/tee.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "engine/kernel.h"
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

// Tasks of instance 0, in the order setup() creates them.
constexpr TaskId kWriter = 0, kTeer = 1, kReader = 2;

// A kernel driven by hand: every task on CPU `cpu_of[t]` (0 unless set),
// wakeups recorded with their flags, payload reads summed.
class HandKernel final : public Kernel {
public:
    TaskId create_task(const TaskSpec&) override { return next_++; }
    void wake_up_new_task(TaskId, CpuId) override {}
    void wake_up(TaskId p, unsigned int flags) override { woken.emplace_back(p, flags); }
    void wake_up_from_irq(TaskId p, CpuId, unsigned int flags) override { woken.emplace_back(p, flags); }
    void start_timer(Time, std::int64_t) override {}
    void note_data_read(std::uint64_t bytes, CpuId written_on) override
    {
        bytes_read += bytes;
        last_written_on = written_on;
    }
    CpuId task_cpu(TaskId p) const override
    {
        return static_cast<std::size_t>(p) < cpu_of.size() ? cpu_of[static_cast<std::size_t>(p)] : 0;
    }
    Time now() const override { return Time(); }
    const Machine& machine() const override { return machine_; }
    Rng& rng() override { return rng_; }

    std::vector<std::pair<TaskId, unsigned int>> woken;
    std::vector<CpuId> cpu_of;
    std::uint64_t bytes_read = 0;
    CpuId last_written_on = kNoCpu;

private:
    Machine machine_ = teaching();
    Rng rng_{1};
    TaskId next_ = 0;
};

TeeOptions one_instance(bool batch = false)
{
    TeeOptions o;
    o.instances = 1;
    o.batch_merges = batch;
    return o;
}

// Runs task t's steps until one is not Compute; returns how many were.
std::uint64_t computes_until_stop(TeeWorkload& w, HandKernel& k, TaskId t, Step* stop = nullptr)
{
    std::uint64_t n = 0;
    Step s;
    while ((s = w.next_step(k, t)).kind == Step::Kind::Compute)
        ++n;
    if (stop)
        *stop = s;
    return n;
}

TEST(Tee, SixteenByteWritesFillAPageIn256MergesAndTheWriterBlocksAtSixteenSlots)
{
    TeeWorkload w(one_instance());
    HandKernel k;
    w.setup(k);
    Step stop;
    // write() number 4097 finds A's 16 pages full: 16 x 4096 / 16 before it.
    EXPECT_EQ(computes_until_stop(w, k, kWriter, &stop), 4096u);
    EXPECT_EQ(stop.kind, Step::Kind::Block);
    const TeeWorkload::Counts c = w.counts();
    EXPECT_EQ(c.writes, 4096u);
    EXPECT_EQ(c.pages, 16u) << "pipe_write() merges a 16-byte write into the last page while it fits";
    EXPECT_EQ(c.writer_waits, 1u);
    EXPECT_EQ(c.max_slots_a, kTeePipeSlots);
    EXPECT_TRUE(k.woken.empty()) << "no one waited on A";
}

TEST(Tee, TeeDuplicatesWhatFitsThenSpliceFreesASlotsAndWakesTheWriterPlainly)
{
    TeeWorkload w(one_instance());
    HandKernel k;
    w.setup(k);
    computes_until_stop(w, k, kWriter);  // A full, the writer asleep
    // tee(): all 16 buffers fit B's 16 free slots; splice(); exercise_tee().
    EXPECT_EQ(computes_until_stop(w, k, kTeer), 3u);
    EXPECT_EQ(w.ops(), 1.0) << "one bogo op per tee+splice cycle";
    const TeeWorkload::Counts c = w.counts();
    EXPECT_EQ(c.bytes_teed, 16u * kTeePageSize);
    EXPECT_EQ(c.max_slots_b, kTeePipeSlots);
    EXPECT_EQ(c.tee_waits_in, 1u) << "the next tee() found A empty and slept in ipipe_prep()";
    ASSERT_EQ(k.woken.size(), 1u);
    EXPECT_EQ(k.woken[0], std::make_pair(kWriter, 0u)) << "wakeup_pipe_writers(): a plain wakeup";
}

TEST(Tee, PipeWriteIntoAnEmptyPipeWakesTheStressorWithSync)
{
    TeeWorkload w(one_instance());
    HandKernel k;
    w.setup(k);
    EXPECT_EQ(w.next_step(k, kTeer).kind, Step::Kind::Block) << "tee() on an empty A sleeps";
    EXPECT_EQ(w.next_step(k, kWriter).kind, Step::Kind::Compute);
    EXPECT_TRUE(k.woken.empty()) << "the write has not landed yet";
    EXPECT_EQ(w.next_step(k, kWriter).kind, Step::Kind::Compute);
    ASSERT_EQ(k.woken.size(), 1u);
    EXPECT_EQ(k.woken[0], std::make_pair(kTeer, unsigned{WF_SYNC})) << "pipe_write(): was_empty, a sync wakeup";
    // A merge into the non-empty pipe wakes no one.
    EXPECT_EQ(w.next_step(k, kWriter).kind, Step::Kind::Compute);
    EXPECT_EQ(k.woken.size(), 1u);
}

TEST(Tee, TeeSleepsWhileBIsFullAndTheReadThatFreesASlotWakesItWithSync)
{
    TeeWorkload w(one_instance());
    HandKernel k;
    w.setup(k);
    computes_until_stop(w, k, kWriter);  // A: 16 pages
    computes_until_stop(w, k, kTeer);    // B: 16 pages; A empty; the writer woken
    k.woken.clear();
    EXPECT_EQ(w.next_step(k, kWriter).kind, Step::Kind::Compute);
    EXPECT_EQ(w.next_step(k, kWriter).kind, Step::Kind::Compute);  // the first lands: wakes the stressor
    ASSERT_EQ(k.woken.size(), 1u);
    EXPECT_EQ(w.next_step(k, kTeer).kind, Step::Kind::Block) << "opipe_prep(): B has no free slot";
    EXPECT_EQ(w.counts().tee_waits_out, 1u);
    k.woken.clear();
    // The reader's 256 reads of B's first page are one step; the last frees
    // the slot of a full B and wakes the stressor with WF_SYNC.
    EXPECT_EQ(w.next_step(k, kReader).kind, Step::Kind::Compute);
    EXPECT_EQ(k.bytes_read, kTeePageSize);
    EXPECT_TRUE(k.woken.empty());
    EXPECT_EQ(w.next_step(k, kReader).kind, Step::Kind::Compute);
    EXPECT_EQ(w.counts().reads, kTeePageSize / 16);
    ASSERT_EQ(k.woken.size(), 1u);
    EXPECT_EQ(k.woken[0], std::make_pair(kTeer, unsigned{WF_SYNC})) << "pipe_read(): was full";
    // The stressor's tee() takes the one free slot: A's first page.
    EXPECT_EQ(w.next_step(k, kTeer).kind, Step::Kind::Compute);
    EXPECT_EQ(w.next_step(k, kTeer).kind, Step::Kind::Compute);
    EXPECT_EQ(w.counts().bytes_teed, 16u * kTeePageSize + 16u);
}

TEST(Tee, ATeedPageKeepsTakingMergesInAAndBReadsEachDuplicateApart)
{
    TeeWorkload w(one_instance());
    HandKernel k;
    k.cpu_of = {3, 5, 7};  // the reader learns the writer's CPU
    w.setup(k);
    EXPECT_EQ(w.next_step(k, kTeer).kind, Step::Kind::Block);
    for (int i = 0; i < 10; ++i)
        w.next_step(k, kWriter);                                 // 9 writes landed, the 10th running
    EXPECT_EQ(w.next_step(k, kTeer).kind, Step::Kind::Compute);  // tee() runs
    for (int i = 0; i < 5; ++i)
        w.next_step(k, kWriter);                                 // 5 more land in the page meanwhile
    EXPECT_EQ(w.next_step(k, kTeer).kind, Step::Kind::Compute);  // tee() done (14 writes), splice() runs
    EXPECT_EQ(w.counts().bytes_teed, 14u * 16u);
    w.next_step(k, kWriter);                                     // one more lands (15 in A)
    EXPECT_EQ(w.next_step(k, kTeer).kind, Step::Kind::Compute);  // splice() done: 14 x 16 bytes left A
    EXPECT_EQ(w.next_step(k, kTeer).kind, Step::Kind::Compute);  // exercise_tee() done: an op; tee() again
    EXPECT_EQ(w.next_step(k, kTeer).kind, Step::Kind::Compute);
    const TeeWorkload::Counts c = w.counts();
    EXPECT_EQ(c.pages, 1u) << "the tee'd buffer in A is still merged into";
    EXPECT_EQ(c.bytes_teed, 15u * 16u) << "the second tee() takes the one write past the first";
    // B holds two buffers of the one page: 14 writes, then 1.
    EXPECT_EQ(w.next_step(k, kReader).kind, Step::Kind::Compute);
    EXPECT_EQ(k.bytes_read, 14u * 16u);
    EXPECT_EQ(k.last_written_on, 3) << "what the reader copies was written on the writer's CPU";
    EXPECT_EQ(w.next_step(k, kReader).kind, Step::Kind::Compute);
    EXPECT_EQ(k.bytes_read, 15u * 16u);
    EXPECT_EQ(w.next_step(k, kReader).kind, Step::Kind::Block) << "B empty";
}

TEST(Tee, MergesShareAStepOnlyWhereTheStressorCannotSeeThePage)
{
    // The stressor asleep in opipe_prep() with A holding several buffers:
    // the writes that merge into A's last page share one step.
    {
        TeeWorkload w(one_instance(true));
        HandKernel k;
        k.cpu_of = {0, 1, 2};
        w.setup(k);
        computes_until_stop(w, k, kWriter);
        computes_until_stop(w, k, kTeer);  // B full, A empty
        for (int i = 0; i < 2 * 256 + 1; ++i)
            w.next_step(k, kWriter);  // A: 2 pages and 1 write, by single writes (the stressor runnable elsewhere)
        EXPECT_EQ(w.counts().writes, 4096u + 2 * 256);
        EXPECT_EQ(w.next_step(k, kTeer).kind, Step::Kind::Block);  // B full
        w.next_step(k, kWriter);                                   // the 513th lands; the rest of page 3 is one step
        w.next_step(k, kWriter);
        EXPECT_EQ(w.counts().writes, 4096u + 3 * 256);
    }
    // The stressor runnable on another CPU could tee the page at any time:
    // one write per step.
    {
        TeeWorkload w(one_instance(true));
        HandKernel k;
        k.cpu_of = {0, 1, 2};
        w.setup(k);
        for (int i = 0; i < 11; ++i)
            w.next_step(k, kWriter);
        EXPECT_EQ(w.counts().writes, 10u);
    }
    // Runnable on the writer's own CPU, it could still preempt the writer
    // at any step boundary (the tick, a wakeup): one write per step too.
    {
        TeeWorkload w(one_instance(true));
        HandKernel k;  // every task on CPU 0
        w.setup(k);
        EXPECT_EQ(w.next_step(k, kTeer).kind, Step::Kind::Block);
        w.next_step(k, kWriter);  // write 1 runs
        w.next_step(k, kWriter);  // write 1 lands and wakes the stressor; 2 runs alone
        EXPECT_EQ(k.woken.size(), 1u);
        for (int i = 0; i < 8; ++i)
            w.next_step(k, kWriter);
        EXPECT_EQ(w.counts().writes, 9u);
        EXPECT_EQ(w.counts().pages, 1u);
    }
}

TEST(Tee, WakeFlagsInARunFollowTheKernel)
{
    // One instance per CPU, three tasks a CPU: the writer fills A, so the
    // splice's wakeup of a waiting writer happens too. Instance i's tasks
    // are 3i (writer), 3i + 1 (the stressor), 3i + 2 (reader).
    const Outcome r = simulate("tee:timeout=20ms");
    int writer_to_teer = 0, teer_to_reader = 0, reader_to_teer = 0, teer_to_writer = 0;
    for (const DecisionRecord& d : r.wakeups) {
        ASSERT_NE(d.waker, kNoTask);
        ASSERT_EQ(d.waker / 3, d.wakee / 3) << "wakeups stay inside an instance";
        const TaskId waker = d.waker % 3, wakee = d.wakee % 3;
        const bool sync = d.wake_flags & WF_SYNC;
        if (waker == kWriter && wakee == kTeer) {
            EXPECT_TRUE(sync) << "pipe_write()";
            ++writer_to_teer;
        } else if (waker == kTeer && wakee == kReader) {
            EXPECT_FALSE(sync) << "tee()'s wakeup_pipe_readers()";
            ++teer_to_reader;
        } else if (waker == kReader && wakee == kTeer) {
            EXPECT_TRUE(sync) << "pipe_read()";
            ++reader_to_teer;
        } else if (waker == kTeer && wakee == kWriter) {
            EXPECT_FALSE(sync) << "splice()'s wakeup_pipe_writers()";
            ++teer_to_writer;
        } else {
            ADD_FAILURE() << "unexpected wakeup " << d.waker << " -> " << d.wakee;
        }
    }
    EXPECT_GT(writer_to_teer, 0);
    EXPECT_GT(teer_to_reader, 0);
    EXPECT_GT(teer_to_writer, 0);
    (void)reader_to_teer;  // only while B is full and the stressor waits on it
    EXPECT_EQ(r.sim->elapsed(), Time::ms(20));
}

TEST(Tee, StopsAfterOpsPerInstance)
{
    const Outcome r = simulate("tee:instances=2,ops=40,timeout=1s");
    const auto& w = r.workload<TeeWorkload>();
    EXPECT_EQ(w.instances(), 2u);
    EXPECT_EQ(r.sim->workload().ops(), 80.0);
    EXPECT_LT(r.sim->elapsed(), Time::ms(100));
    // Each op tees at least one write, and the reader gets no more than that.
    EXPECT_GE(w.counts().bytes_teed, 80u * 16u);
    EXPECT_LE(w.counts().bytes_read, w.counts().bytes_teed);
    EXPECT_EQ(w.counts().bytes_read % 16u, 0u) << "16-byte writes, 16-byte reads";
}

TEST(Tee, OneInstancePerCpuByDefault)
{
    const Outcome r = simulate("tee:timeout=20ms");
    EXPECT_EQ(r.workload<TeeWorkload>().instances(), 8u);
    EXPECT_GT(r.sim->workload().ops(), 8.0);
}

TEST(Tee, ReportsLikeStressNg)
{
    const Outcome r = simulate("tee:instances=2,timeout=2ms");
    const std::string out = r.sim->workload().report(r.sim->elapsed());
    EXPECT_EQ(out.rfind("stress-ng: info:  [1] dispatching hogs: 2 tee\n"
                        "stress-ng: info:  [1] stressor       bogo ops real time  usr time  sys time   bogo ops/s     "
                        "bogo ops/s\n"
                        "stress-ng: info:  [1]                           (secs)    (secs)    (secs)   (real time) "
                        "(usr+sys time)\n"
                        "stress-ng: info:  [1] tee           ",
                        0),
              0u)
        << out;
    char rate[32];
    std::snprintf(rate, sizeof rate, " %12.2f ", r.sim->workload().ops() / 0.002);
    EXPECT_NE(out.find(rate), std::string::npos) << out;
    EXPECT_NE(out.find("successful run completed in 0.00 secs\n"), std::string::npos);
    const Headline h = r.sim->workload().headline(r.sim->elapsed());
    EXPECT_EQ(h.name, "bogo ops/s");
    EXPECT_FALSE(h.lower_is_better);
    EXPECT_DOUBLE_EQ(h.value, r.sim->workload().ops() / 0.002);
}

TEST(Tee, BadParametersAreReportedWithWhatWasExpected)
{
    EXPECT_NE(error_of("tee:instance=2").find("unknown parameter 'instance' of tee"), std::string::npos);
    EXPECT_NE(error_of("tee:size=0").find("size=0: expected a whole number from 1"), std::string::npos);
    EXPECT_NE(error_of("tee:size=4097").find("size=4097: expected a whole number from 1 to 4096"), std::string::npos);
    EXPECT_NE(error_of("tee:timeout=0s").find("timeout=0s: expected a duration above 0"), std::string::npos);
    EXPECT_NE(error_of("tee:ops=-1").find("ops=-1: expected a whole number"), std::string::npos);
}

}  // namespace
}  // namespace wb

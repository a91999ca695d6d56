// SPDX-License-Identifier: Apache-2.0
#include "workload/io_uring.h"

#include <gtest/gtest.h>

#include <set>

#include "metrics/run_figures.h"
#include "workload/io_uring_ops.h"

#include "workload_test_util.h"

namespace wb {
namespace {

using test::error_of;
using test::simulate;

const IoUringWorkload& io_uring_of(const test::Outcome& r)
{
    return r.workload<IoUringWorkload>();
}

TEST(IoUringOps, OnTmpfsOnlyNopFadviseAndCloseCompleteInline)
{
    std::set<IoUringOp> inline_ops;
    for (const IoUringOp op : kStressIoUringRound)
        if (io_uring_issue(op, kTmpfsFile).issue == IoIssue::Inline)
            inline_ops.insert(op);
    // shmem files have no FMODE_NOWAIT, so even reads and writes go to io-wq.
    EXPECT_EQ(inline_ops, (std::set<IoUringOp>{IoUringOp::Nop, IoUringOp::Fadvise, IoUringOp::Close}));
    EXPECT_EQ(io_uring_issue(IoUringOp::Read, kTmpfsFile).why.substr(0, 10), "io_read():");
    EXPECT_EQ(io_uring_issue(IoUringOp::Statx, kTmpfsFile).why, "io_statx_prep(): REQ_F_FORCE_ASYNC");
}

TEST(IoUringOps, ReadsAndWritesGoInlineOnlyWhereTheFileSupportsNowait)
{
    IoFileCaps ext4{true, false, false, true, true};  // FMODE_NOWAIT, no FOP_BUFFER_WASYNC
    IoFileCaps xfs{true, true, false, true, true};
    EXPECT_EQ(io_uring_issue(IoUringOp::Readv, ext4).issue, IoIssue::Inline);
    EXPECT_EQ(io_uring_issue(IoUringOp::Write, ext4).issue, IoIssue::IoWq);
    EXPECT_EQ(io_uring_issue(IoUringOp::Write, xfs).issue, IoIssue::Inline);
    // fsync, fallocate and the forced-async ones go to io-wq on any file.
    for (const IoUringOp op : {IoUringOp::Fsync, IoUringOp::Fallocate, IoUringOp::SyncFileRange, IoUringOp::Madvise,
                               IoUringOp::Statx, IoUringOp::Setxattr, IoUringOp::Getxattr, IoUringOp::Ftruncate})
        EXPECT_EQ(io_uring_issue(op, xfs).issue, IoIssue::IoWq) << io_uring_op_name(op);
    // A CLOSE of a file with ->flush is punted.
    EXPECT_EQ(io_uring_issue(IoUringOp::Close, IoFileCaps{false, false, true, true, true}).issue, IoIssue::IoWq);
}

TEST(IoUringOps, AnIdleWorkerExitsOnItsTimeoutUnlessItIsTheLastOne)
{
    EXPECT_FALSE(io_worker_exits_on_timeout(1, true));
    EXPECT_TRUE(io_worker_exits_on_timeout(2, true));
    EXPECT_TRUE(io_worker_exits_on_timeout(1, false));  // its CPU left the io-wq mask
}

TEST(IoUring, ABogoOpIsOneSubmittedRequestWhoseCompletionWasWaitedFor)
{
    const test::Outcome r = simulate("io-uring:instances=1,ops=30");
    const IoUringWorkload& w = io_uring_of(r);
    // Two rounds of the 15 opcodes: 12 punted and 3 inline each.
    EXPECT_EQ(r.sim->workload().ops(), 30.0);
    EXPECT_EQ(w.rounds(), 2u);
    EXPECT_EQ(w.punted(), 24u);
    EXPECT_EQ(w.inline_completions(), 6u);
}

TEST(IoUring, OnRamfsTheUnsupportedOpcodesAreDroppedAfterTheirFirstFailure)
{
    // Round one submits all 15 (FALLOCATE, SETXATTR, GETXATTR fail with
    // -EOPNOTSUPP), later rounds 12.
    const test::Outcome r = simulate("io-uring:instances=1,ops=39,fs=ramfs");
    const IoUringWorkload& w = io_uring_of(r);
    EXPECT_EQ(w.rounds(), 3u);
    EXPECT_EQ(w.punted(), 12u + 9u + 9u);
}

TEST(IoUring, AWorkerIsCreatedOnTheFirstPuntAndReusedForTheRest)
{
    const test::Outcome r = simulate("io-uring:instances=1,ops=45");
    const IoUringWorkload& w = io_uring_of(r);
    const IoUringWorkload::WorkerStats& s = w.worker_stats();
    EXPECT_EQ(s.created, 1u);
    // Every later punt finds that worker: asleep on the free list (woken) or
    // still running after its last completion (it takes the work itself).
    EXPECT_EQ(s.activations + s.found_queued, w.punted() - 1);
    EXPECT_GT(s.activations, 0u);
    // The ring's teardown at exit ends it.
    EXPECT_EQ(s.exited, 1u);
}

TEST(IoUring, TheLastIdleWorkerOutlivesItsIdleTimeout)
{
    // An idle timeout shorter than the gap between two punts: the worker's
    // schedule_timeout() expires, yet as its class's only worker it stays,
    // and no second worker is ever created.
    const test::Outcome r = simulate("io-uring:instances=1,ops=60,worker_idle=1ns");
    const IoUringWorkload::WorkerStats& s = io_uring_of(r).worker_stats();
    EXPECT_GT(s.idle_timeouts, 0u);
    EXPECT_EQ(s.created, 1u);
    EXPECT_EQ(s.exited, 1u);  // at the ring's teardown only
    int timer_wakeups = 0;
    for (const DecisionRecord& d : r.wakeups)
        timer_wakeups += d.waker == kNoTask && io_uring_of(r).is_worker(d.wakee);
    EXPECT_EQ(static_cast<std::uint64_t>(timer_wakeups), s.idle_timeouts);
}

TEST(IoUring, AWorkerIsAnUnboundThreadOfTheInstanceWokenWithoutSyncAndPlacedFreely)
{
    const test::Outcome r = simulate("io-uring:instances=1,ops=150");
    const IoUringWorkload& w = io_uring_of(r);
    const SchedState& s = r.sim->state();
    int worker_wakeups = 0, completion_wakeups = 0, worker_elsewhere = 0;
    for (const DecisionRecord& d : r.wakeups) {
        if (d.waker == kNoTask)
            continue;
        EXPECT_EQ(d.wake_flags & WF_SYNC, 0u);  // wake_up_process() and wake_up_state(): no flags
        if (w.is_worker(d.wakee)) {
            const Task& wt = s.task(d.wakee);
            EXPECT_FALSE(wt.kthread);
            EXPECT_FALSE(wt.per_cpu_kthread());
            EXPECT_EQ(wt.nr_cpus_allowed, s.nr_cpus);
            EXPECT_EQ(wt.mm, s.task(d.waker).mm);  // a thread of the submitter's process
            ++worker_wakeups;
            worker_elsewhere += d.chosen != d.waker_cpu;
        } else {
            EXPECT_TRUE(w.is_worker(d.waker));
            ++completion_wakeups;
        }
    }
    EXPECT_GT(worker_wakeups, 0);
    EXPECT_GT(completion_wakeups, 0);
    // On a machine with idle CPUs the fair class puts the worker beside, not
    // behind, its busy submitter: select_idle_sibling() finds an idle CPU.
    EXPECT_GT(worker_elsewhere, 0);
}

TEST(IoUring, TheSubmitterWaitsForPuntedRequestsInIowait)
{
    const test::Outcome r = simulate("io-uring:instances=1,ops=150");
    const IoUringWorkload& w = io_uring_of(r);
    // Every punted request is waited for in io_cqring_wait(); inline ones
    // have their CQE before the wait starts.
    EXPECT_EQ(w.iowait_sleeps(), w.punted());
    const RunFigures f = run_figures(r.sim->metrics(), r.sim->elapsed(), r.sim->workload().ops(),
                                     r.sim->workload().headline(r.sim->elapsed()));
    // The submitter's CPU idles while its worker runs elsewhere: iowait.
    EXPECT_GT(f.iowait_pct, 1.0);
}

TEST(IoUring, TheParentForksTheInstancesOneByOneAndEachTimesItsOwnRun)
{
    std::vector<Time> forks;
    Simulator sim(test::teaching(), make_workload("io-uring:instances=3,timeout=1ms,fork=100us"), {});
    sim.set_record_sink([&](const DecisionRecord& d) {
        if ((d.wake_flags & WF_FORK) && d.time > Time() && !test::workload_as<IoUringWorkload>(sim).is_worker(d.wakee))
            forks.push_back(d.time);
    });
    ASSERT_TRUE(sim.run());
    // The instances come 100 us apart (stress_run() forks them in turn),
    // and each stops 1 ms after its own start (alarm() in the child).
    ASSERT_EQ(forks.size(), 3u);
    EXPECT_EQ(forks[1] - forks[0], Time::us(100));
    EXPECT_EQ(forks[2] - forks[1], Time::us(100));
    EXPECT_GE(sim.elapsed(), forks[2] + Time::ms(1));
    EXPECT_LT(sim.elapsed(), forks[2] + Time::us(1200));
    // bogo ops/s (real time) divides by the instances' mean run time, about
    // the timeout, not by the whole run.
    const Headline h = sim.workload().headline(sim.elapsed());
    EXPECT_EQ(h.name, "bogo ops/s");
    EXPECT_FALSE(h.lower_is_better);
    EXPECT_GT(h.value, sim.workload().ops() / 1.1e-3);
    EXPECT_LT(h.value, sim.workload().ops() / 0.99e-3);
}

TEST(IoUring, ReportsInStressNgMetricsLayout)
{
    const test::Outcome r = simulate("io-uring:instances=2,ops=15");
    const std::string out = r.sim->workload().report(r.sim->elapsed());
    EXPECT_NE(out.find("stress-ng: info:  [1] dispatching hogs: 2 io-uring\n"), std::string::npos) << out;
    EXPECT_NE(out.find("stress-ng: metrc: [1] stressor       bogo ops real time"), std::string::npos) << out;
    EXPECT_NE(out.find("stress-ng: metrc: [1] io-uring             30 "), std::string::npos) << out;
    EXPECT_NE(out.find("successful run completed in 0.00 secs"), std::string::npos) << out;
}

TEST(IoUring, BadParametersNameTheParameterAndWhatWasExpected)
{
    EXPECT_NE(error_of("io-uring:depth=4").find("unknown parameter 'depth' of io-uring; expected instances, ops"),
              std::string::npos)
        << error_of("io-uring:depth=4");
    EXPECT_NE(error_of("io-uring:vfs_work=fast").find("vfs_work=fast: expected a duration"), std::string::npos);
    EXPECT_NE(error_of("io-uring:instances=-1").find("instances=-1: expected a whole number"), std::string::npos);
    EXPECT_NE(error_of("io-uring:timeout=0s").find("timeout=0s: expected a duration above 0"), std::string::npos);
    EXPECT_NE(error_of("io-uring:fs=ext4").find("fs=ext4"), std::string::npos) << error_of("io-uring:fs=ext4");
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// The pipe workload, modelled on `perf bench sched pipe`: two tasks
// ping-pong a token over two pipes, so every operation is a pair of sync
// wakeups, each handing the CPU (or not) to the other task. Its headline is
// perf's usecs/op.
#pragma once

#include <cstdint>

#include "topology/sd_flags.h"
#include "workload/workload.h"

namespace wb {

struct PipeOptions {
    std::uint64_t loops = 1000000;  // perf's -l
    bool threads = false;           // perf's -T: threads of one process instead of two processes
    std::string cpus;               // taskset-style cpulist both tasks are pinned to; "" = all CPUs
};

// Final, with its step inline below: the engine calls it directly (issue 3's
// speed target is measured on this workload), so the step inlines into the
// run loop and its wakeup call is not virtual.
class PipeWorkload final : public Workload {
public:
    explicit PipeWorkload(PipeOptions options) : opt_(std::move(options)) {}

    void setup(Kernel& k) override;
    Step next_step(Kernel& k, TaskId t) override;
    // The same, for a caller that knows the kernel's type (the engine): the
    // kernel's wake_up() then needs no virtual call either.
    template <class K>
    Step step(K& k, TaskId t);
    bool done() const override { return loops_done_ >= opt_.loops; }
    double ops() const override { return static_cast<double>(loops_done_); }
    double progress(Time) const override { return static_cast<double>(loops_done_) / static_cast<double>(opt_.loops); }
    Headline headline(Time elapsed) const override;
    std::string report(Time elapsed) const override;

private:
    // Where a task is in its loop. The writer (task 0) writes then reads the
    // reply; the reader (task 1) reads then writes the reply.
    enum class Phase { Write, Wrote, Read, ReadCheck, ReadBlocked };

    struct Side {
        TaskId task = kNoTask;
        Phase phase = Phase::Write;
        int in = 0;   // the pipe it reads
        int out = 1;  // the pipe it writes
    };

    template <class K>
    Step write_done(K& k, Side& side);
    Step read(Side& side);

    PipeOptions opt_;
    Side side_[2];
    std::uint64_t tokens_[2] = {0, 0};        // bytes waiting in each pipe
    TaskId waiting_[2] = {kNoTask, kNoTask};  // the reader blocked on each pipe
    std::uint64_t loops_done_ = 0;
    Time syscall_, transfer_;
};

template <class K>
[[gnu::hot]] inline Step PipeWorkload::step(K& k, TaskId t)
{
    Side& side = side_[t == side_[0].task ? 0 : 1];
    switch (side.phase) {
    case Phase::Write:
        side.phase = Phase::Wrote;
        return Step::compute(syscall_ + transfer_);
    case Phase::Wrote:
        return write_done(k, side);
    case Phase::Read:
        side.phase = Phase::ReadCheck;
        return Step::compute(syscall_);
    case Phase::ReadCheck:
    case Phase::ReadBlocked:
        return read(side);
    }
    return Step::exit();
}

// The write's copy is done: the byte is in the pipe, and a reader sleeping
// on it is woken with WF_SYNC (pipe_write uses the _sync wake-up: the writer
// is expected to sleep soon).
template <class K>
inline Step PipeWorkload::write_done(K& k, Side& side)
{
    ++tokens_[side.out];
    if (TaskId reader = waiting_[side.out]; reader != kNoTask) {
        waiting_[side.out] = kNoTask;
        k.wake_up(reader, WF_SYNC);
    }
    if (&side == &side_[1] && done())
        return Step::exit();
    side.phase = Phase::ReadCheck;
    return Step::compute(syscall_);
}

// Inside read(): take the byte if one is there (the copy), else sleep on the
// pipe; once woken the byte is there.
inline Step PipeWorkload::read(Side& side)
{
    if (tokens_[side.in] == 0) {
        waiting_[side.in] = side.task;
        side.phase = Phase::ReadBlocked;
        return Step::block();
    }
    --tokens_[side.in];
    if (&side == &side_[0])
        ++loops_done_;
    side.phase = Phase::Write;
    if (&side == &side_[0] && done())
        return Step::exit();
    return Step::compute(transfer_);
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// The pipe workload, modelled on `perf bench sched pipe`: two tasks
// ping-pong a token over two pipes, so every operation is a pair of sync
// wakeups, each handing the CPU (or not) to the other task. Its headline is
// perf's usecs/op.
#pragma once

#include <cstdint>

#include "workload/workload.h"

namespace wb {

struct PipeOptions {
    std::uint64_t loops = 1000000;  // perf's -l
    bool threads = false;           // perf's -T: threads of one process instead of two processes
    std::string cpus;               // taskset-style cpulist both tasks are pinned to; "" = all CPUs
};

class PipeWorkload final : public Workload {
public:
    explicit PipeWorkload(PipeOptions options) : opt_(std::move(options)) {}

    void setup(Kernel& k) override;
    Step next_step(Kernel& k, TaskId t) override;
    bool done() const override { return loops_done_ >= opt_.loops; }
    double ops() const override { return static_cast<double>(loops_done_); }
    double progress(Time) const override { return static_cast<double>(loops_done_) / static_cast<double>(opt_.loops); }
    Headline headline(Time elapsed) const override;
    std::string report(Time elapsed) const override;

private:
    // Where a task is in its loop. The writer (task 0) writes then reads the
    // reply; the reader (task 1) reads then writes the reply. ReadCheck is
    // also where a reader woken on its pipe resumes; first, as the most
    // frequent phase is tested against zero.
    enum class Phase { ReadCheck, Write, Wrote, Read };

    struct Side {
        TaskId task = kNoTask;
        Phase phase = Phase::Write;
        int in = 0;   // the pipe it reads
        int out = 1;  // the pipe it writes
    };

    // Out of line: its call to Kernel::wake_up() would make every step save
    // and restore registers; as a tail call only this step pays.
    [[gnu::noinline]] Step write_done(Kernel& k, Side& side);
    Step read(Kernel& k, Side& side);

    PipeOptions opt_;
    Side side_[2];
    std::uint64_t tokens_[2] = {0, 0};        // bytes waiting in each pipe
    TaskId waiting_[2] = {kNoTask, kNoTask};  // the reader blocked on each pipe
    CpuId written_on_[2] = {kNoCpu, kNoCpu};  // where each pipe's last write ran
    std::uint64_t loops_done_ = 0;
    Time syscall_, transfer_;
};

}  // namespace wb

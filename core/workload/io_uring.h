// SPDX-License-Identifier: Apache-2.0
//
// The io-uring workload, modelled on stress-ng's io-uring stressor: each
// instance submits one I/O and sleeps until it completes. The completion is
// a device interrupt on the CPU that submitted (the device's interrupt
// affinity, taken as the submitter's CPU as blk-mq does for a per-CPU
// queue), handed to that CPU's kworker, which wakes the instance from task
// context: the wakeup select_idle_sibling's per-CPU-kthread step is for.
#pragma once

#include <cstdint>
#include <vector>

#include "workload/workload.h"

namespace wb {

struct IoUringOptions {
    std::uint64_t instances = 0;  // stress-ng's --io-uring N; 0 = one per CPU
    Time latency = Time::us(20);  // device completion latency
    Time work = Time::us(2);      // submission work per I/O, on top of the system call
    std::uint64_t ops = 0;        // --io-uring-ops: stop after this many per instance; 0 = no limit
    Time timeout = Time::s(1);    // --timeout, in simulated time
};

class IoUringWorkload final : public Workload {
public:
    explicit IoUringWorkload(IoUringOptions options) : opt_(options) {}

    void setup(Kernel& k) override;
    Step next_step(Kernel& k, TaskId t) override;
    void on_timer(Kernel& k, std::int64_t token) override;
    bool done() const override { return exited_ == instances_.size() && !instances_.empty(); }
    double ops() const override { return static_cast<double>(total_ops()); }
    double progress(Time now) const override { return time_progress(now, opt_.timeout); }
    Headline headline(Time elapsed) const override;
    std::string report(Time elapsed) const override;

private:
    enum class Phase { Submit, Submitted, Waiting, Exited };

    struct Instance {
        TaskId task = kNoTask;
        Phase phase = Phase::Submit;
        CpuId submit_cpu = kNoCpu;
        std::uint64_t ops = 0;
        Time cpu_time;  // nominal CPU work it asked for
    };

    // A CPU's completion context: its kworker and the completions the
    // interrupt queued for it.
    struct Completer {
        TaskId task = kNoTask;
        std::vector<std::size_t> queue;
        std::size_t handling = SIZE_MAX;  // the completion whose handling step is running
        bool sleeping = false;
    };

    Step instance_step(Kernel& k, Instance& in);
    Step kworker_step(Kernel& k, Completer& c);
    std::uint64_t total_ops() const;

    IoUringOptions opt_;
    std::vector<Instance> instances_;
    std::vector<Completer> completers_;     // by CPU
    std::vector<std::size_t> instance_of_;  // by TaskId: index in instances_, or SIZE_MAX
    std::vector<CpuId> kworker_cpu_;        // by TaskId: the kworker's CPU, or kNoCpu
    std::size_t exited_ = 0;
    Time syscall_, handling_;
};

}  // namespace wb

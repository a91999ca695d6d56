// SPDX-License-Identifier: Apache-2.0
//
// OsNoise: the kernel's own background work on an otherwise idle machine —
// per-CPU kworkers running deferred work (vmstat, writeback, RCU callbacks,
// timers' softirq follow-ups) — added around any workload. On each CPU a
// bound kworker is woken by a timer interrupt at random times (a Poisson
// process with the machine's `os_noise_interval` as its mean gap) and runs
// for `os_noise_burst` before it sleeps again. While it runs, that CPU is not
// idle to the wakeup path, which is what makes the noise matter to placement.
// The noise draws from a random stream of its own, seeded once from the
// run's, so it does not shift the draws the scheduler makes.
#pragma once

#include <memory>
#include <vector>

#include "base/rng.h"
#include "workload/workload.h"

namespace wb {

struct Machine;

class OsNoise final : public Workload {
public:
    OsNoise(std::unique_ptr<Workload> inner, Time mean_interval, Time burst);

    // `inner` itself when the machine has no noise (interval or burst 0).
    static std::unique_ptr<Workload> wrap(std::unique_ptr<Workload> inner, const Machine& machine);

    void setup(Kernel& k) override;
    Step next_step(Kernel& k, TaskId t) override;
    void on_timer(Kernel& k, std::int64_t token) override;
    bool done() const override { return inner_->done(); }
    double ops() const override { return inner_->ops(); }
    double progress(Time now) const override { return inner_->progress(now); }
    Headline headline(Time elapsed) const override { return inner_->headline(elapsed); }
    std::string report(Time elapsed) const override { return inner_->report(elapsed); }

    const Workload& inner() const { return *inner_; }
    // Whether `t` is one of the noise's kworkers (the others are the inner
    // workload's): the engine asks the inner workload directly for the
    // rest, saving a virtual call per step.
    bool owns(TaskId t) const
    {
        const auto i = static_cast<std::size_t>(t);
        return i < kworker_cpu_.size() && kworker_cpu_[i] != kNoCpu;
    }

private:
    struct Kworker {
        TaskId task = kNoTask;
        bool burst_done = false;  // its burst ran: the next step is to sleep
    };

    void arm(Kernel& k, CpuId cpu);

    std::unique_ptr<Workload> inner_;
    Time mean_interval_;
    Time burst_;
    Rng rng_{0};
    std::vector<Kworker> kworkers_;   // per CPU
    std::vector<CpuId> kworker_cpu_;  // per task id: the CPU of a kworker, kNoCpu for the inner workload's tasks
};

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "workload/gemm.h"

#include <cmath>
#include <cstdio>

#include "engine/kernel.h"
#include "workload/workload_params.h"

namespace wb {

void GemmWorkload::setup(Kernel& k)
{
    const Machine& m = k.machine();
    const double flops_per_ns = opt_.flop_rate * m.costs[Cost::clock_rate];
    block_time_ = Time::ns(std::max<std::int64_t>(1, std::llround(opt_.block_flops / flops_per_ns)));
    const std::size_t n = opt_.threads ? opt_.threads : static_cast<std::size_t>(m.nr_cores());
    threads_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        TaskSpec spec;
        spec.name = "gemm-" + std::to_string(i);
        threads_[i].task = k.create_task(spec);
    }
    first_task_ = threads_.front().task;
    for (const Thread& th : threads_)
        k.wake_up_new_task(th.task, 0);
}

Step GemmWorkload::next_block(Thread& th)
{
    if (th.blocks >= opt_.blocks) {
        th.phase = Phase::Exited;
        ++exited_;
        return Step::exit();
    }
    th.phase = Phase::Computed;
    return Step::compute(block_time_);
}

Step GemmWorkload::next_step(Kernel& k, TaskId t)
{
    (void)k;
    Thread& th = threads_[static_cast<std::size_t>(t - first_task_)];
    switch (th.phase) {
    case Phase::Start:
        return next_block(th);
    case Phase::Computed:
        ++th.blocks;
        ++blocks_done_;
        if (th.blocks % opt_.barrier != 0 && th.blocks < opt_.blocks)
            return next_block(th);
        // At the barrier. The last thread to arrive opens it.
        if (++arrived_ == threads_.size()) {
            arrived_ = 0;
            ++barrier_generation_;
            return next_block(th);
        }
        th.generation = barrier_generation_;
        th.phase = Phase::Spinning;
        return Step::compute(opt_.spin);
    case Phase::Spinning:
        if (barrier_generation_ != th.generation)
            return next_block(th);
        th.phase = Phase::Yielded;
        return Step::yield();
    case Phase::Yielded:
        th.phase = Phase::Spinning;
        return Step::compute(opt_.spin);
    case Phase::Exited:
        break;
    }
    return Step::exit();
}

double GemmWorkload::gflops(Time elapsed) const
{
    const double secs = elapsed.to_seconds();
    return secs > 0 ? static_cast<double>(blocks_done_) * opt_.block_flops / secs / 1e9 : 0.0;
}

Headline GemmWorkload::headline(Time elapsed) const
{
    return {"GFLOP/s", gflops(elapsed), "GFLOP/s", false};
}

std::string GemmWorkload::report(Time elapsed) const
{
    char buf[256];
    std::snprintf(buf, sizeof buf, "gemm: %zu threads, %llu blocks: %.2f GFLOP/s\n", threads_.size(),
                  static_cast<unsigned long long>(opt_.blocks), gflops(elapsed));
    return buf;
}

}  // namespace wb

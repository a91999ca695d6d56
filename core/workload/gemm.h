// SPDX-License-Identifier: Apache-2.0
//
// The gemm workload: a multithreaded SGEMM as BLAS libraries run it. Each
// thread computes its share block by block and meets the others at a
// barrier; a waiting thread spins on sched_yield() (as OpenBLAS's
// YIELDING does) instead of sleeping, so it stays runnable, and the last
// to arrive releases the rest without a wakeup. Its throughput follows the
// speed of the CPUs the threads land on and whether they share cores.
#pragma once

#include <cstdint>
#include <vector>

#include "workload/workload.h"

namespace wb {

struct GemmOptions {
    std::uint64_t threads = 0;   // 0 = one per core
    std::uint64_t blocks = 200;  // blocks per thread
    double block_flops = 2.0 * 256 * 256 * 256;
    double flop_rate = 16;      // flops per cycle per thread at nominal speed
    std::uint64_t barrier = 1;  // meet at a barrier every this many blocks
    Time spin = Time::us(1);    // work between two sched_yield() calls while waiting
};

class GemmWorkload final : public Workload {
public:
    explicit GemmWorkload(GemmOptions options) : opt_(options) {}

    void setup(Kernel& k) override;
    Step next_step(Kernel& k, TaskId t) override;
    bool done() const override { return exited_ == threads_.size() && !threads_.empty(); }
    double ops() const override { return static_cast<double>(blocks_done_); }  // blocks computed
    Headline headline(Time elapsed) const override;
    std::string report(Time elapsed) const override;

    double gflops(Time elapsed) const;

private:
    enum class Phase { Start, Computed, Spinning, Yielded, Exited };

    struct Thread {
        TaskId task = kNoTask;
        Phase phase = Phase::Start;
        std::uint64_t blocks = 0;
        std::uint64_t generation = 0;  // of the barrier it waits at
    };

    Step next_block(Thread& th);

    GemmOptions opt_;
    std::vector<Thread> threads_;
    std::uint64_t barrier_generation_ = 0;
    std::size_t arrived_ = 0;
    std::uint64_t blocks_done_ = 0;
    std::size_t exited_ = 0;
    Time block_time_;
    TaskId first_task_ = kNoTask;
};

}  // namespace wb

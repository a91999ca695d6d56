// SPDX-License-Identifier: Apache-2.0
//
// The gemm workload: a multithreaded SGEMM as an OpenMP BLAS runs it. Each
// thread computes its share block by block and meets the others at a
// barrier, where it waits as the OpenMP runtime waits:
//
// - GNU libgomp (libgomp/config/linux/bar.c gomp_barrier_wait_end,
//   config/linux/wait.h do_wait/do_spin): spin GOMP_SPINCOUNT iterations
//   of a relaxed load and cpu_relax() (gomp_throttled_spin_count_var when
//   there are more threads than CPUs), never calling sched_yield(), then
//   futex_wait() on the barrier's generation; the last thread to arrive
//   bumps the generation and futex_wake(INT_MAX) wakes every sleeper.
//   libgomp/env.c initialize_env sets the count: 300000 with
//   OMP_WAIT_POLICY unset, 30000000000 for active, 0 for passive.
// - LLVM libomp (openmp/runtime/src/kmp_wait_release.h
//   __kmp_wait_template with KMP_YIELD_OVERSUB_ELSE_SPIN from kmp.h): spin
//   with sched_yield() after KMP_INIT_WAIT/2 = 512 polls and every
//   KMP_NEXT_WAIT/2 = 256 after (every poll when oversubscribed) under
//   KMP_LIBRARY=throughput, until KMP_BLOCKTIME (200 ms, kmp.h
//   KMP_DEFAULT_BLOCKTIME) has passed, then suspend on a condition
//   variable; the release is the hyper barrier's tree (kmp_barrier.cpp,
//   branch bits 2 in kmp_global.cpp): each released thread releases, and
//   if asleep resumes (__kmp_resume_template), its children in turn.
//
// The default runtime is libgomp, as NVPL BLAS's threaded interface
// (libnvpl_blas_*_gomp) is linked with -lgomp. docs/workloads.md has the
// model, its sources and what it leaves out.
#pragma once

#include <cstdint>
#include <vector>

#include "workload/workload.h"

namespace wb {

enum class OmpRuntime { Libgomp, Libomp };
enum class WaitPolicy { Unset, Active, Passive };  // OMP_WAIT_POLICY

struct GemmOptions {
    std::uint64_t threads = 0;   // 0 = one per core
    std::uint64_t blocks = 200;  // blocks per thread
    double block_flops = 2.0 * 256 * 256 * 256;
    double flop_rate = 16;      // flops per cycle per thread at nominal speed
    std::uint64_t barrier = 1;  // meet at a barrier every this many blocks
    OmpRuntime runtime = OmpRuntime::Libgomp;
    WaitPolicy wait_policy = WaitPolicy::Unset;
    std::int64_t spincount = -1;     // GOMP_SPINCOUNT; -1: the wait policy's default
    Time blocktime = Time::ms(200);  // KMP_BLOCKTIME; Time::max(): infinite
    bool blocktime_set = false;      // given explicitly: the wait policy does not change it
    Time spin_iter = Time::ns(10);   // one poll of the barrier flag
    Time imbalance;                  // extra work of the last thread before each barrier
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
    std::uint64_t sched_yields() const { return yields_; }
    std::uint64_t futex_waits() const { return sleeps_; }  // waits that went to sleep
    std::uint64_t futex_wakes() const { return wakes_; }   // sleepers woken
    std::uint64_t barriers() const { return barrier_generation_; }

private:
    enum class Phase { Start, Computed, Spinning, YieldCall, Yielded, WaitCall, Asleep, Releasing, Exited };

    struct Thread {
        TaskId task = kNoTask;
        Phase phase = Phase::Start;
        std::uint64_t blocks = 0;
        std::uint64_t waits_for = 0;  // the barrier generation that releases it
        std::uint64_t go = 0;         // the last generation released to it (its b_go flag)
        Time wait_start;
        std::uint64_t polls = 0;  // flag polls so far in this wait
        std::uint64_t yield_countdown = 0;
        std::size_t next_child = 0;          // libomp release: children handled so far
        std::vector<std::size_t> wake_list;  // sleepers this thread wakes, in order
        std::size_t woken = 0;
        std::uint64_t pending_polls = 0;  // polls of the spin chunk under way
        bool yield_due = false;           // sched_yield() once the chunk is done
    };

    Step next_block(Thread& th, std::size_t i);
    Step arrive(Kernel& k, Thread& th, std::size_t i);
    Step wait(Kernel& k, Thread& th);
    Step release(Thread& th, std::size_t i);
    Step wake_next(Kernel& k, Thread& th, std::size_t i);
    Step poll(Kernel& k, Thread& th);
    Step go_to_sleep(Thread& th);
    Step observed_release(Thread& th, std::size_t i);
    bool released(const Thread& th) const { return th.go >= th.waits_for; }
    void children_of(std::size_t i, std::vector<std::size_t>& out) const;

    GemmOptions opt_;
    std::vector<Thread> threads_;
    std::uint64_t barrier_generation_ = 0;
    std::size_t arrived_ = 0;
    std::uint64_t blocks_done_ = 0;
    std::size_t exited_ = 0;
    Time block_time_;
    Time syscall_;
    std::uint64_t spin_polls_ = 0;  // polls before sleeping; UINT64_MAX: never (libgomp)
    bool oversubscribed_ = false;
    bool yields_in_spin_ = false;  // libomp's __kmp_use_yield == 1 (KMP_LIBRARY=throughput)
    TaskId first_task_ = kNoTask;
    std::uint64_t yields_ = 0;
    std::uint64_t sleeps_ = 0;
    std::uint64_t wakes_ = 0;
};

}  // namespace wb

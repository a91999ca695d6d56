// SPDX-License-Identifier: Apache-2.0
#include "workload/gemm.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/kernel.h"
#include "workload/workload_params.h"

namespace wb {

namespace {

// The model looks at the barrier flag every this many polls (the real loop
// looks every poll): a release is seen up to kPollChunk x spin_iter late, a
// resolution of the model, not a property of either runtime.
constexpr std::uint64_t kPollChunk = 100;

// kmp.h KMP_INIT_WAIT and KMP_NEXT_WAIT (Linux), counted down by 2 per poll
// in KMP_YIELD_OVERSUB_ELSE_SPIN: the polls before the first sched_yield()
// and between the later ones.
constexpr std::uint64_t kKmpFirstYield = 1024 / 2;
constexpr std::uint64_t kKmpNextYield = 512 / 2;

// libomp's hyper barrier, __kmp_barrier_release_bb_dflt = 2 (kmp_global.cpp).
constexpr std::size_t kHyperBranch = 4;

// libgomp/env.c initialize_env: GOMP_SPINCOUNT's default and the throttled
// count used when there are more threads than CPUs, by OMP_WAIT_POLICY.
std::uint64_t gomp_spin_polls(const GemmOptions& o, bool oversubscribed)
{
    std::uint64_t count = 0;
    if (o.spincount >= 0)
        count = static_cast<std::uint64_t>(o.spincount);
    else if (o.wait_policy == WaitPolicy::Active)
        count = 30000000000ULL;
    else if (o.wait_policy == WaitPolicy::Unset)
        count = 300000;
    if (!oversubscribed)
        return count;
    std::uint64_t throttled = 0;
    if (o.wait_policy == WaitPolicy::Active)
        throttled = 1000;
    else if (o.wait_policy == WaitPolicy::Unset)
        throttled = 100;
    return std::min(throttled, count);
}

}  // namespace

void GemmWorkload::setup(Kernel& k)
{
    const Machine& m = k.machine();
    const double flops_per_ns = opt_.flop_rate * m.costs[Cost::clock_rate];
    block_time_ = Time::ns(std::max<std::int64_t>(1, std::llround(opt_.block_flops / flops_per_ns)));
    syscall_ = Time::ns(static_cast<std::int64_t>(m.costs[Cost::syscall]));
    const std::size_t n = opt_.threads ? opt_.threads : static_cast<std::size_t>(m.nr_cores());
    oversubscribed_ = n > static_cast<std::size_t>(m.nr_cpus());
    if (opt_.runtime == OmpRuntime::Libgomp) {
        spin_polls_ = gomp_spin_polls(opt_, oversubscribed_);
    } else {
        // kmp_settings.cpp __kmp_stg_parse_wait_policy: active selects
        // KMP_LIBRARY=turnaround (no yields unless oversubscribed) and an
        // infinite blocktime, passive a blocktime of 0; KMP_BLOCKTIME wins.
        if (!opt_.blocktime_set && opt_.wait_policy == WaitPolicy::Active)
            opt_.blocktime = Time::max();
        else if (!opt_.blocktime_set && opt_.wait_policy == WaitPolicy::Passive)
            opt_.blocktime = Time();
        yields_in_spin_ = opt_.wait_policy != WaitPolicy::Active;
    }
    // A thread's working set is the block it multiplies: block_flops =
    // 2 n^3 for n x n tiles, and an SGEMM block holds three of them (A, B
    // and C) in single precision. The default 256^3 block is 768 KiB.
    const double tile = std::cbrt(opt_.block_flops / 2.0);
    const auto working_set = static_cast<std::uint64_t>(std::llround(3.0 * tile * tile * sizeof(float)));
    threads_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        TaskSpec spec;
        spec.name = "gemm-" + std::to_string(i);
        spec.working_set_bytes = working_set;
        threads_[i].task = k.create_task(spec);
    }
    first_task_ = threads_.front().task;
    for (const Thread& th : threads_)
        k.wake_up_new_task(th.task, 0);
}

Step GemmWorkload::next_block(Thread& th, std::size_t i)
{
    if (th.blocks >= opt_.blocks) {
        th.phase = Phase::Exited;
        ++exited_;
        return Step::exit();
    }
    th.phase = Phase::Computed;
    // The last thread's share is larger by `imbalance` in every interval.
    const bool closes_interval = (th.blocks + 1) % opt_.barrier == 0 || th.blocks + 1 == opt_.blocks;
    if (i + 1 == threads_.size() && closes_interval)
        return Step::compute(block_time_ + opt_.imbalance);
    return Step::compute(block_time_);
}

// The hyper barrier's release tree: thread i releases i + j * 4^l (j = 1..3)
// for every level l at which i is a subtree root, the highest level first
// (__kmp_hyper_barrier_release walks the levels downwards).
void GemmWorkload::children_of(std::size_t i, std::vector<std::size_t>& out) const
{
    out.clear();
    const std::size_t n = threads_.size();
    std::vector<std::size_t> levels;
    for (std::size_t span = 1; span < n && i % (span * kHyperBranch) == 0; span *= kHyperBranch)
        levels.push_back(span);
    for (auto it = levels.rbegin(); it != levels.rend(); ++it)
        for (std::size_t j = 1; j < kHyperBranch && i + j * *it < n; ++j)
            out.push_back(i + j * *it);
}

Step GemmWorkload::arrive(Kernel& k, Thread& th, std::size_t i)
{
    th.waits_for = barrier_generation_ + 1;
    th.wake_list.clear();
    th.woken = 0;
    if (++arrived_ < threads_.size())
        return wait(k, th);
    arrived_ = 0;
    const std::uint64_t gen = ++barrier_generation_;
    if (opt_.runtime == OmpRuntime::Libgomp) {
        // gomp_barrier_wait_end: bump the generation, then one
        // futex_wake(INT_MAX) if anyone sleeps on it.
        for (std::size_t j = 0; j < threads_.size(); ++j) {
            threads_[j].go = gen;
            if (threads_[j].phase == Phase::Asleep)
                th.wake_list.push_back(j);
        }
    } else {
        // The gather ends at the master (tid 0): its flag says all arrived.
        // If it is the master itself, it goes on to release its children.
        threads_[0].go = gen;
        if (i == 0)
            return release(th, i);
        if (threads_[0].phase == Phase::Asleep)
            th.wake_list.push_back(0);
    }
    if (th.wake_list.empty())
        return released(th) ? next_block(th, i) : wait(k, th);
    th.phase = Phase::Releasing;
    return Step::compute(syscall_);  // futex_wake() / pthread_cond_signal()
}

// libomp: a released thread sets its children's b_go flags and resumes the
// ones asleep, one pthread_cond_signal() each.
Step GemmWorkload::release(Thread& th, std::size_t i)
{
    std::vector<std::size_t> children;
    children_of(i, children);
    th.wake_list.clear();
    th.woken = 0;
    for (std::size_t c : children) {
        threads_[c].go = th.waits_for;
        if (threads_[c].phase == Phase::Asleep)
            th.wake_list.push_back(c);
    }
    if (th.wake_list.empty())
        return next_block(th, i);
    th.phase = Phase::Releasing;
    return Step::compute(syscall_);
}

Step GemmWorkload::wake_next(Kernel& k, Thread& th, std::size_t i)
{
    // libgomp's futex_wake wakes every sleeper inside one system call;
    // libomp resumes one child per call.
    const bool all_at_once = opt_.runtime == OmpRuntime::Libgomp;
    do {
        k.wake_up(threads_[th.wake_list[th.woken]].task, 0);
        ++wakes_;
        ++th.woken;
    } while (all_at_once && th.woken < th.wake_list.size());
    if (th.woken < th.wake_list.size())
        return Step::compute(syscall_);
    return released(th) ? next_block(th, i) : wait(k, th);
}

// Start waiting at the barrier: the spin loop of do_spin() or
// __kmp_wait_template().
Step GemmWorkload::wait(Kernel& k, Thread& th)
{
    th.phase = Phase::Spinning;
    th.wait_start = k.now();
    th.polls = 0;
    th.yield_countdown = kKmpFirstYield;
    th.pending_polls = 0;
    return poll(k, th);
}

Step GemmWorkload::poll(Kernel& k, Thread& th)
{
    std::uint64_t chunk = kPollChunk;
    th.yield_due = false;
    if (opt_.runtime == OmpRuntime::Libgomp) {
        if (th.polls >= spin_polls_)
            return go_to_sleep(th);
        chunk = std::min(chunk, spin_polls_ - th.polls);
    } else {
        const Time waited = k.now() - th.wait_start;
        if (opt_.blocktime != Time::max() && waited >= opt_.blocktime)
            return go_to_sleep(th);
        if (opt_.blocktime != Time::max()) {
            const std::int64_t left = (opt_.blocktime - waited).ns();
            const std::int64_t per = std::max<std::int64_t>(1, opt_.spin_iter.ns());
            chunk = std::min<std::uint64_t>(chunk, static_cast<std::uint64_t>((left + per - 1) / per));
        }
        if (oversubscribed_) {
            // KMP_TRY_YIELD_OVERSUB: sched_yield() after every poll.
            chunk = 1;
            th.yield_due = true;
        } else if (yields_in_spin_) {
            chunk = std::min(chunk, th.yield_countdown);
            th.yield_countdown -= chunk;
            if (th.yield_countdown == 0) {
                th.yield_due = true;
                th.yield_countdown = kKmpNextYield;
            }
        }
    }
    th.phase = Phase::Spinning;
    th.pending_polls = chunk;
    return Step::compute(Time::ns(opt_.spin_iter.ns() * static_cast<std::int64_t>(chunk)));
}

// futex_wait() (libgomp) or __kmp_suspend_template's pthread_cond_wait():
// the kernel checks the flag again before the thread sleeps.
Step GemmWorkload::go_to_sleep(Thread& th)
{
    th.phase = Phase::WaitCall;
    return Step::compute(syscall_);
}

Step GemmWorkload::observed_release(Thread& th, std::size_t i)
{
    if (opt_.runtime == OmpRuntime::Libomp)
        return release(th, i);
    return next_block(th, i);
}

Step GemmWorkload::next_step(Kernel& k, TaskId t)
{
    const std::size_t i = static_cast<std::size_t>(t - first_task_);
    Thread& th = threads_[i];
    switch (th.phase) {
    case Phase::Start:
        return next_block(th, i);
    case Phase::Computed:
        ++th.blocks;
        ++blocks_done_;
        if (th.blocks % opt_.barrier != 0 && th.blocks < opt_.blocks)
            return next_block(th, i);
        return arrive(k, th, i);
    case Phase::Spinning:
        th.polls += th.pending_polls;
        if (released(th))
            return observed_release(th, i);
        if (th.yield_due) {
            th.phase = Phase::YieldCall;
            return Step::compute(syscall_);
        }
        return poll(k, th);
    case Phase::YieldCall:
        ++yields_;
        th.phase = Phase::Yielded;
        return Step::yield();
    case Phase::Yielded:
        if (released(th))
            return observed_release(th, i);
        return poll(k, th);
    case Phase::WaitCall:
        if (released(th))
            return observed_release(th, i);
        ++sleeps_;
        th.phase = Phase::Asleep;
        return Step::block();
    case Phase::Asleep:
        if (released(th))
            return observed_release(th, i);
        return go_to_sleep(th);  // woken early: sleep again
    case Phase::Releasing:
        return wake_next(k, th, i);
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
    const double secs = elapsed.to_seconds();
    const auto per_sec = [secs](std::uint64_t v) { return secs > 0 ? static_cast<double>(v) / secs : 0.0; };
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "gemm: %zu threads, %llu blocks: %.2f GFLOP/s\n"
                  "%s barriers: %llu; sched_yield calls: %llu (%.0f/s); futex waits (sleeps): %llu; "
                  "wakeups of sleepers: %llu (%.0f/s)\n",
                  threads_.size(), static_cast<unsigned long long>(opt_.blocks), gflops(elapsed),
                  opt_.runtime == OmpRuntime::Libgomp ? "libgomp" : "libomp",
                  static_cast<unsigned long long>(barrier_generation_), static_cast<unsigned long long>(yields_),
                  per_sec(yields_), static_cast<unsigned long long>(sleeps_), static_cast<unsigned long long>(wakes_),
                  per_sec(wakes_));
    return buf;
}

}  // namespace wb

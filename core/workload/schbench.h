// SPDX-License-Identifier: Apache-2.0
//
// The schbench workload: message threads, each with its worker threads.
// A worker with nothing to do puts itself on its message thread's list,
// wakes the message thread (a futex post) and sleeps on its own futex. The
// message thread takes the list and wakes each worker in turn (futex wakes:
// no WF_SYNC), then naps `sleep` and looks again; with nobody on its list
// it sleeps on its futex. A woken worker does one request (`work` of CPU)
// and comes back. Measured, after the warmup: wakeup latency (from the
// message thread's wake to the worker running), request latency (from that
// wake to the request done) and requests per second. Its headline is the
// p99 wakeup latency.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/kernel.h"
#include "metrics/histogram.h"
#include "workload/workload.h"

namespace wb {

struct SchbenchOptions {
    std::uint64_t message_threads = 2;  // -m
    std::uint64_t workers = 16;         // -t: per message thread
    Time runtime = Time::s(1);          // -r: measured time, after the warmup
    Time work = Time::us(20);           // CPU work of one request at nominal speed
    Time sleep = Time::us(100);         // a message thread's nap between rounds
    Time warmup = Time();               // -w
};

class SchbenchWorkload final : public Workload {
public:
    explicit SchbenchWorkload(SchbenchOptions options) : opt_(options) {}

    void setup(Kernel& k) override;
    Step next_step(Kernel& k, TaskId t) override;
    void on_timer(Kernel& k, std::int64_t token) override;
    bool done() const override { return stopping_; }
    double ops() const override { return static_cast<double>(requests_); }
    double progress(Time now) const override { return time_progress(now, opt_.warmup + opt_.runtime); }
    Headline headline(Time elapsed) const override;
    std::string report(Time elapsed) const override;

    // In ns, samples taken after the warmup.
    const Histogram& wakeup_latency() const { return wakeup_; }
    const Histogram& request_latency() const { return request_; }
    // Requests per second, one sample per second of measured time (one per
    // run if the runtime is shorter).
    const Histogram& rps() const { return rps_; }

private:
    enum class Phase { Start, Posted, Waiting, Working, MsgCheck, MsgWaking, MsgNapping, MsgBlocked };

    struct Thread {
        TaskId task = kNoTask;
        bool message = false;
        std::size_t owner = 0;  // a worker's message thread (index into threads_)
        Phase phase = Phase::Start;
        Time wake_time;                 // worker: when its message thread woke it
        std::vector<std::size_t> list;  // message thread: workers waiting for a request
        std::size_t waking = 0;         // message thread: the worker of the futex wake in progress
        bool woke_any = false;          // message thread: woke someone since its last nap
        CpuId posted_on = kNoCpu;       // worker: where it added itself to the list
        CpuId stamped_on = kNoCpu;      // worker: where its message thread stored its wake_time
    };

    Step worker_step(Kernel& k, Thread& w);
    Step message_step(Kernel& k, Thread& m);
    bool measuring(const Kernel& k) const;

    SchbenchOptions opt_;
    Time syscall_;
    Time rps_window_;
    std::vector<Thread> threads_;
    std::vector<std::size_t> thread_of_;  // TaskId -> index in threads_
    Histogram wakeup_, request_, rps_;
    std::uint64_t requests_ = 0;
    std::uint64_t window_requests_ = 0;
    Time window_start_;
    bool stopping_ = false;
};

}  // namespace wb

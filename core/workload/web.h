// SPDX-License-Identifier: Apache-2.0
//
// The web workload: a request/response service with an accept thread, a
// pool of workers and backend servers. A request arrives as a network
// interrupt on a CPU picked by the NIC's RSS hash, wakes the acceptor from
// interrupt context; the acceptor hands it to an idle worker over a socket
// (a sync wakeup) or queues it; the worker computes, calls a backend (sync
// wakeup) and sleeps until the backend's reply (sync wakeup) lets it send
// the response. Offered load is open (Poisson arrivals at `rate`) or closed
// (`clients` requests always outstanding). It reports what wrk reports:
// requests/s and the latency distribution.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "metrics/histogram.h"
#include "workload/workload.h"

namespace wb {

struct WebOptions {
    double rate = 0;             // requests/s offered (Poisson); 0 = closed loop at saturation
    std::uint64_t clients = 64;  // outstanding requests of the closed loop
    std::uint64_t acceptors = 1;
    std::uint64_t workers = 0;  // 0 = one per CPU
    std::uint64_t backends = 2;
    Time accept_work = Time::us(5);
    Time work = Time::us(200);
    Time backend_work = Time::us(50);
    Time duration = Time::s(1);  // requests are offered for this long
};

class WebWorkload final : public Workload {
public:
    explicit WebWorkload(WebOptions options) : opt_(options) {}

    void setup(Kernel& k) override;
    Step next_step(Kernel& k, TaskId t) override;
    void on_timer(Kernel& k, std::int64_t token) override;
    bool done() const override { return stopped_ && completed_ == requests_.size(); }
    double ops() const override { return static_cast<double>(completed_); }
    // Requests are offered for `duration`; the last ones drain after it.
    double progress(Time now) const override { return time_progress(now, opt_.duration); }
    Headline headline(Time elapsed) const override;
    std::string report(Time elapsed) const override;

    const Histogram& latency() const { return latency_; }  // ns, arrival to response sent

private:
    enum class Role { Acceptor, Worker, Backend };
    enum class Phase { Idle, Busy, Calling, Replying };

    struct Server {
        TaskId task = kNoTask;
        Role role = Role::Worker;
        Phase phase = Phase::Idle;
        bool sleeping = false;
        std::size_t request = SIZE_MAX;  // the one being served
        std::deque<std::size_t> queue;   // acceptors: accepted connections; backends: calls
    };

    void arrive(Kernel& k);
    Step acceptor_step(Kernel& k, Server& s);
    Step worker_step(Kernel& k, Server& s);
    Step backend_step(Kernel& k, Server& s);
    Step start_request(Server& worker, std::size_t request);
    std::size_t index_of(TaskId t) const { return static_cast<std::size_t>(t - first_task_); }

    WebOptions opt_;
    std::vector<Server> servers_;  // acceptors, then workers, then backends
    std::size_t first_worker_ = 0, first_backend_ = 0;
    std::vector<std::size_t> idle_workers_;
    std::deque<std::size_t> work_queue_;  // requests no worker was free for
    std::vector<Time> requests_;          // arrival time of each request
    std::size_t completed_ = 0;
    std::size_t next_acceptor_ = 0, next_backend_ = 0;
    bool stopped_ = false;  // no more arrivals
    Histogram latency_;
    TaskId first_task_ = kNoTask;
    Time syscall_;
};

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "workload/web.h"

#include <cmath>
#include <cstdio>

#include "engine/kernel.h"
#include "topology/sd_flags.h"

namespace wb {

namespace {

// Timer tokens.
constexpr std::int64_t kOpenArrival = 0;    // the next Poisson arrival; schedules the one after
constexpr std::int64_t kClosedArrival = 1;  // a client's next request, sent as its response came back

}  // namespace

void WebWorkload::setup(Kernel& k)
{
    const Machine& m = k.machine();
    syscall_ = Time::ns(static_cast<std::int64_t>(m.costs[Cost::syscall]));
    const std::size_t workers = opt_.workers ? opt_.workers : static_cast<std::size_t>(m.nr_cpus());
    auto add = [&](Role role, std::size_t n, const char* name, int group) {
        for (std::size_t i = 0; i < n; ++i) {
            Server s;
            s.role = role;
            TaskSpec spec;
            spec.name = std::string(name) + "-" + std::to_string(i);
            spec.group = group;
            s.task = k.create_task(spec);
            if (first_task_ == kNoTask)
                first_task_ = s.task;
            servers_.push_back(std::move(s));
        }
    };
    add(Role::Acceptor, opt_.acceptors, "acceptor", 0);
    first_worker_ = servers_.size();
    add(Role::Worker, workers, "worker", 1);
    first_backend_ = servers_.size();
    add(Role::Backend, opt_.backends, "backend", 2);
    for (const Server& s : servers_)
        k.wake_up_new_task(s.task, 0);

    if (opt_.rate > 0) {
        k.start_timer(k.now(), kOpenArrival);
    } else {
        for (std::uint64_t i = 0; i < opt_.clients; ++i)
            k.start_timer(k.now(), kClosedArrival);
    }
}

void WebWorkload::on_timer(Kernel& k, std::int64_t token)
{
    if (k.now() >= opt_.duration) {
        stopped_ = true;
        return;
    }
    arrive(k);
    if (token == kOpenArrival) {
        // Exponential gaps: a Poisson process of `rate` arrivals per second.
        const double gap_s = -std::log(1.0 - k.rng().uniform()) / opt_.rate;
        k.start_timer(k.now() + Time::ns(static_cast<std::int64_t>(gap_s * 1e9)), kOpenArrival);
    }
}

// The packet's interrupt lands on the CPU the NIC's RSS hash of the flow
// picks: uniform over the CPUs for many flows.
void WebWorkload::arrive(Kernel& k)
{
    const std::size_t r = requests_.size();
    requests_.push_back(k.now());
    Server& acc = servers_[next_acceptor_];
    next_acceptor_ = (next_acceptor_ + 1) % opt_.acceptors;
    acc.queue.push_back(r);
    if (acc.sleeping) {
        acc.sleeping = false;
        const auto cpu = static_cast<CpuId>(k.rng().below(static_cast<std::uint64_t>(k.machine().nr_cpus())));
        k.wake_up_from_irq(acc.task, cpu, 0);
    }
}

Step WebWorkload::next_step(Kernel& k, TaskId t)
{
    Server& s = servers_[index_of(t)];
    switch (s.role) {
    case Role::Acceptor:
        return acceptor_step(k, s);
    case Role::Worker:
        return worker_step(k, s);
    case Role::Backend:
        return backend_step(k, s);
    }
    return Step::exit();
}

Step WebWorkload::acceptor_step(Kernel& k, Server& s)
{
    if (s.phase == Phase::Busy) {
        // accept() returned: hand the connection to a worker sleeping in
        // its socket read, or leave it queued for the next free one.
        if (!idle_workers_.empty()) {
            Server& w = servers_[idle_workers_.back()];
            idle_workers_.pop_back();
            w.request = s.request;
            w.sleeping = false;
            k.wake_up(w.task, WF_SYNC);
        } else {
            work_queue_.push_back(s.request);
        }
        s.phase = Phase::Idle;
    }
    if (s.queue.empty()) {
        s.sleeping = true;
        return Step::block();
    }
    s.request = s.queue.front();
    s.queue.pop_front();
    s.phase = Phase::Busy;
    return Step::compute(syscall_ + opt_.accept_work);
}

Step WebWorkload::start_request(Server& w, std::size_t request)
{
    w.request = request;
    w.phase = Phase::Busy;
    return Step::compute(syscall_ + opt_.work);
}

Step WebWorkload::worker_step(Kernel& k, Server& s)
{
    switch (s.phase) {
    case Phase::Busy: {
        // The request's own work is done: call a backend and wait.
        Server& b = servers_[first_backend_ + next_backend_];
        next_backend_ = (next_backend_ + 1) % opt_.backends;
        b.queue.push_back(index_of(s.task));
        if (b.sleeping) {
            b.sleeping = false;
            k.wake_up(b.task, WF_SYNC);
        }
        s.phase = Phase::Calling;
        return Step::block();
    }
    case Phase::Calling:
        // The reply came: read it and send the response.
        s.phase = Phase::Replying;
        return Step::compute(syscall_ + syscall_);
    case Phase::Replying: {
        latency_.record((k.now() - requests_[s.request]).ns());
        ++completed_;
        s.request = SIZE_MAX;
        if (opt_.rate <= 0)
            k.start_timer(k.now(), kClosedArrival);
        s.phase = Phase::Idle;
        break;
    }
    case Phase::Idle:
        if (s.request != SIZE_MAX)  // handed over by the acceptor while asleep
            return start_request(s, s.request);
        break;
    }
    if (!work_queue_.empty()) {
        const std::size_t r = work_queue_.front();
        work_queue_.pop_front();
        return start_request(s, r);
    }
    s.sleeping = true;
    idle_workers_.push_back(index_of(s.task));
    return Step::block();
}

Step WebWorkload::backend_step(Kernel& k, Server& s)
{
    if (s.phase == Phase::Busy) {
        Server& w = servers_[s.request];
        k.wake_up(w.task, WF_SYNC);
        s.phase = Phase::Idle;
    }
    if (s.queue.empty()) {
        s.sleeping = true;
        return Step::block();
    }
    s.request = s.queue.front();  // here: the calling worker's index
    s.queue.pop_front();
    s.phase = Phase::Busy;
    return Step::compute(syscall_ + opt_.backend_work);
}

Headline WebWorkload::headline(Time elapsed) const
{
    const double secs = elapsed.to_seconds();
    return {"requests/s", secs > 0 ? static_cast<double>(completed_) / secs : 0.0, "req/s", false};
}

namespace {

std::string wrk_duration(std::int64_t ns)
{
    char buf[32];
    if (ns < 1'000'000)
        std::snprintf(buf, sizeof buf, "%.2fus", static_cast<double>(ns) / 1e3);
    else if (ns < 1'000'000'000)
        std::snprintf(buf, sizeof buf, "%.2fms", static_cast<double>(ns) / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.2fs", static_cast<double>(ns) / 1e9);
    return buf;
}

}  // namespace

// wrk's layout, with its --latency distribution (p99.9 added).
std::string WebWorkload::report(Time elapsed) const
{
    const double secs = elapsed.to_seconds();
    std::string out;
    char buf[256];
    std::snprintf(buf, sizeof buf, "Running %s test @ simulated service\n", format_duration(opt_.duration).c_str());
    out += buf;
    std::snprintf(
        buf, sizeof buf, "  %zu acceptors, %zu workers, %zu backends, %s\n", static_cast<std::size_t>(opt_.acceptors),
        first_backend_ - first_worker_, static_cast<std::size_t>(opt_.backends),
        opt_.rate > 0 ? ("open loop at " + std::to_string(static_cast<long long>(opt_.rate)) + " req/s").c_str()
                      : (std::to_string(opt_.clients) + " connections (closed loop)").c_str());
    out += buf;
    out += "  Latency Distribution\n";
    const std::pair<const char*, double> marks[] = {{"50%", 0.5}, {"90%", 0.9}, {"99%", 0.99}, {"99.9%", 0.999}};
    for (const auto& [label, q] : marks) {
        std::snprintf(buf, sizeof buf, "  %6s %10s\n", label, wrk_duration(latency_.percentile(q)).c_str());
        out += buf;
    }
    std::snprintf(buf, sizeof buf, "  %zu requests in %s\n", completed_, wrk_duration(elapsed.ns()).c_str());
    out += buf;
    std::snprintf(buf, sizeof buf, "Requests/sec: %10.2f\n", secs > 0 ? static_cast<double>(completed_) / secs : 0.0);
    out += buf;
    return out;
}

}  // namespace wb

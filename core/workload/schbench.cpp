// SPDX-License-Identifier: Apache-2.0
#include "workload/schbench.h"

#include <algorithm>
#include <cstdio>

#include "engine/kernel.h"

namespace wb {

namespace {

// What passes between a worker and its message thread: the worker's struct
// thread_data, one cache line of it. xlist_add() writes the worker's list
// link there, and xlist_wake_all() reads it and writes wake_time and the
// futex word back, which the woken worker reads.
constexpr std::uint64_t kHandoffBytes = 64;

constexpr std::int64_t kStopTimer = 0;
constexpr std::int64_t kRpsTimer = 1;

}  // namespace

void SchbenchWorkload::setup(Kernel& k)
{
    syscall_ = Time::ns(static_cast<std::int64_t>(k.machine().costs[Cost::syscall]));
    // schbench samples RPS every second; a shorter run gives one sample.
    rps_window_ = std::min(Time::s(1), opt_.runtime);
    for (std::size_t m = 0; m < opt_.message_threads; ++m) {
        const std::size_t mi = threads_.size();
        for (std::size_t w = 0; w <= opt_.workers; ++w) {
            Thread th;
            th.message = w == 0;
            th.owner = mi;
            th.phase = th.message ? Phase::MsgCheck : Phase::Start;
            TaskSpec spec;
            spec.name = th.message ? "schbench-msg" + std::to_string(m)
                                   : "schbench-m" + std::to_string(m) + "-w" + std::to_string(w - 1);
            spec.group = static_cast<int>(m);
            th.task = k.create_task(spec);
            if (static_cast<std::size_t>(th.task) >= thread_of_.size())
                thread_of_.resize(static_cast<std::size_t>(th.task) + 1, SIZE_MAX);
            thread_of_[static_cast<std::size_t>(th.task)] = threads_.size();
            threads_.push_back(th);
        }
    }
    // All threads of one process, created by its main thread on CPU 0.
    for (const Thread& th : threads_)
        k.wake_up_new_task(th.task, 0);
    window_start_ = opt_.warmup;
    k.start_timer(opt_.warmup + rps_window_, kRpsTimer);
    k.start_timer(opt_.warmup + opt_.runtime, kStopTimer);
}

void SchbenchWorkload::on_timer(Kernel& k, std::int64_t token)
{
    if (stopping_)
        return;
    // Whichever of the two timers due at the end fires first closes the
    // last window.
    if (k.now() - window_start_ >= rps_window_) {
        rps_.record(static_cast<std::int64_t>(static_cast<double>(window_requests_) / rps_window_.to_seconds() + 0.5));
        window_requests_ = 0;
        window_start_ = k.now();
    }
    if (token == kStopTimer) {
        stopping_ = true;
        return;
    }
    if (k.now() + rps_window_ <= opt_.warmup + opt_.runtime)
        k.start_timer(k.now() + rps_window_, kRpsTimer);
}

bool SchbenchWorkload::measuring(const Kernel& k) const
{
    return k.now() >= opt_.warmup;
}

Step SchbenchWorkload::next_step(Kernel& k, TaskId t)
{
    Thread& th = threads_[thread_of_[static_cast<std::size_t>(t)]];
    if (stopping_)
        return Step::exit();
    return th.message ? message_step(k, th) : worker_step(k, th);
}

Step SchbenchWorkload::worker_step(Kernel& k, Thread& w)
{
    switch (w.phase) {
    case Phase::Waiting:
        // Woken by the message thread: the request starts, with a look at
        // the wake_time it stored.
        k.note_data_read(kHandoffBytes, w.stamped_on);
        if (measuring(k) && w.wake_time >= opt_.warmup)
            wakeup_.record((k.now() - w.wake_time).ns());
        w.phase = Phase::Working;
        return Step::compute(opt_.work);
    case Phase::Working:
        if (measuring(k) && w.wake_time >= opt_.warmup) {
            request_.record((k.now() - w.wake_time).ns());
            ++requests_;
            ++window_requests_;
        }
        [[fallthrough]];
    case Phase::Start:
        // The futex post to the message thread.
        w.phase = Phase::Posted;
        return Step::compute(syscall_);
    case Phase::Posted: {
        Thread& m = threads_[w.owner];
        m.list.push_back(static_cast<std::size_t>(&w - threads_.data()));
        w.posted_on = k.task_cpu(w.task);
        if (m.phase == Phase::MsgBlocked) {
            m.phase = Phase::MsgCheck;
            k.wake_up(m.task, 0);
        }
        w.phase = Phase::Waiting;
        return Step::block();
    }
    default:
        break;
    }
    return Step::exit();
}

Step SchbenchWorkload::message_step(Kernel& k, Thread& m)
{
    if (m.phase == Phase::MsgWaking) {
        Thread& w = threads_[m.waking];
        k.wake_up(w.task, 0);
        m.woke_any = true;
    }
    if (m.phase == Phase::MsgNapping)
        m.woke_any = false;
    if (!m.list.empty()) {
        // schbench stamps the worker's wake time just before its futex wake.
        m.waking = m.list.front();
        m.list.erase(m.list.begin());
        Thread& w = threads_[m.waking];
        k.note_data_read(kHandoffBytes, w.posted_on);
        w.wake_time = k.now();
        w.stamped_on = k.task_cpu(m.task);
        m.phase = Phase::MsgWaking;
        return Step::compute(syscall_);
    }
    if (m.woke_any) {
        m.phase = Phase::MsgNapping;
        return Step::sleep(opt_.sleep);
    }
    m.phase = Phase::MsgBlocked;
    return Step::block();
}

Headline SchbenchWorkload::headline(Time elapsed) const
{
    (void)elapsed;
    return {"p99 wakeup latency", static_cast<double>(wakeup_.percentile(0.99)) / 1e3, "us", true};
}

namespace {

// schbench's show_latencies(): each line gives the percentile's value and the
// samples between it and the previous line's percentile; the starred line is
// the one schbench highlights.
void show(std::string& out, const char* title, const char* unit, double runtime_s, const Histogram& h,
          const std::vector<double>& pcts, double star, double scale)
{
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s percentiles (%s) runtime %g (s) (%llu total samples)\n", title, unit, runtime_s,
                  static_cast<unsigned long long>(h.count()));
    out += buf;
    double prev = 0;
    for (double p : pcts) {
        const auto samples = static_cast<unsigned long long>((p - prev) / 100.0 * static_cast<double>(h.count()) + 0.5);
        const auto value = static_cast<long long>(static_cast<double>(h.percentile(p / 100.0)) / scale + 0.5);
        std::snprintf(buf, sizeof buf, "\t%s%.1fth: %-10lld (%llu samples)\n", p == star ? "* " : "  ", p, value,
                      samples);
        out += buf;
        prev = p;
    }
    std::snprintf(buf, sizeof buf, "\t  min=%lld, max=%lld\n",
                  static_cast<long long>(static_cast<double>(h.min()) / scale + 0.5),
                  static_cast<long long>(static_cast<double>(h.max()) / scale + 0.5));
    out += buf;
}

}  // namespace

std::string SchbenchWorkload::report(Time elapsed) const
{
    (void)elapsed;
    const double runtime_s = opt_.runtime.to_seconds();
    std::string out;
    show(out, "Wakeup Latencies", "usec", runtime_s, wakeup_, {50.0, 90.0, 99.0, 99.9}, 99.0, 1e3);
    show(out, "Request Latencies", "usec", runtime_s, request_, {50.0, 90.0, 99.0, 99.9}, 99.0, 1e3);
    show(out, "RPS", "requests", runtime_s, rps_, {20.0, 50.0, 90.0}, 50.0, 1.0);
    char buf[64];
    std::snprintf(buf, sizeof buf, "average rps: %.2f\n",
                  runtime_s > 0 ? static_cast<double>(requests_) / runtime_s : 0.0);
    out += buf;
    return out;
}

}  // namespace wb

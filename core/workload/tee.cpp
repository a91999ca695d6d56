// SPDX-License-Identifier: Apache-2.0
#include "workload/tee.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/kernel.h"
#include "topology/sd_flags.h"

namespace wb {

namespace {

constexpr std::int64_t kTimeoutTimer = 0;
constexpr int W = 0, T = 1, R = 2;  // the roles, as indices

}  // namespace

void TeeWorkload::setup(Kernel& k)
{
    const Machine& m = k.machine();
    syscall_ = Time::ns(static_cast<std::int64_t>(m.costs[Cost::syscall]));
    transfer_ = Time::ns(static_cast<std::int64_t>(m.costs[Cost::pipe_transfer]));
    const std::size_t n = opt_.instances ? opt_.instances : static_cast<std::size_t>(m.nr_cpus());
    inst_.assign(n, Instance{});
    // stress-ng forks one stressor process per instance from its main
    // process; each stressor forks its writer and reader.
    for (std::size_t i = 0; i < n; ++i) {
        Instance& in = inst_[i];
        const std::string suffix = "-" + std::to_string(i);
        TaskId* ids[3] = {&in.writer, &in.teer, &in.reader};
        const char* names[3] = {"stress-ng-tee-writer", "stress-ng-tee", "stress-ng-tee-reader"};
        for (int r = 0; r < 3; ++r) {
            TaskSpec spec;
            spec.name = names[r] + suffix;
            spec.group = static_cast<int>(i);
            *ids[r] = k.create_task(spec);
            if (static_cast<std::size_t>(*ids[r]) >= owner_.size())
                owner_.resize(static_cast<std::size_t>(*ids[r]) + 1);
            owner_[static_cast<std::size_t>(*ids[r])] = {i, static_cast<Role>(r)};
        }
    }
    for (Instance& in : inst_) {
        k.wake_up_new_task(in.teer, 0);
        k.wake_up_new_task(in.writer, 0);
        k.wake_up_new_task(in.reader, 0);
    }
    k.start_timer(opt_.timeout, kTimeoutTimer);
}

void TeeWorkload::on_timer(Kernel& k, std::int64_t token)
{
    (void)k;
    if (token == kTimeoutTimer)
        timed_out_ = true;
}

// A pipe copy: pipe_transfer for the bookkeeping and once per 4 KiB page,
// as hackbench's pipe mode.
Time TeeWorkload::copy_cost(std::uint64_t bytes) const
{
    return Time::ns(std::llround(static_cast<double>(transfer_.ns()) * (1.0 + static_cast<double>(bytes) / 4096.0)));
}

Step TeeWorkload::next_step(Kernel& k, TaskId t)
{
    const Owner& o = owner_[static_cast<std::size_t>(t)];
    Instance& in = inst_[o.instance];
    Step s = Step::exit();
    switch (o.role) {
    case Role::Writer:
        s = writer_step(k, in);
        break;
    case Role::Teer:
        s = teer_step(k, in);
        break;
    case Role::Reader:
        s = reader_step(k, in);
        break;
    }
    if (s.kind == Step::Kind::Compute)
        cpu_time_ += s.time;
    return s;
}

// write(A, size): copies what fits, sleeps while A is full, returns once
// all of it is in.
Step TeeWorkload::writer_step(Kernel& k, Instance& in)
{
    Phase& phase = in.phase[static_cast<int>(Role::Writer)];
    Time entry;
    if (phase == Phase::Writing) {
        in.a.bytes += in.chunk[W];
        in.write_left -= in.chunk[W];
        if (in.a.reader_waiting != kNoTask) {
            const TaskId teer = in.a.reader_waiting;
            in.a.reader_waiting = kNoTask;
            k.wake_up(teer, WF_SYNC);  // pipe_write()
        }
    }
    if (in.write_left == 0) {
        in.write_left = opt_.size;
        entry = syscall_;
    }
    const std::uint64_t room = kTeePipeBytes - in.a.bytes;
    if (room == 0) {
        in.a.writer_waiting = in.writer;
        phase = Phase::Blocked;
        return Step::block();
    }
    in.chunk[W] = std::min(room, in.write_left);
    phase = Phase::Writing;
    return Step::compute(entry + copy_cost(in.chunk[W]));
}

// The stressor's loop: len = tee(A, B, INT_MAX, 0); splice(A, /dev/null,
// len); one bogo op. tee() waits for data in A and for room in B; it moves
// buffer references, no data, and so does the splice to /dev/null.
Step TeeWorkload::teer_step(Kernel& k, Instance& in)
{
    Phase& phase = in.phase[static_cast<int>(Role::Teer)];
    if (phase == Phase::Teeing) {
        in.b.bytes += in.chunk[T];
        in.tee_len = in.chunk[T];
        if (in.b.reader_waiting != kNoTask) {
            const TaskId reader = in.b.reader_waiting;
            in.b.reader_waiting = kNoTask;
            k.wake_up(reader, 0);  // wakeup_pipe_readers()
        }
        phase = Phase::Splicing;
        return Step::compute(syscall_ + transfer_);
    }
    if (phase == Phase::Splicing) {
        in.a.bytes -= in.tee_len;
        if (in.a.writer_waiting != kNoTask) {
            const TaskId writer = in.a.writer_waiting;
            in.a.writer_waiting = kNoTask;
            k.wake_up(writer, 0);  // wakeup_pipe_writers()
        }
        ++in.bogo_ops;
        if (opt_.ops && in.bogo_ops >= opt_.ops) {
            in.finished = true;
            ++finished_;
            phase = Phase::Idle;
            return Step::exit();
        }
    }
    if (in.a.bytes == 0) {
        in.a.reader_waiting = in.teer;
        phase = Phase::Blocked;
        return Step::block();
    }
    if (in.b.bytes == kTeePipeBytes) {
        in.b.writer_waiting = in.teer;
        phase = Phase::Blocked;
        return Step::block();
    }
    in.chunk[T] = std::min(in.a.bytes, kTeePipeBytes - in.b.bytes);
    phase = Phase::Teeing;
    return Step::compute(syscall_ + transfer_);
}

// read(B, size): returns what B holds, up to size; sleeps while B is empty.
Step TeeWorkload::reader_step(Kernel& k, Instance& in)
{
    Phase& phase = in.phase[static_cast<int>(Role::Reader)];
    if (phase == Phase::Reading) {
        in.b.bytes -= in.chunk[R];
        in.read_bytes += in.chunk[R];
        if (in.b.writer_waiting != kNoTask) {
            const TaskId teer = in.b.writer_waiting;
            in.b.writer_waiting = kNoTask;
            k.wake_up(teer, WF_SYNC);  // pipe_read()
        }
    }
    if (in.b.bytes == 0) {
        in.b.reader_waiting = in.reader;
        phase = Phase::Blocked;
        return Step::block();
    }
    in.chunk[R] = std::min(in.b.bytes, opt_.size);
    phase = Phase::Reading;
    return Step::compute(syscall_ + copy_cost(in.chunk[R]));
}

double TeeWorkload::ops() const
{
    std::uint64_t sum = 0;
    for (const Instance& in : inst_)
        sum += in.bogo_ops;
    return static_cast<double>(sum);
}

std::uint64_t TeeWorkload::bytes_read() const
{
    std::uint64_t sum = 0;
    for (const Instance& in : inst_)
        sum += in.read_bytes;
    return sum;
}

Headline TeeWorkload::headline(Time elapsed) const
{
    const double secs = elapsed.to_seconds();
    return {"bogo ops/s", secs > 0 ? ops() / secs : 0.0, "ops/s", false};
}

// stress-ng's metrics table. All the modelled work is in system calls, so
// it is sys time; usr time (the stressor's own loop) is not modelled.
std::string TeeWorkload::report(Time elapsed) const
{
    const double real = elapsed.to_seconds();
    const double sys = cpu_time_.to_seconds();
    const double rate_real = real > 0 ? ops() / real : 0.0;
    const double rate_cpu = sys > 0 ? ops() / sys : 0.0;
    const char* p = "stress-ng: info:  [1]";
    char buf[1024];
    std::snprintf(buf, sizeof buf,
                  "%s dispatching hogs: %zu tee\n"
                  "%s %-13s %9.9s %9.9s %9.9s %9.9s %12s %14s\n"
                  "%s %-13s %9.9s %9.9s %9.9s %9.9s %12s %14s\n"
                  "%s %-13s %9.0f %9.2f %9.2f %9.2f %12.2f %14.2f\n"
                  "%s successful run completed in %.2f secs\n",
                  p, inst_.size(), p, "stressor", "bogo ops", "real time", "usr time", "sys time", "bogo ops/s",
                  "bogo ops/s", p, "", "", "(secs) ", "(secs) ", "(secs) ", "(real time)", "(usr+sys time)", p, "tee",
                  ops(), real, 0.0, sys, rate_real, rate_cpu, p, real);
    return buf;
}

}  // namespace wb

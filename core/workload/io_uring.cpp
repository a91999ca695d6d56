// SPDX-License-Identifier: Apache-2.0
#include "workload/io_uring.h"

#include <cstdio>

#include "engine/kernel.h"
#include "topology/sd_flags.h"
#include "workload/workload_params.h"

namespace wb {

namespace {

// The CPU the task runs on, or `fallback` before its first placement.
CpuId task_cpu_of(const Kernel& k, TaskId t, CpuId fallback)
{
    if (const CpuId cpu = k.task_cpu(t); cpu != kNoCpu)
        return cpu;
    return fallback;
}

}  // namespace

void IoUringWorkload::setup(Kernel& k)
{
    const Machine& m = k.machine();
    syscall_ = Time::ns(static_cast<std::int64_t>(m.costs[Cost::syscall]));
    // Posting a CQE and waking its waiter is wait-queue bookkeeping of the
    // same kind as a small pipe transfer: the closest cost the model has.
    handling_ = Time::ns(static_cast<std::int64_t>(m.costs[Cost::pipe_transfer]));

    const int nr = m.nr_cpus();
    const std::size_t n = opt_.instances ? opt_.instances : static_cast<std::size_t>(nr);
    // The kworkers exist before the stressor starts, each asleep on its CPU.
    completers_.resize(static_cast<std::size_t>(nr));
    for (CpuId cpu = 0; cpu < nr; ++cpu) {
        TaskSpec spec;
        spec.name = "kworker/" + std::to_string(cpu) + ":1H";
        spec.group = 1;
        spec.cpus_allowed = CpuMask::of(nr, {cpu});
        spec.kthread = true;
        const TaskId t = k.create_task(spec);
        completers_[static_cast<std::size_t>(cpu)].task = t;
        if (kworker_cpu_.size() <= static_cast<std::size_t>(t))
            kworker_cpu_.resize(static_cast<std::size_t>(t) + 1, kNoCpu);
        kworker_cpu_[static_cast<std::size_t>(t)] = cpu;
        k.wake_up_new_task(t, cpu);
    }
    instances_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        TaskSpec spec;
        spec.name = "stress-ng-io-uring-" + std::to_string(i);
        spec.group = 0;
        const TaskId t = k.create_task(spec);
        instances_[i].task = t;
        if (instance_of_.size() <= static_cast<std::size_t>(t))
            instance_of_.resize(static_cast<std::size_t>(t) + 1, SIZE_MAX);
        instance_of_[static_cast<std::size_t>(t)] = i;
    }
    // stress-ng forks its instances from the parent on CPU 0.
    for (const Instance& in : instances_)
        k.wake_up_new_task(in.task, 0);
}

Step IoUringWorkload::next_step(Kernel& k, TaskId t)
{
    const auto idx = static_cast<std::size_t>(t);
    if (idx < instance_of_.size() && instance_of_[idx] != SIZE_MAX)
        return instance_step(k, instances_[instance_of_[idx]]);
    return kworker_step(k, completers_[static_cast<std::size_t>(kworker_cpu_[idx])]);
}

Step IoUringWorkload::instance_step(Kernel& k, Instance& in)
{
    switch (in.phase) {
    case Phase::Waiting:
        // Woken by the kworker: the completion is reaped on return from
        // io_uring_enter(), one bogo op.
        ++in.ops;
        [[fallthrough]];
    case Phase::Submit:
        if ((opt_.ops && in.ops >= opt_.ops) || k.now() >= opt_.timeout) {
            in.phase = Phase::Exited;
            ++exited_;
            return Step::exit();
        }
        in.phase = Phase::Submitted;
        in.cpu_time += syscall_ + opt_.work;
        return Step::compute(syscall_ + opt_.work);
    case Phase::Submitted: {
        // The request reaches the device now; it will interrupt the CPU
        // that submitted it.
        const auto i = static_cast<std::size_t>(&in - instances_.data());
        in.submit_cpu = task_cpu_of(k, in.task, static_cast<CpuId>(i % completers_.size()));
        in.phase = Phase::Waiting;
        k.start_timer(k.now() + opt_.latency, static_cast<std::int64_t>(i));
        return Step::block();
    }
    case Phase::Exited:
        break;
    }
    return Step::exit();
}

void IoUringWorkload::on_timer(Kernel& k, std::int64_t token)
{
    const Instance& in = instances_[static_cast<std::size_t>(token)];
    Completer& c = completers_[static_cast<std::size_t>(in.submit_cpu)];
    c.queue.push_back(static_cast<std::size_t>(token));
    // The interrupt handler only queues work; a kworker already awake will
    // find it in its queue.
    if (c.sleeping) {
        c.sleeping = false;
        k.wake_up_from_irq(c.task, in.submit_cpu, 0);
    }
}

Step IoUringWorkload::kworker_step(Kernel& k, Completer& c)
{
    if (c.handling != SIZE_MAX) {
        // A workqueue wakeup is a plain wake_up_process(): not sync.
        k.wake_up(instances_[c.handling].task, 0);
        c.handling = SIZE_MAX;
    }
    if (c.queue.empty()) {
        c.sleeping = true;
        return Step::block();
    }
    c.handling = c.queue.front();
    c.queue.erase(c.queue.begin());
    return Step::compute(handling_);
}

std::uint64_t IoUringWorkload::total_ops() const
{
    std::uint64_t n = 0;
    for (const Instance& in : instances_)
        n += in.ops;
    return n;
}

Headline IoUringWorkload::headline(Time elapsed) const
{
    const double secs = elapsed.to_seconds();
    return {"bogo ops/s", secs > 0 ? static_cast<double>(total_ops()) / secs : 0.0, "ops/s", false};
}

// stress-ng's --metrics layout. The simulated stressor runs in the kernel
// (the system call and the submission work), so its CPU time is sys time.
std::string IoUringWorkload::report(Time elapsed) const
{
    const double secs = elapsed.to_seconds();
    double cpu = 0;
    for (const Instance& in : instances_)
        cpu += in.cpu_time.to_seconds();
    const double ops = static_cast<double>(total_ops());
    const double n = static_cast<double>(instances_.size());
    char buf[1024];
    std::snprintf(buf, sizeof buf,
                  "stress-ng: info:  [1] dispatching hogs: %zu io-uring\n"
                  "stress-ng: metrc: [1] stressor       bogo ops real time  usr time  sys time   bogo ops/s     bogo "
                  "ops/s CPU used per\n"
                  "stress-ng: metrc: [1]                           (secs)    (secs)    (secs)   (real time) (usr+sys "
                  "time) instance (%%)\n"
                  "stress-ng: metrc: [1] io-uring   %12.0f %9.2f %9.2f %9.2f %12.2f %14.2f %12.2f\n"
                  "stress-ng: info:  [1] successful run completed in %.2f secs\n",
                  instances_.size(), ops, secs, 0.0, cpu, secs > 0 ? ops / secs : 0.0, cpu > 0 ? ops / cpu : 0.0,
                  secs > 0 && n > 0 ? 100.0 * cpu / (secs * n) : 0.0, secs);
    return buf;
}

}  // namespace wb

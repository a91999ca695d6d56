// SPDX-License-Identifier: Apache-2.0
#include "workload/os_noise.h"

#include <cmath>
#include <string>

#include "engine/kernel.h"
#include "topology/machine.h"

namespace wb {

namespace {

// Timer tokens of the inner workload are never negative; the noise's are
// -(cpu + 1).
std::int64_t token_of(CpuId cpu)
{
    return -static_cast<std::int64_t>(cpu) - 1;
}

}  // namespace

OsNoise::OsNoise(std::unique_ptr<Workload> inner, Time mean_interval, Time burst)
    : inner_(std::move(inner)), mean_interval_(mean_interval), burst_(burst)
{
}

std::unique_ptr<Workload> OsNoise::wrap(std::unique_ptr<Workload> inner, const Machine& machine)
{
    const auto interval = static_cast<std::int64_t>(machine.costs[Cost::os_noise_interval]);
    const auto burst = static_cast<std::int64_t>(machine.costs[Cost::os_noise_burst]);
    if (interval <= 0 || burst <= 0)
        return inner;
    return std::make_unique<OsNoise>(std::move(inner), Time::ns(interval), Time::ns(burst));
}

void OsNoise::setup(Kernel& k)
{
    inner_->setup(k);
    rng_ = Rng(k.rng().next());
    const int nr_cpus = k.machine().nr_cpus();
    kworkers_.resize(static_cast<std::size_t>(nr_cpus));
    for (CpuId cpu = 0; cpu < nr_cpus; ++cpu) {
        TaskSpec spec;
        spec.name = "kworker/" + std::to_string(cpu);
        spec.kthread = true;
        spec.cpus_allowed = CpuMask(nr_cpus);
        spec.cpus_allowed.set(cpu);
        const TaskId t = k.create_task(spec);
        kworkers_[static_cast<std::size_t>(cpu)].task = t;
        if (kworker_cpu_.size() <= static_cast<std::size_t>(t))
            kworker_cpu_.resize(static_cast<std::size_t>(t) + 1, kNoCpu);
        kworker_cpu_[static_cast<std::size_t>(t)] = cpu;
        arm(k, cpu);
    }
}

// The next burst on `cpu` after an exponentially distributed gap.
void OsNoise::arm(Kernel& k, CpuId cpu)
{
    const double u = rng_.uniform();
    const auto gap = static_cast<std::int64_t>(-std::log1p(-u) * static_cast<double>(mean_interval_.ns()));
    k.start_timer(k.now() + Time::ns(gap), token_of(cpu));
}

void OsNoise::on_timer(Kernel& k, std::int64_t token)
{
    if (token >= 0) {
        inner_->on_timer(k, token);
        return;
    }
    const auto cpu = static_cast<CpuId>(-token - 1);
    Kworker& w = kworkers_[static_cast<std::size_t>(cpu)];
    // A burst that finds the previous one still running merges into it, as
    // queued work does with a kworker that is already awake.
    k.wake_up_from_irq(w.task, cpu, 0);
    arm(k, cpu);
}

Step OsNoise::next_step(Kernel& k, TaskId t)
{
    const auto i = static_cast<std::size_t>(t);
    if (i >= kworker_cpu_.size() || kworker_cpu_[i] == kNoCpu)
        return inner_->next_step(k, t);
    Kworker& w = kworkers_[static_cast<std::size_t>(kworker_cpu_[i])];
    w.burst_done = !w.burst_done;
    return w.burst_done ? Step::compute(burst_) : Step::block();
}

}  // namespace wb

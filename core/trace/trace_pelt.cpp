// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_pelt.h"

#include <algorithm>

#include "sched/eevdf.h"

namespace wb {

namespace {

// scale_load_down(NICE_0_LOAD): the weight of every traced task.
constexpr unsigned long kNice0Weight = 1024;

template <typename T>
void sub_floor(T& total, T part)
{
    total = total > part ? total - part : 0;
}

// A task's contribution leaves one CPU's signals (detach_entity_load_avg)...
void detach(SchedAvg& cpu, const SchedAvg& task)
{
    sub_floor(cpu.load_avg, task.load_avg);
    sub_floor(cpu.load_sum, task.load_sum);
    sub_floor(cpu.runnable_avg, task.runnable_avg);
    sub_floor(cpu.runnable_sum, task.runnable_sum);
    sub_floor(cpu.util_avg, task.util_avg);
    sub_floor(cpu.util_sum, task.util_sum);
}

// ... and joins another's (attach_entity_load_avg), from then on decaying
// on that CPU's clock: its sums are rebuilt from its averages on the CPU's
// position in the current period, as the kernel rebuilds them.
void attach(SchedAvg& cpu, SchedAvg& task)
{
    task.last_update_time = cpu.last_update_time;
    task.period_contrib = cpu.period_contrib;
    const std::uint32_t divider = kLoadAvgMax - 1024 + cpu.period_contrib;  // get_pelt_divider()
    task.util_sum = static_cast<std::uint32_t>(task.util_avg * divider);
    task.runnable_sum = static_cast<std::uint64_t>(task.runnable_avg) * divider;
    task.load_sum = std::max<std::uint64_t>(static_cast<std::uint64_t>(task.load_avg) * divider, kNice0Weight);
    cpu.load_avg += task.load_avg;
    cpu.load_sum += task.load_sum;
    cpu.runnable_avg += task.runnable_avg;
    cpu.runnable_sum += task.runnable_sum;
    cpu.util_avg += task.util_avg;
    cpu.util_sum += task.util_sum;
}

}  // namespace

TracePelt::TracePelt(int nr_cpus) : cpus_(static_cast<std::size_t>(nr_cpus)) {}

const SchedAvg& TracePelt::task(int index) const
{
    static const SchedAvg kNone;
    return index >= 0 && static_cast<std::size_t>(index) < tasks_.size() ? tasks_[static_cast<std::size_t>(index)].avg
                                                                         : kNone;
}

unsigned long TracePelt::cpu_util(int cpu, long capacity) const
{
    const SchedAvg& a = this->cpu(cpu);
    return std::min<unsigned long>(std::max<unsigned long>(a.util_avg, a.util_est),
                                   static_cast<unsigned long>(std::max(capacity, 0L)));
}

void TracePelt::bring_cpu(int cpu, std::uint64_t now)
{
    CpuSignals& c = cpus_[static_cast<std::size_t>(cpu)];
    // A CPU's history begins at its first event: no decay from time zero.
    if (c.avg.last_update_time == 0) {
        c.avg.last_update_time = now;
        return;
    }
    update_sched_avg(c.avg, now, c.nr_running * kNice0Weight, c.nr_running, c.busy ? 1 : 0);
}

void TracePelt::take_cpu(const TraceState& state, int cpu, std::uint64_t now)
{
    if (cpu < 0 || cpu >= static_cast<int>(cpus_.size()))
        return;
    const TraceCpu& t = state.cpus()[static_cast<std::size_t>(cpu)];
    bring_cpu(cpu, now);
    CpuSignals& c = cpus_[static_cast<std::size_t>(cpu)];
    c.nr_running = static_cast<unsigned int>(std::max(t.nr_running, 0));
    c.busy = t.curr >= 0;
}

void TracePelt::take_task(const TraceState& state, int index, std::uint64_t now)
{
    if (index < 0)
        return;
    if (static_cast<std::size_t>(index) >= tasks_.size())
        tasks_.resize(static_cast<std::size_t>(index) + 1);
    const TraceTask& t = state.task(index);
    TaskSignals& sig = tasks_[static_cast<std::size_t>(index)];
    const Accounted now_as{t.queued_on >= 0, t.queued_on >= 0 && t.state == TraceTaskState::Running, t.cpu};
    const Accounted& was = sig.as;
    if (now_as.queued == was.queued && now_as.running == was.running && now_as.cpu == was.cpu)
        return;

    SchedAvg& avg = sig.avg;
    if (avg.last_update_time == 0 && !t.before_trace && now_as.cpu >= 0) {
        // A fork: init_entity_runnable_average() makes it heavy until proven
        // otherwise, and post_init_entity_util_avg() gives it half of its
        // CPU's spare capacity, scaled by its share of the CPU's load.
        const SchedAvg& c = cpus_[static_cast<std::size_t>(now_as.cpu)].avg;
        avg.load_avg = kNice0Weight;
        const long spare = (1024 - static_cast<long>(c.util_avg)) / 2;
        if (spare > 0)
            avg.util_avg = c.util_avg ? std::min<unsigned long>(c.util_avg * kNice0Weight / (c.load_avg + 1),
                                                                static_cast<unsigned long>(spare))
                                      : static_cast<unsigned long>(spare);
        avg.runnable_avg = avg.util_avg;
    }
    if (avg.last_update_time == 0)
        avg.last_update_time = now;
    else
        update_sched_avg(avg, now, was.queued ? kNice0Weight : 0, was.queued ? 1 : 0, was.running ? 1 : 0);

    // util_est: a queued task's estimate is part of its CPU's; a task that
    // blocks learns from the activation that ended (util_est_update()).
    if (was.queued && was.cpu >= 0)
        sub_floor(cpus_[static_cast<std::size_t>(was.cpu)].avg.util_est, avg.util_est);
    if (was.queued && !now_as.queued)
        util_est_update(avg);
    if (now_as.cpu != was.cpu) {
        if (was.cpu >= 0) {
            bring_cpu(was.cpu, now);
            detach(cpus_[static_cast<std::size_t>(was.cpu)].avg, avg);
        }
        if (now_as.cpu >= 0) {
            bring_cpu(now_as.cpu, now);
            attach(cpus_[static_cast<std::size_t>(now_as.cpu)].avg, avg);
        }
    }
    if (now_as.queued && now_as.cpu >= 0)
        cpus_[static_cast<std::size_t>(now_as.cpu)].avg.util_est += avg.util_est;
    sig.as = now_as;
}

void TracePelt::after_event(const TraceState& state, const TraceEvent& ev, int curr_before)
{
    if (ev.kind == TraceEventKind::LostEvents)
        return;
    const std::uint64_t now = static_cast<std::uint64_t>(std::max<std::int64_t>(ev.ts, 0)) + kPeltClockOffset;
    for (int cpu : {ev.cpu, ev.target_cpu, ev.orig_cpu, ev.dest_cpu})
        take_cpu(state, cpu, now);
    take_task(state, curr_before, now);
    for (int pid : {ev.common_pid, ev.pid, ev.prev_pid})
        if (pid != 0)
            take_task(state, state.find_task(pid), now);
}

}  // namespace wb

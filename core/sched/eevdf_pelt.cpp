// SPDX-License-Identifier: Apache-2.0
//
// The EEVDF fair runqueue's PELT glue: attach and detach (update_load_avg
// itself is inline in eevdf_internal.h), removal on migration,
// migrate_task_rq_fair / set_task_cpu / move_queued_task_fair /
// task_dead_fair, and the initial and runqueue-level averages. Where the
// model differs from the kernel is noted in eevdf_internal.h.
#include <algorithm>
#include <stdexcept>

#include "sched/eevdf.h"
#include "sched/eevdf_internal.h"

namespace wb {

using namespace eevdf_detail;

namespace {

constexpr std::uint32_t kPeltMinDivider = kLoadAvgMax - 1024;

// sub_positive(): rounding must never take an average below zero.
template <typename T>
void sub_positive(T& value, std::uint64_t sub)
{
    value = value > sub ? static_cast<T>(value - sub) : T{0};
}

// Rounding in the sums must never leave an average with no sum behind it.
void clamp_sums(SchedAvg& sa)
{
    sa.load_sum = std::max<std::uint64_t>(sa.load_sum, static_cast<std::uint64_t>(sa.load_avg) * kPeltMinDivider);
    sa.util_sum = std::max<std::uint32_t>(sa.util_sum, static_cast<std::uint32_t>(sa.util_avg * kPeltMinDivider));
    sa.runnable_sum =
        std::max<std::uint64_t>(sa.runnable_sum, static_cast<std::uint64_t>(sa.runnable_avg) * kPeltMinDivider);
}

std::uint32_t pelt_divider(const SchedAvg& sa)
{
    return kPeltMinDivider + sa.period_contrib;
}

// remove_entity_load_avg(): a task leaving for another CPU takes its
// contribution, as of the runqueue's last update, with it.
void remove_entity_load_avg(SchedState& s, CpuId cpu, TaskId id)
{
    CfsRq& cfs = s.rq(cpu).cfs;
    SchedEntity& se = se_of(s, id);
    update_cfs_rq_load_avg(s, cpu);

    if (!se.avg.last_update_time)
        return;  // never attached here: nothing to take away
    SchedAvg synced = se.avg;
    update_sched_avg(synced, cfs.avg.last_update_time, 0, 0, 0);

    const std::uint32_t divider = pelt_divider(cfs.avg);
    sub_positive(cfs.avg.load_avg, synced.load_avg);
    sub_positive(cfs.avg.load_sum, static_cast<std::uint64_t>(synced.load_avg) * divider);
    sub_positive(cfs.avg.util_avg, synced.util_avg);
    sub_positive(cfs.avg.util_sum, static_cast<std::uint64_t>(synced.util_avg) * divider);
    sub_positive(cfs.avg.runnable_avg, synced.runnable_avg);
    sub_positive(cfs.avg.runnable_sum, static_cast<std::uint64_t>(synced.runnable_avg) * divider);
    clamp_sums(cfs.avg);

    // ATTACH_AGE_LOAD: the task arrives with its sleep accounted for
    // (migrate_se_pelt_lag()), aged on the old runqueue's PELT clock as of
    // now; attach_entity_load_avg() then moves it onto the new one's. The
    // kernel estimates that clock from the time the old CPU went idle and
    // skips the aging when it is busy (its last update is recent then); the
    // model knows the clock exactly. Without the feature the task attaches
    // with the averages of its last update.
    if (s.feats(Feat::ATTACH_AGE_LOAD)) {
        update_sched_avg(synced, rq_clock_pelt(s, s.rq(cpu)), 0, 0, 0);
        se.avg = synced;
    }
}

}  // namespace

namespace eevdf_detail {

// attach_entity_load_avg(): a task arriving on a runqueue brings its
// averages; its sums are rebuilt on the runqueue's period position.
void attach_entity_load_avg(CfsRq& cfs, SchedEntity& se)
{
    SchedAvg& sa = se.avg;
    const std::uint32_t divider = pelt_divider(cfs.avg);
    sa.last_update_time = cfs.avg.last_update_time;
    sa.period_contrib = cfs.avg.period_contrib;
    sa.util_sum = static_cast<std::uint32_t>(sa.util_avg * divider);
    sa.runnable_sum = static_cast<std::uint64_t>(sa.runnable_avg) * divider;
    const std::uint64_t load_sum = static_cast<std::uint64_t>(sa.load_avg) * divider;
    sa.load_sum = se.weight < load_sum ? load_sum / se.weight * se.weight : se.weight;

    cfs.avg.load_avg += sa.load_avg;
    cfs.avg.load_sum += sa.load_sum;
    cfs.avg.util_avg += sa.util_avg;
    cfs.avg.util_sum += sa.util_sum;
    cfs.avg.runnable_avg += sa.runnable_avg;
    cfs.avg.runnable_sum += sa.runnable_sum;
    clamp_sums(cfs.avg);
}

void detach_entity_load_avg(CfsRq& cfs, const SchedEntity& se)
{
    sub_positive(cfs.avg.load_avg, se.avg.load_avg);
    sub_positive(cfs.avg.load_sum, se.avg.load_sum);
    sub_positive(cfs.avg.util_avg, se.avg.util_avg);
    sub_positive(cfs.avg.util_sum, se.avg.util_sum);
    sub_positive(cfs.avg.runnable_avg, se.avg.runnable_avg);
    sub_positive(cfs.avg.runnable_sum, se.avg.runnable_sum);
    clamp_sums(cfs.avg);
}

}  // namespace eevdf_detail

// --- Migration -----------------------------------------------------------------------

void migrate_task_rq_fair(SchedState& s, TaskId pid, CpuId new_cpu)
{
    Task& p = task_of(s, pid);
    SchedEntity& se = p.se;
    (void)new_cpu;  // the new runqueue is only touched at enqueue (attach)
    if (p.cpu == kNoCpu) {
        se.avg.last_update_time = 0;
        return;
    }
    if (se.on_rq) {
        if (!se.sched_delayed)
            throw std::logic_error("migrate_task_rq_fair: task " + std::to_string(pid) +
                                   " is queued; dequeue it (or use move_queued_task_fair) first");
        dequeue_task_fair(s, p.cpu, pid, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
    }
    if (s.rq(p.cpu).cfs.curr == pid)
        throw std::logic_error("migrate_task_rq_fair: task " + std::to_string(pid) + " is still current on CPU " +
                               std::to_string(p.cpu) + "; switch it out first");
    remove_entity_load_avg(s, p.cpu, pid);
    se.avg.last_update_time = 0;  // attach on the new runqueue
    se.exec_start = 0;
}

void task_dead_fair(SchedState& s, TaskId pid)
{
    Task& p = task_of(s, pid);
    if (p.cpu == kNoCpu)
        return;
    if (p.se.on_rq && p.se.sched_delayed)
        dequeue_task_fair(s, p.cpu, pid, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
    if (p.se.on_rq || s.rq(p.cpu).cfs.curr == pid)
        throw std::logic_error("task_dead_fair: task " + std::to_string(pid) + " is still queued or current on CPU " +
                               std::to_string(p.cpu));
    remove_entity_load_avg(s, p.cpu, pid);
    p.se.avg.last_update_time = 0;
}

[[gnu::hot]] void set_task_cpu(SchedState& s, TaskId pid, CpuId new_cpu)
{
    Task& p = task_of(s, pid);
    if (p.cpu != new_cpu) {
        migrate_task_rq_fair(s, pid, new_cpu);
        // A blocked task asleep in io_schedule() counts where it is: the
        // wakeup path ends that sleep before moving it, so only a delayed
        // sleeper that load balancing moves gets here, its count with it.
        if (p.in_iowait && p.cpu != kNoCpu && !p.se.on_rq) [[unlikely]] {
            --s.rq(p.cpu).nr_iowait;
            ++s.rq(new_cpu).nr_iowait;
        }
    }
    p.cpu = p.wake_cpu = new_cpu;
}

void move_queued_task_fair(SchedState& s, TaskId pid, CpuId new_cpu)
{
    Task& p = task_of(s, pid);
    const CpuId old_cpu = p.cpu;
    if (old_cpu == new_cpu)
        return;
    if (old_cpu == kNoCpu || !p.se.on_rq)
        throw std::logic_error("move_queued_task_fair: task " + std::to_string(pid) + " is not queued");
    if (s.rq(old_cpu).cfs.curr == pid)
        throw std::logic_error("move_queued_task_fair: task " + std::to_string(pid) + " is running on CPU " +
                               std::to_string(old_cpu));
    if (p.se.sched_delayed) {
        // It is asleep; moving it means finishing its dequeue, after which it
        // is an ordinary sleeper (no enqueue on the new CPU).
        set_task_cpu(s, pid, new_cpu);
        return;
    }
    dequeue_task_fair(s, old_cpu, pid, DEQUEUE_MIGRATING);
    p.se.avg.last_update_time = 0;
    p.cpu = p.wake_cpu = new_cpu;
    enqueue_task_fair(s, new_cpu, pid, ENQUEUE_MIGRATED);
}

// --- PELT --------------------------------------------------------------------------------

void post_init_entity_util_avg(SchedState& s, TaskId pid)
{
    Task& p = task_of(s, pid);
    if (p.cpu == kNoCpu)
        throw std::logic_error("post_init_entity_util_avg: task " + std::to_string(pid) + " has no CPU yet");
    SchedEntity& se = p.se;
    const Rq& rq = s.rq(p.cpu);
    const SchedAvg& rq_avg = rq.cfs.avg;

    // init_entity_runnable_average(): heavy until proven otherwise.
    se.avg = SchedAvg{};
    se.avg.load_avg = se.weight;
    se.util_avg_unchanged = false;

    // Extrapolate util from the runqueue's util per unit of load, but claim
    // at most half of what is left, so a burst of forks cannot overshoot.
    const long cap = (rq.cpu_capacity_orig - static_cast<long>(rq_avg.util_avg)) / 2;
    if (cap > 0) {
        unsigned long util = static_cast<unsigned long>(cap);
        if (rq_avg.util_avg)
            util = std::min(rq_avg.util_avg * se.weight / (rq_avg.load_avg + 1), util);
        se.avg.util_avg = util;
    }
    se.avg.runnable_avg = se.avg.util_avg;
}

void update_cfs_rq_load_avg(SchedState& s, CpuId cpu)
{
    Rq& rq = s.rq(cpu);
    update_sched_avg(rq.cfs.avg, rq_clock_pelt(s, rq), static_cast<unsigned long>(rq.cfs.load_weight),
                     rq.cfs.h_nr_runnable, rq.cfs.curr != kNoTask ? 1 : 0);
}

unsigned int pelt_capacity(const SchedState& s, CpuId cpu)
{
    if (!s.machine || cpu < 0 || cpu >= s.machine->nr_cpus())
        return kSchedCapacityScale;
    // arch_scale_cpu_capacity(): what the firmware declares (capacity-dmips-mhz
    // x the top clock on arm64, CPPC highest_perf), CpuTopo::capacity.
    const auto cpu_capacity =
        static_cast<unsigned int>(std::clamp(s.machine->cpus[static_cast<std::size_t>(cpu)].capacity, 1, 1024));
    // arch_scale_freq_capacity(): the current clock over the top one, from
    // the AMU or APERF/MPERF cycle counters. Every CPU here keeps one clock,
    // its top one, so this is SCHED_CAPACITY_SCALE. CpuTopo::speed is not
    // it: speed is clock x IPC, and the counters see only the clock
    // (docs/model.md).
    const unsigned int freq_capacity = kSchedCapacityScale;
    return cpu_capacity * freq_capacity >> kPeltCapacityShift;
}

void util_est_update(SchedAvg& task_avg)
{
    unsigned int ewma = task_avg.util_est;
    const auto dequeued = static_cast<unsigned int>(task_avg.util_avg);

    // Increases are taken at once: the estimate exists to not underestimate.
    if (ewma <= dequeued) {
        task_avg.util_est = dequeued;
        return;
    }
    const unsigned int last_ewma_diff = ewma - dequeued;
    if (last_ewma_diff < kUtilEstMargin)
        return;
    // A task that waited for the CPU ran less than it wanted: its util is
    // not a sign it needs less.
    if (dequeued + kUtilEstMargin < task_avg.runnable_avg)
        return;
    // ewma = ewma - (ewma - sample) / 4, in the kernel's shift form.
    ewma <<= 2;
    ewma -= last_ewma_diff;
    ewma >>= 2;
    task_avg.util_est = ewma;
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// When the balancer runs (kernel/sched/fair.c of the v7.3 merge window;
// wakeup-path.md §12.1, §12.3, §12.5, §10.3): per-domain intervals from the
// tick (sched_balance_domains), newly-idle balancing with its cost gating
// and NI_RANDOM dice, the decay of max_newidle_lb_cost, blocked-load
// updates and the misfit status a tick or pick leaves on a runqueue.
#include <algorithm>

#include "sched/eevdf.h"
#include "sched/lb_util.h"
#include "sched/select_idle.h"

namespace wb {

namespace {

long max_allowed_capacity(const SchedState& s, LoadBalanceState& lb, TaskId p)
{
    long& cached = lb.max_allowed_capacity[static_cast<std::size_t>(p)];
    if (cached < 0) {
        cached = 0;
        s.task(p).cpus_allowed.for_each([&](CpuId c) { cached = std::max(cached, arch_scale_cpu_capacity(s, c)); });
    }
    return cached;
}

void update_newidle_stats(const SchedState& s, SdRuntime& rt, unsigned success)
{
    ++rt.newidle_call;
    rt.newidle_success += success;
    if (rt.newidle_call < 1024)
        return;
    // NI_RATE: a domain tried rarely gets a high ratio whatever its success,
    // since rare attempts cost little: 1024 at one attempt per 4 ms.
    const std::int64_t delta = std::max<std::int64_t>(0, (s.now - rt.newidle_stamp).ns());
    rt.newidle_stamp = s.now;
    std::uint64_t ratio = s.feats(Feat::NI_RATE) ? static_cast<std::uint64_t>(delta) >> 22 : 0;
    ratio += rt.newidle_success;
    rt.newidle_ratio = static_cast<unsigned>(std::min<std::uint64_t>(1024, ratio));
    rt.newidle_call /= 2;
    rt.newidle_success /= 2;
}

void update_next_balance(const SchedState& s, const LoadBalanceState& lb, const SchedDomain& sd, SdRuntime& rt,
                         std::uint64_t* next_balance)
{
    if (rt.idle_interval_ms != rt.balance_interval) {
        rt.idle_interval = get_sd_balance_interval(s, lb, sd, rt, false);
        rt.idle_interval_ms = rt.balance_interval;
    }
    const std::uint64_t next = rt.last_balance + rt.idle_interval;
    *next_balance = std::min(*next_balance, next);
}

}  // namespace

// --- Intervals and newly-idle costs ----------------------------------------------------------

std::uint64_t get_sd_balance_interval(const SchedState& s, const LoadBalanceState& lb, const SchedDomain& sd,
                                      const SdRuntime& rt, bool cpu_busy)
{
    std::uint64_t interval = rt.balance_interval;
    if (cpu_busy)
        interval *= static_cast<std::uint64_t>(sd.busy_factor);
    interval = msecs_to_jiffies(s, interval);
    // Keep busy balancing of different levels from falling on the same tick.
    if (cpu_busy && interval > 0)
        interval -= 1;
    return std::clamp<std::uint64_t>(interval, 1, lb.max_load_balance_interval);
}

bool update_newidle_cost(const SchedState& s, SdRuntime& rt, std::int64_t cost, unsigned success)
{
    const std::uint64_t now = lb_jiffies(s);
    const std::uint64_t next_decay = rt.last_decay_max_lb_cost + static_cast<std::uint64_t>(lb_hz(s));
    if (cost)
        update_newidle_stats(s, rt, success);
    if (cost > rt.max_newidle_lb_cost) {
        // The longest attempt bounds how long a newly idle CPU may look.
        rt.max_newidle_lb_cost = cost;
        rt.last_decay_max_lb_cost = now;
    } else if (now > next_decay) {
        // ~1 % a second, so an old maximum does not gate for ever.
        rt.max_newidle_lb_cost = rt.max_newidle_lb_cost * 253 / 256;
        rt.last_decay_max_lb_cost = now;
        return true;
    }
    return false;
}

// --- The triggers -------------------------------------------------------------------------

void sched_balance_update_blocked_averages(SchedState& s, LoadBalanceState& lb, CpuId cpu)
{
    CpuLbState& c = lb.cpu(cpu);
    c.last_blocked_load_update_tick = lb_jiffies(s);
    update_cfs_rq_load_avg(s, cpu);
    const SchedAvg& avg = s.rq(cpu).cfs.avg;
    if (avg.load_avg == 0 && avg.util_avg == 0)
        c.has_blocked_load = false;
}

void sched_balance_domains(SchedState& s, LoadBalanceState& lb, CpuId cpu, CpuIdleType idle, LbOutcome& out)
{
    const std::uint64_t jiffies = lb_jiffies(s);
    bool continue_balancing = true;
    bool busy = idle != CpuIdleType::Idle && !sched_idle_cpu(s, cpu);
    std::uint64_t next_balance = jiffies + 60 * static_cast<std::uint64_t>(lb_hz(s));
    bool update_next = false;
    bool need_decay = false;
    std::int64_t max_cost = 0;

    const int n = chain_size(s, cpu);
    for (int pos = 0; pos < n; ++pos) {
        const SchedDomain& sd = s.domains->domain(domain_id(s, cpu, pos));
        SdRuntime& rt = sd_runtime(lb, cpu, pos);
        // A regular visit of every domain: decay the newidle maximum here.
        need_decay = update_newidle_cost(s, rt, 0, 0);
        max_cost += rt.max_newidle_lb_cost;
        // Another CPU of our group balances the levels above.
        if (!continue_balancing) {
            if (need_decay)
                continue;
            break;
        }
        std::uint64_t interval = get_sd_balance_interval(s, lb, sd, rt, busy);
        if (jiffies >= rt.last_balance + interval) {
            if (sched_balance_rq(s, lb, cpu, pos, idle, &continue_balancing, out)) {
                idle = idle_cpu(s.rq(cpu)) ? CpuIdleType::Idle : CpuIdleType::NotIdle;
                busy = idle != CpuIdleType::Idle && !sched_idle_cpu(s, cpu);
            }
            rt.last_balance = jiffies;
            interval = get_sd_balance_interval(s, lb, sd, rt, busy);
        }
        if (next_balance > rt.last_balance + interval) {
            next_balance = rt.last_balance + interval;
            update_next = true;
        }
    }
    if (need_decay) {
        // The runqueue-wide cost decays too, but never below migration_cost,
        // which avg_idle is compared against.
        Rq& rq = s.rq(cpu);
        rq.max_idle_balance_cost = std::max<std::int64_t>(s.tunables.migration_cost, max_cost);
    }
    if (update_next)
        lb.cpu(cpu).next_balance = next_balance;
}

namespace {

// The attempt proper of sched_balance_newidle(), from the lowest domain up.
// Out of line because most calls stop at the first tests: the caller then
// does not save the registers this walk needs.
[[gnu::noinline]] int newidle_balance_domains(SchedState& s, LoadBalanceState& lb, CpuId cpu, Rng& rng, LbOutcome& out,
                                              std::uint64_t* next_balance)
{
    Rq& rq = s.rq(cpu);
    CpuLbState& c = lb.cpu(cpu);
    int pulled = 0;
    ++lb.counters.newidle_attempts;
    sched_balance_update_blocked_averages(s, lb, cpu);
    std::int64_t curr_cost = 0;
    bool continue_balancing = true;
    const int n = chain_size(s, cpu);
    for (int pos = 0; pos < n; ++pos) {
        const SchedDomain& sd = s.domains->domain(domain_id(s, cpu, pos));
        SdRuntime& rt = c.sd[static_cast<std::size_t>(pos)];
        update_next_balance(s, lb, sd, rt, next_balance);
        if (rq.avg_idle < curr_cost + rt.max_newidle_lb_cost)
            break;
        if (sd.flags & SD_BALANCE_NEWIDLE) {
            unsigned weight = 1;
            if (s.feats(Feat::NI_RANDOM) && rt.newidle_ratio < 1024) {
                // A 1024-sided die: try in proportion to recent success,
                // and weigh a success by how rarely we try.
                const auto d1k = static_cast<unsigned>(rng.below(1024));
                weight = 1 + rt.newidle_ratio;
                if (d1k > weight) {
                    update_newidle_stats(s, rt, 0);
                    continue;
                }
                weight = (1024 + weight / 2) / weight;
            }
            const Time before = out.cost;
            pulled = sched_balance_rq(s, lb, cpu, pos, CpuIdleType::NewlyIdle, &continue_balancing, out);
            const std::int64_t domain_cost = (out.cost - before).ns();
            curr_cost += domain_cost;
            update_newidle_cost(s, rt, domain_cost, pulled ? weight : 0);
        }
        if (pulled || !continue_balancing)
            break;
    }
    rq.max_idle_balance_cost = std::max(rq.max_idle_balance_cost, curr_cost);
    if (rq.cfs.h_nr_queued && !pulled)
        pulled = 1;
    return pulled;
}

}  // namespace

[[gnu::hot]] int sched_balance_newidle(SchedState& s, LoadBalanceState& lb, CpuId cpu, Rng& rng, LbOutcome& out)
{
    Rq& rq = s.rq(cpu);
    CpuLbState& c = lb.cpu(cpu);
    update_misfit_status(s, lb, kNoTask, cpu);
    // A wakeup is on its way: no need to look for work.
    if (rq.ttwu_pending)
        return 0;
    // The attempt counts as idle time.
    rq.idle_stamp = s.now;
    std::uint64_t next_balance = lb_jiffies(s) + static_cast<std::uint64_t>(lb_hz(s));
    int pulled = 0;
    // c.sd runs parallel to cpu's chain: testing it is cheaper than
    // chain_size(), and its first entry is read next anyway.
    if (!c.sd.empty()) {
        SdRuntime& rt0 = c.sd[0];
        // Nothing anywhere to pull, or this CPU will not idle long enough to
        // pay for even the cheapest attempt.
        if (!lb.overloaded || rq.avg_idle < rt0.max_newidle_lb_cost)
            update_next_balance(s, lb, s.domains->domain(domain_id(s, cpu, 0)), rt0, &next_balance);
        else
            pulled = newidle_balance_domains(s, lb, cpu, rng, out, &next_balance);
    }
    c.next_balance = std::min(c.next_balance, next_balance);
    if (pulled) {
        rq.idle_stamp = Time();
        ++lb.counters.newidle_pulls;
    }
    return pulled;
}

[[gnu::hot]] void update_misfit_status(const SchedState& s, LoadBalanceState& lb, TaskId p, CpuId cpu)
{
    if (!s.domains->sched_asym_cpucapacity())
        return;
    CpuLbState& c = lb.cpu(cpu);
    // Nowhere bigger it may go, or it fits here.
    if (p == kNoTask || s.task(p).nr_cpus_allowed == 1 ||
        arch_scale_cpu_capacity(s, cpu) == max_allowed_capacity(s, lb, p) || task_fits_cpu(s, p, cpu)) {
        c.misfit_task_load = 0;
        return;
    }
    c.misfit_task_load = std::max(task_h_load(s, p), 1UL);
}

}  // namespace wb

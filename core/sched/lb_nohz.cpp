// SPDX-License-Identifier: Apache-2.0
//
// Idle load balancing for tickless CPUs (kernel/sched/fair.c of the v7.3
// merge window, CONFIG_NO_HZ_COMMON): an idle CPU has stopped its tick, so
// nobody would balance for it. A busy CPU's tick notices, by cheap hints,
// that pulling work might help (nohz_balancer_kick) and kicks one idle CPU
// (kick_ilb), which balances on behalf of every tickless idle CPU in turn
// and, with NOHZ_STATS_KICK, decays their blocked PELT load so that remote
// readers see their load fade as it would had they kept ticking.
//
// A CPU stays in the nohz mask, and out of its LLC's nr_busy_cpus, from
// the moment it stops its tick until its first busy tick, as in the kernel.
// The engine runs a kicked CPU's pass as one instant of simulated time, so
// work arriving on that CPU never cuts the pass short.
#include "sched/lb_util.h"

namespace wb {

namespace {

int sd_llc_of(const SchedState& s, CpuId cpu)
{
    return s.domains->shortcuts(cpu).sd_llc;
}

// set_cpu_sd_state_idle() / _busy(): the LLC's count of CPUs not in nohz idle.
void set_cpu_sd_state(SchedState& s, LoadBalanceState& lb, CpuId cpu, bool idle)
{
    const int llc = sd_llc_of(s, cpu);
    CpuLbState& c = lb.cpu(cpu);
    if (llc < 0 || c.nohz_idle == idle)
        return;
    c.nohz_idle = idle;
    s.shared[static_cast<std::size_t>(llc)].nr_busy_cpus += idle ? -1 : 1;
}

void nohz_balance_exit_idle(SchedState& s, LoadBalanceState& lb, CpuId cpu)
{
    CpuLbState& c = lb.cpu(cpu);
    if (!c.nohz_tick_stopped)
        return;
    c.nohz_tick_stopped = false;
    lb.nohz.idle_cpus_mask.reset(cpu);
    --lb.nohz.nr_cpus;
    set_cpu_sd_state(s, lb, cpu, false);
}

// update_nohz_stats(): true while cpu still has blocked load to decay.
bool update_nohz_stats(SchedState& s, LoadBalanceState& lb, CpuId cpu, LbOutcome& out)
{
    CpuLbState& c = lb.cpu(cpu);
    if (!c.has_blocked_load)
        return false;
    if (!lb.nohz.idle_cpus_mask.test(cpu))
        return false;
    if (!(lb_jiffies(s) > c.last_blocked_load_update_tick))
        return true;
    out.cost += lb.cost_per_cpu;
    sched_balance_update_blocked_averages(s, lb, cpu);
    return c.has_blocked_load;
}

}  // namespace

void nohz_tick_stop(SchedState& s, LoadBalanceState& lb, CpuId cpu)
{
    if (s.domains->domains_of(cpu).empty())
        return;  // an isolated CPU takes no part
    lb.cpu(cpu).nohz_tick_stopped = true;
    lb.nohz.idle_cpus_mask.set(cpu);
    ++lb.nohz.nr_cpus;
    set_cpu_sd_state(s, lb, cpu, true);
    lb.nohz.needs_update = true;
}

unsigned nohz_balancer_kick(SchedState& s, LoadBalanceState& lb, CpuId cpu)
{
    // The first busy tick after idle: this CPU is busy again.
    nohz_balance_exit_idle(s, lb, cpu);
    if (!lb.nohz.nr_cpus)
        return 0;

    const std::uint64_t now = lb_jiffies(s);
    const Rq& rq = s.rq(cpu);
    unsigned flags = 0;
    if (lb.nohz.has_blocked_load && now > lb.nohz.next_blocked)
        flags = NOHZ_STATS_KICK;
    constexpr unsigned kBalance = NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;

    auto decide = [&]() -> unsigned {
        if (now < lb.nohz.next_balance)
            return flags;
        if (rq.nr_running >= 2)
            return kBalance;
        const std::vector<int>& chain = s.domains->domains_of(cpu);
        // A fair task on a CPU whose capacity others took may do better elsewhere.
        if (!chain.empty() && rq.cfs.h_nr_queued >= 1 && check_cpu_capacity(s, cpu, s.domains->domain(chain.front())))
            return kBalance;
        const CpuShortcuts& sc = s.domains->shortcuts(cpu);
        // A preferred CPU is idle: pack onto it. With SMT, its whole core must be.
        if (sc.sd_asym_packing >= 0) {
            const CpuMask& span = s.domains->domain(sc.sd_asym_packing).span;
            for (CpuId i = span.first(); i != kNoCpu; i = span.next(i))
                if (lb.nohz.idle_cpus_mask.test(i) && sched_asym(s, sc.sd_asym_packing, i, cpu))
                    return kBalance;
        }
        // Asymmetric capacity: only misfits matter; spreading for cache use
        // does not.
        if (sc.sd_asym_cpucapacity >= 0)
            return lb.cpu(cpu).misfit_task_load ? kBalance : flags;
        // Another busy CPU in our LLC: some idle CPU may want a task.
        if (sc.sd_llc >= 0 && s.shared[static_cast<std::size_t>(sc.sd_llc)].nr_busy_cpus > 1)
            return kBalance;
        return flags;
    };
    flags = decide();
    if (lb.nohz.needs_update)
        flags |= NOHZ_NEXT_KICK;
    return flags;
}

CpuId kick_ilb(SchedState& s, LoadBalanceState& lb, CpuId this_cpu, unsigned flags)
{
    // Only a full balance pushes the next one back: stats updates do not.
    if (flags & NOHZ_BALANCE_KICK)
        lb.nohz.next_balance = lb_jiffies(s) + 1;
    // find_new_ilb(): the first idle CPU in the nohz mask other than us.
    CpuId ilb = kNoCpu;
    const CpuMask& mask = lb.nohz.idle_cpus_mask;
    for (CpuId c = mask.first(); c != kNoCpu && ilb == kNoCpu; c = mask.next(c))
        if (c != this_cpu && idle_cpu(s.rq(c)))
            ilb = c;
    if (ilb == kNoCpu)
        return kNoCpu;
    unsigned& pending = lb.cpu(ilb).nohz_flags;
    if ((pending & flags) == flags)
        return kNoCpu;
    const unsigned before = pending;
    pending |= flags;
    // Whoever set the first kick bit sends the IPI; later kicks ride on it.
    if (before & NOHZ_KICK_MASK)
        return kNoCpu;
    ++lb.counters.ilb_kicks;
    return ilb;
}

void nohz_idle_balance(SchedState& s, LoadBalanceState& lb, CpuId ilb, unsigned flags, LbOutcome& out)
{
    const std::uint64_t now = lb_jiffies(s);
    std::uint64_t next_balance = now + 60 * static_cast<std::uint64_t>(lb_hz(s));
    bool update_next = false;
    bool has_blocked_load = false;
    out.exec_cpu = ilb;

    // Assume the idle CPUs' load will have decayed once this pass is done; an
    // idle entry meanwhile sets the flags again.
    if (flags & NOHZ_STATS_KICK)
        lb.nohz.has_blocked_load = false;
    if (flags & NOHZ_NEXT_KICK)
        lb.nohz.needs_update = false;

    // From the CPU after ilb, so ilb itself comes last: the others get the
    // first chance to pull.
    const CpuMask mask = lb.nohz.idle_cpus_mask;
    mask.for_each_wrap(ilb + 1 < mask.nr_cpus() ? ilb + 1 : 0, [&](CpuId balance_cpu) {
        if (!idle_cpu(s.rq(balance_cpu)))
            return;
        CpuLbState& c = lb.cpu(balance_cpu);
        if (flags & NOHZ_STATS_KICK)
            has_blocked_load |= update_nohz_stats(s, lb, balance_cpu, out);
        if (now >= c.next_balance && (flags & NOHZ_BALANCE_KICK))
            sched_balance_domains(s, lb, balance_cpu, CpuIdleType::Idle, out);
        if (next_balance > c.next_balance) {
            next_balance = c.next_balance;
            update_next = true;
        }
    });
    if (update_next)
        lb.nohz.next_balance = next_balance;
    if (flags & NOHZ_STATS_KICK)
        lb.nohz.next_blocked = now + msecs_to_jiffies(s, kLoadAvgPeriod);
    if (has_blocked_load)
        lb.nohz.has_blocked_load = true;
}

[[gnu::hot]] bool nohz_newidle_balance(const SchedState& s, const LoadBalanceState& lb, CpuId cpu)
{
    // About to be woken again: no time for anything else.
    if (s.rq(cpu).avg_idle < s.tunables.migration_cost)
        return false;
    return lb.nohz.has_blocked_load && lb_jiffies(s) >= lb.nohz.next_blocked;
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// The load balancer's state (load_balance.h): what sd_init() and the group
// builders give each CPU's domains and each group, the helpers every part
// of the balancer shares, and rq->cfs_tasks, the order in which the balancer
// considers a runqueue's tasks, kept from what the engine reports.
#include <algorithm>

#include "sched/placement_policy.h"
#include "sched/lb_util.h"

namespace wb {

namespace {

// The CPUs of the group whose own group it is: for a non-overlapping level
// the whole span; for overlapping NUMA groups those whose child domain is
// the group (build_balance_mask()).
CpuMask build_balance_mask(const SchedDomains& d, const SchedDomain& sd, const SchedGroup& g, int nr_cpus)
{
    CpuMask mask(nr_cpus);
    g.span.for_each([&](CpuId i) {
        const std::vector<int>& chain = d.domains_of(i);
        for (std::size_t pos = 0; pos < chain.size(); ++pos) {
            if (d.domain(chain[pos]).level != sd.level)
                continue;
            const bool own = pos > 0 ? d.domain(chain[pos - 1]).span == g.span : g.span.weight() == 1;
            if (own)
                mask.set(i);
            break;
        }
    });
    return mask.empty() ? g.span : mask;
}

// sg->flags: the flags of the child domain the group is, as kept when
// degenerate levels are dropped; a group of one CPU has none.
unsigned group_flags(const SchedDomains& d, const SchedDomain& sd, const SchedGroup& g, CpuId cpu)
{
    const std::vector<int>& chain = d.domains_of(cpu);
    unsigned flags = 0;
    for (int id : chain) {
        const SchedDomain& child = d.domain(id);
        if (child.level >= sd.level)
            break;
        if (child.span == g.span)
            flags = child.flags;
    }
    return flags;
}

int count_cores(const Machine& m, const CpuMask& span)
{
    std::vector<int> cores;
    span.for_each([&](CpuId i) { cores.push_back(m.cpus[static_cast<std::size_t>(i)].core); });
    std::sort(cores.begin(), cores.end());
    return static_cast<int>(std::unique(cores.begin(), cores.end()) - cores.begin());
}

}  // namespace

// --- Helpers every part of the balancer shares --------------------------------------

bool sched_asym_prefer(const SchedState& s, int sd, CpuId a, CpuId b)
{
    if (s.policy) {
        if (const std::optional<bool> prefer = s.policy->sched_asym_prefer(s, sd, a, b))
            return *prefer;
    }
    return s.machine->cpus[static_cast<std::size_t>(a)].asym_prio >
           s.machine->cpus[static_cast<std::size_t>(b)].asym_prio;
}

bool sched_use_asym_prio(const SchedState& s, int sd, CpuId cpu)
{
    const SchedDomain& d = s.domains->domain(sd);
    if (!(d.flags & SD_ASYM_PACKING))
        return false;
    if (!s.domains->sched_smt_active())
        return true;
    return (d.flags & SD_SHARE_CPUCAPACITY) || is_core_idle(s, cpu);
}

[[gnu::hot]] std::uint64_t lb_jiffies(const SchedState& s)
{
    return s.jiffies() + 3600 * static_cast<std::uint64_t>(lb_hz(s));
}

[[gnu::hot]] std::uint64_t msecs_to_jiffies(const SchedState& s, std::uint64_t ms)
{
    const auto hz = static_cast<std::uint64_t>(lb_hz(s));
    return (ms * hz + 999) / 1000;
}

// --- rq->cfs_tasks ------------------------------------------------------------------

void list_move_head(LoadBalanceState& lb, TaskId p)
{
    CfsTasksLink& e = lb.link(p);
    CpuLbState& c = lb.cpu(e.cpu);
    if (c.tasks_back == p)
        return;
    cfs_tasks_unlink(lb, c, e);
    cfs_tasks_link_head(lb, c, p, e);
}

void list_prune(SchedState& s, LoadBalanceState& lb, CpuId cpu)
{
    std::vector<TaskId>& dequeued = s.rq(cpu).cfs.delayed_dequeued;
    for (const TaskId q : dequeued) {
        const Task& t = s.task(q);
        if (lb.link(q).cpu == cpu && (t.cpu != cpu || !t.se.on_rq))
            list_remove(lb, q);
    }
    dequeued.clear();
}

std::vector<TaskId> cfs_tasks(const LoadBalanceState& lb, CpuId cpu)
{
    std::vector<TaskId> out;
    for (TaskId q = lb.cpu(cpu).tasks_front; q != kNoTask; q = lb.link(q).next)
        out.push_back(q);
    return out;
}

bool check_cfs_tasks(const SchedState& s, const LoadBalanceState& lb, CpuId cpu, std::string* why)
{
    auto fail = [&](std::string what) {
        if (why)
            *why = "CPU " + std::to_string(cpu) + "'s cfs_tasks: " + std::move(what);
        return false;
    };
    const std::vector<TaskId>& dequeued = s.rq(cpu).cfs.delayed_dequeued;
    std::size_t entries = 0;
    TaskId prev = kNoTask;
    for (TaskId q = lb.cpu(cpu).tasks_front; q != kNoTask; q = lb.link(q).next) {
        if (++entries > s.tasks.size())
            return fail("the links form a cycle");
        const CfsTasksLink& e = lb.link(q);
        if (e.cpu != cpu || e.prev != prev)
            return fail("task " + std::to_string(q) + "'s entry is linked wrongly");
        const Task& t = s.task(q);
        const bool stale = t.cpu != cpu || !t.se.on_rq;
        if (stale && !(e.delayed && std::find(dequeued.begin(), dequeued.end(), q) != dequeued.end()))
            return fail("task " + std::to_string(q) + " is not queued here, yet not a delayed dequeue to drop");
        prev = q;
    }
    if (lb.cpu(cpu).tasks_back != prev)
        return fail("the back is task " + std::to_string(lb.cpu(cpu).tasks_back) + ", not " + std::to_string(prev));
    for (const Task& t : s.tasks)
        if (t.cpu == cpu && t.se.on_rq && lb.link(t.id).cpu != cpu)
            return fail("queued task " + std::to_string(t.id) + " has no entry");
    return true;
}

// --- State ----------------------------------------------------------------------------

LoadBalanceState make_load_balance_state(const SchedState& s)
{
    const SchedDomains& d = *s.domains;
    const Machine& m = *s.machine;
    const int n = m.nr_cpus();
    LoadBalanceState lb;
    lb.cpus.resize(static_cast<std::size_t>(n));
    lb.nohz.idle_cpus_mask = CpuMask(n);
    lb.max_load_balance_interval =
        std::max<std::uint64_t>(1, static_cast<std::uint64_t>(lb_hz(s)) * static_cast<std::uint64_t>(n) / 10);
    lb.cost_per_cpu = Time::ns(static_cast<std::int64_t>(m.costs[Cost::remote_rq_access]));
    lb.cost_per_move = lb.cost_per_cpu * 2;

    for (CpuId cpu = 0; cpu < n; ++cpu) {
        CpuLbState& c = lb.cpu(cpu);
        const std::vector<int>& chain = d.domains_of(cpu);
        c.sd.resize(chain.size());
        c.local_group.resize(chain.size());
        for (std::size_t pos = 0; pos < chain.size(); ++pos) {
            const SchedDomain& sd = d.domain(chain[pos]);
            SdRuntime& rt = c.sd[pos];
            rt.balance_interval = static_cast<unsigned>(sd.balance_interval);
            // Filled now, so that no balance_interval, not even ~0u, meets
            // an empty cache.
            rt.idle_interval_ms = rt.balance_interval;
            rt.idle_interval = get_sd_balance_interval(s, lb, sd, rt, false);
            // This CPU's group is its child domain (itself at the bottom).
            const CpuMask own = pos > 0 ? d.domain(chain[pos - 1]).span : CpuMask::of(n, {cpu});
            int local = -1;
            for (std::size_t k = 0; k < sd.groups.size() && local < 0; ++k)
                if (d.group(sd.groups[k]).span == own)
                    local = static_cast<int>(k);
            for (std::size_t k = 0; k < sd.groups.size() && local < 0; ++k)
                if (d.group(sd.groups[k]).span.test(cpu))
                    local = static_cast<int>(k);
            c.local_group[pos] = std::max(local, 0);
        }
    }

    lb.groups.resize(d.domains().size());
    for (std::size_t id = 0; id < d.domains().size(); ++id) {
        const SchedDomain& sd = d.domains()[id];
        for (int gid : sd.groups) {
            const SchedGroup& g = d.group(gid);
            GroupLbInfo info;
            info.balance_mask = build_balance_mask(d, sd, g, n);
            info.flags = group_flags(d, sd, g, info.balance_mask.first());
            info.cores = count_cores(m, g.span);
            info.weight = static_cast<unsigned>(g.span.weight());
            g.span.for_each([&](CpuId i) {
                if (info.asym_prefer_cpu == kNoCpu ||
                    sched_asym_prefer(s, static_cast<int>(id), i, info.asym_prefer_cpu))
                    info.asym_prefer_cpu = i;
            });
            lb.groups[id].push_back(std::move(info));
        }
    }
    lb.links.assign(s.tasks.size(), CfsTasksLink{});
    lb.max_allowed_capacity.assign(s.tasks.size(), -1);
    return lb;
}

LbEnv make_lb_env(const SchedState& s, CpuId balance_cpu, int sd_pos, CpuIdleType idle)
{
    LbEnv env;
    env.sd_pos = sd_pos;
    env.sd = domain_id(s, balance_cpu, sd_pos);
    env.balance_cpu = balance_cpu;
    env.dst_cpu = balance_cpu;
    env.idle = idle;
    env.cpus = s.domains->domain(env.sd).span;
    return env;
}

// --- What the engine reports -----------------------------------------------------------------

void lb_task_created(LoadBalanceState& lb, TaskId p)
{
    const auto idx = static_cast<std::size_t>(p);
    if (lb.links.size() <= idx) {
        lb.links.resize(idx + 1);
        lb.max_allowed_capacity.resize(idx + 1, -1);
    }
}

// Out of line (the unity build could inline it): lb_task_picked() runs at
// every pick and needs only its test of delayed_dequeued in the caller.
// The entries to drop are those of cpu's list still marked delayed whose
// task is no longer queued there. Only a dequeue of a delayed entity makes
// one, and each such dequeue since the last pick is in delayed_dequeued, so
// these few are looked at instead of the whole list; the list's order does
// not depend on the order of removals.
[[gnu::noinline]] void lb_drop_dequeued_delayed(SchedState& s, LoadBalanceState& lb, CpuId cpu)
{
    std::vector<TaskId>& dequeued = s.rq(cpu).cfs.delayed_dequeued;
    for (const TaskId q : dequeued) {
        const CfsTasksLink& e = lb.link(q);
        const Task& t = s.task(q);
        if (e.cpu == cpu && e.delayed && (!t.se.on_rq || t.cpu != cpu))
            list_remove(lb, q);
    }
    dequeued.clear();
}

}  // namespace wb

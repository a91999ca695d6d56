// SPDX-License-Identifier: Apache-2.0
//
// One balance attempt (kernel/sched/fair.c of the v7.3 merge window;
// wakeup-path.md §12.2, §12.4, §10.9): which CPU balances a domain, which
// tasks may move, moving them, failure accounting and intervals, the
// decision to push a running task, and the stopper's pick. The statistics
// are in lb_stats.cpp, when balancing runs in lb_triggers.cpp, nohz idle
// balancing in lb_nohz.cpp, the state and task lists in lb_state.cpp.
//
// Where the model differs from the kernel, and why (docs/model.md lists these):
//  - Balancing takes no simulated time while it runs. Its modelled cost,
//    remote_rq_access per attempt and per CPU whose statistics it reads, and
//    twice that per task it moves, is what newly-idle balancing measures for
//    max_newidle_lb_cost, and the engine charges it to the CPU doing the work.
//  - SD_SERIALIZE's lock is held for that modelled duration; another CPU
//    trying inside it treats the level as balanced. As in [NEW] it is taken
//    after should_we_balance(); newly-idle balancing does not take it.
//  - Capacities never change (no RT, DL, IRQ or thermal pressure), so
//    update_group_capacity() has nothing to do and check_cpu_capacity() is
//    never true. No NUMA balancing, cgroup throttling, proxy execution or core
//    scheduling: their tests always pass. No Energy Model, so the "balanced
//    while not over-utilised" exit never applies (as in a kernel without a
//    perf domain). CONFIG_SCHED_CACHE's cache-aware balance is not modelled.
//  - A delayed-dequeue task the balancer moves finishes its sleep and wakes
//    next from the new CPU, as move_queued_task_fair() does; the kernel keeps
//    it queued, still delayed, on the destination until picked there.
//  - rq->cfs_tasks is kept here from what the engine reports. A task whose
//    delayed dequeue was completed by a wakeup-preemption pick, then woken
//    again on the same CPU before that CPU schedules, keeps its old place
//    instead of going to the front.
//  - task_hot(): a task that has not run since it was placed (exec_start 0)
//    is cold, as in the kernel, whose clock has been running since boot.
//  - NI_RANDOM draws from the run's Rng, so a run stays reproducible.
#include "sched/load_balance.h"

#include <algorithm>
#include <climits>

#include "sched/placement_policy.h"
#include "sched/eevdf.h"
#include "sched/lb_util.h"
#include "sched/select_idle.h"

namespace wb {

namespace {

// group_balance_mask(sd->groups) of the balancing CPU: who may stand in for
// it when a task cannot run on it (LBF_DST_PINNED).
const CpuMask& dst_grpmask(const LoadBalanceState& lb, const LbEnv& env)
{
    const int gi = lb.cpu(env.balance_cpu).local_group[static_cast<std::size_t>(env.sd_pos)];
    return group_info(lb, env.sd, gi).balance_mask;
}

// sgc->imbalance of the parent level's own group, or null at the top.
bool* parent_group_imbalance(const SchedState& s, LoadBalanceState& lb, const LbEnv& env)
{
    const int parent = env.sd_pos + 1;
    if (parent >= chain_size(s, env.balance_cpu))
        return nullptr;
    const int gi = lb.cpu(env.balance_cpu).local_group[static_cast<std::size_t>(parent)];
    return &lb.groups[static_cast<std::size_t>(domain_id(s, env.balance_cpu, parent))][static_cast<std::size_t>(gi)]
                .imbalance;
}

unsigned long shr_bound(unsigned long value, unsigned shift)
{
    return value >> std::min<unsigned>(shift, sizeof(value) * CHAR_BIT - 1);
}

// A task that would land behind the destination's queue owing service is
// kept back until balancing has failed once: eligible tasks move first.
bool task_is_ineligible_on_dst_cpu(const SchedState& s, TaskId p, CpuId dst)
{
    return s.feats(Feat::PLACE_LAG) && s.rq(dst).cfs.h_nr_queued && !entity_eligible(s, s.task(p).cpu, p);
}

void attach_tasks(SchedState& s, LoadBalanceState& lb, LbEnv& env, LbOutcome& out)
{
    for (TaskId p : env.tasks) {
        const bool resched = attach_task(s, lb, p, env.dst_cpu);
        out.moved.push_back({p, env.src_cpu, env.dst_cpu});
        if (resched)
            out.resched.push_back(env.dst_cpu);
    }
    lb.counters.tasks_moved += env.tasks.size();
    env.tasks.clear();
}

}  // namespace

// --- Who balances, what may move ------------------------------------------------------

bool should_we_balance(const SchedState& s, const LoadBalanceState& lb, const LbEnv& env)
{
    if (!env.cpus.test(env.dst_cpu))
        return false;
    // Every CPU about to idle may pull for itself, unless work already came.
    if (env.idle == CpuIdleType::NewlyIdle) {
        const Rq& rq = s.rq(env.dst_cpu);
        return rq.nr_running == 0 && rq.ttwu_pending == 0;
    }
    const SchedDomain& sd = s.domains->domain(env.sd);
    const GroupLbInfo& group =
        group_info(lb, env.sd, lb.cpu(env.balance_cpu).local_group[static_cast<std::size_t>(env.sd_pos)]);
    // The first idle CPU of the group balances for it, preferring one on an
    // idle core when balancing between cores: pulling onto a thread whose
    // sibling is busy would share a core while another sits idle.
    const bool between_cores = !(sd.flags & SD_SHARE_CPUCAPACITY) && s.domains->sched_smt_active();
    CpuMask busy_cores;  // sized at the first busy core met
    CpuId idle_smt = kNoCpu;
    for (CpuId cpu = group.balance_mask.first(); cpu != kNoCpu; cpu = group.balance_mask.next(cpu)) {
        if (!env.cpus.test(cpu) || busy_cores.test(cpu) || !idle_cpu(s.rq(cpu)))
            continue;
        if (between_cores && !is_core_idle(s, cpu)) {
            if (idle_smt == kNoCpu)
                idle_smt = cpu;
            if (busy_cores.nr_cpus() == 0)
                busy_cores = CpuMask(group.balance_mask.nr_cpus());
            for (CpuId sibling : SmtSiblings(s, cpu))
                busy_cores.set(sibling);
            continue;
        }
        return cpu == env.dst_cpu;
    }
    if (idle_smt != kNoCpu)
        return idle_smt == env.dst_cpu;
    return group.balance_mask.first() == env.dst_cpu;
}

bool task_hot(const SchedState& s, TaskId p, const LbEnv& env)
{
    const Task& t = s.task(p);
    if (t.policy == SchedPolicy::Idle)
        return false;
    // SMT siblings share their caches.
    if (s.domains->domain(env.sd).flags & SD_SHARE_CPUCAPACITY)
        return false;
    // The next buddy is about to run where it is.
    if (s.feats(Feat::CACHE_HOT_BUDDY) && s.rq(env.dst_cpu).nr_running && t.cpu >= 0 && s.rq(t.cpu).cfs.next == p)
        return true;
    const std::int64_t cost = s.tunables.migration_cost;
    if (cost == -1)
        return true;
    if (cost == 0 || t.se.exec_start == 0)
        return false;
    return s.now.ns() - static_cast<std::int64_t>(t.se.exec_start) < cost;
}

bool can_migrate_task(const SchedState& s, const LoadBalanceState& lb, TaskId p, LbEnv& env)
{
    const Task& t = s.task(p);
    const SdRuntime& rt = lb.cpu(env.balance_cpu).sd[static_cast<std::size_t>(env.sd_pos)];
    // A delayed task is asleep: moving it only moves load.
    if (t.se.sched_delayed && env.migration_type != MigrationType::Load)
        return false;
    if (!rt.nr_balance_failed && task_is_ineligible_on_dst_cpu(s, p, env.dst_cpu))
        return false;
    // Per-CPU kthreads are where they need to be.
    if (t.per_cpu_kthread())
        return false;
    if (!t.cpus_allowed.test(env.dst_cpu)) {
        env.flags |= LBF_SOME_PINNED;
        // Remember a CPU of dst's group p could go to instead, if another
        // pass over the source is worth it.
        if (env.idle == CpuIdleType::NewlyIdle || (env.flags & (LBF_DST_PINNED | LBF_ACTIVE_LB)))
            return false;
        const CpuMask& grp = dst_grpmask(lb, env);
        for (CpuId cpu = grp.first(); cpu != kNoCpu; cpu = grp.next(cpu)) {
            if (env.cpus.test(cpu) && t.cpus_allowed.test(cpu)) {
                env.flags |= LBF_DST_PINNED;
                env.new_dst_cpu = cpu;
                break;
            }
        }
        return false;
    }
    env.flags &= ~LBF_ALL_PINNED;
    const bool running = t.on_cpu || (s.rq(env.src_cpu).curr == p && !env.stopper);
    if (running)
        return false;
    if (env.flags & LBF_ACTIVE_LB)
        return true;
    // Cache-hot tasks stay, until balancing has failed often enough here.
    return !task_hot(s, p, env) ||
           rt.nr_balance_failed > static_cast<unsigned>(s.domains->domain(env.sd).cache_nice_tries);
}

// --- Moving tasks ---------------------------------------------------------------------

bool detach_task(SchedState& s, LoadBalanceState& lb, TaskId p, CpuId dst)
{
    Task& t = s.task(p);
    list_remove(lb, p);
    if (t.se.sched_delayed) {
        set_task_cpu(s, p, dst);
        return false;
    }
    dequeue_task_fair(s, t.cpu, p, DEQUEUE_MIGRATING);
    t.se.avg.last_update_time = 0;  // attach afresh on dst
    t.cpu = t.wake_cpu = dst;
    return true;
}

bool attach_task(SchedState& s, LoadBalanceState& lb, TaskId p, CpuId dst)
{
    enqueue_task_fair(s, dst, p, ENQUEUE_MIGRATED);
    s.task(p).state = TaskState::Runnable;
    list_add_head(lb, p, dst);
    if (s.rq(dst).nr_running >= 2)
        lb.overloaded = true;
    const bool preempt = wakeup_preempt_fair(s, dst, p, 0);
    return preempt || s.rq(dst).cfs.need_resched;
}

int detach_tasks(SchedState& s, LoadBalanceState& lb, LbEnv& env)
{
    list_prune(s, lb, env.src_cpu);
    const Rq& src = s.rq(env.src_cpu);
    // Emptied meanwhile: no task tested, so none was pinned.
    if (src.nr_running <= 1) {
        env.flags &= ~LBF_ALL_PINNED;
        return 0;
    }
    if (env.imbalance <= 0)
        return 0;

    const SdRuntime& rt = lb.cpu(env.balance_cpu).sd[static_cast<std::size_t>(env.sd_pos)];
    const CpuLbState& tasks = lb.cpu(env.src_cpu);
    int detached = 0;
    while (tasks.tasks_front != kNoTask) {
        // Never take the last task: the source would do the same to us.
        if (env.idle != CpuIdleType::NotIdle && src.nr_running <= 1)
            break;
        ++env.loop;
        if (env.loop > env.loop_max)
            break;
        if (env.loop > env.loop_break) {
            env.loop_break += kNrMigrateBreak;
            env.flags |= LBF_NEED_BREAK;
            break;
        }
        const TaskId p = tasks.tasks_front;
        const Task& t = s.task(p);
        bool take = can_migrate_task(s, lb, p, env);
        if (take) {
            switch (env.migration_type) {
            case MigrationType::Load: {
                // Never more load than the imbalance, less strictly the more
                // often balancing failed to find a task that fits.
                const unsigned long load = std::max(task_h_load(s, p), 1UL);
                if (shr_bound(load, rt.nr_balance_failed) > static_cast<unsigned long>(env.imbalance))
                    take = false;
                else
                    env.imbalance -= static_cast<long>(load);
                break;
            }
            case MigrationType::Util: {
                const unsigned long util = task_util_est(t.se.avg);
                if (shr_bound(util, rt.nr_balance_failed) > static_cast<unsigned long>(env.imbalance))
                    take = false;
                else
                    env.imbalance -= static_cast<long>(util);
                break;
            }
            case MigrationType::Task:
                --env.imbalance;
                break;
            case MigrationType::Misfit:
                if (task_fits_cpu(s, p, env.src_cpu))
                    take = false;
                else
                    env.imbalance = 0;
                break;
            }
        }
        if (!take) {
            // list_move() to the head: the next candidate comes up.
            list_move_head(lb, p);
            continue;
        }
        if (detach_task(s, lb, p, env.dst_cpu))
            env.tasks.insert(env.tasks.begin(), p);
        ++detached;
        env.cost += lb.cost_per_move;
        // A preemptible kernel keeps newly-idle balancing short: one task.
        if (env.idle == CpuIdleType::NewlyIdle)
            break;
        if (env.imbalance <= 0)
            break;
    }
    return detached;
}

bool need_active_balance(const SchedState& s, const LoadBalanceState& lb, const LbEnv& env)
{
    const SchedDomain& sd = s.domains->domain(env.sd);
    const SdRuntime& rt = lb.cpu(env.balance_cpu).sd[static_cast<std::size_t>(env.sd_pos)];
    const bool dst_idle = env.idle != CpuIdleType::NotIdle;
    // asym_active_balance(): pack onto the preferred CPU; an SMT core with
    // busy siblings may be helped by a lower-priority CPU.
    if (dst_idle && sched_use_asym_prio(s, env.sd, env.dst_cpu) &&
        (sched_asym_prefer(s, env.sd, env.dst_cpu, env.src_cpu) || !sched_use_asym_prio(s, env.sd, env.src_cpu)))
        return true;
    // imbalanced_active_balance(): a task that could not be pulled for
    // several attempts is pushed (pinned tasks, or spreading one per CPU).
    if (env.migration_type == MigrationType::Task &&
        (rt.nr_balance_failed > static_cast<unsigned>(sd.cache_nice_tries) + 2 ||
         (s.policy && s.policy->imbalanced_active_balance_now(s, env.sd, env.dst_cpu, env.src_cpu))))
        return true;
    // A lone task on a CPU whose capacity others took, with more on dst.
    if (dst_idle && s.rq(env.src_cpu).cfs.h_nr_runnable == 1 && check_cpu_capacity(s, env.src_cpu, sd) &&
        capacity_of(s, env.src_cpu) * sd.imbalance_pct < capacity_of(s, env.dst_cpu) * 100)
        return true;
    return env.migration_type == MigrationType::Misfit;
}

// --- One attempt --------------------------------------------------------------------------

int sched_balance_rq(SchedState& s, LoadBalanceState& lb, CpuId this_cpu, int sd_pos, CpuIdleType idle,
                     bool* continue_balancing, LbOutcome& out)
{
    LbEnv env = make_lb_env(s, this_cpu, sd_pos, idle);
    const SchedDomain& sd = s.domains->domain(env.sd);
    SdRuntime& rt = sd_runtime(lb, this_cpu, sd_pos);
    const CpuId exec_cpu = out.exec_cpu != kNoCpu ? out.exec_cpu : this_cpu;
    const Time started = s.now + out.cost;
    env.cost += lb.cost_per_cpu;  // this CPU's own runqueue and domain

    enum class Exit { Done, Balanced, AllPinned, OnePinned };
    Exit exit = Exit::Done;
    bool holds_serialize = false;
    bool active_balance = false;
    int ld_moved = 0;
    bool counted = false;

    for (;;) {  // redo:
        if (!should_we_balance(s, lb, env)) {
            *continue_balancing = false;
            exit = Exit::Balanced;
            break;
        }
        if (!counted) {
            ++lb.counters.balance_attempts;
            counted = true;
        }
        if (!holds_serialize && (sd.flags & SD_SERIALIZE) && idle != CpuIdleType::NewlyIdle) {
            if (lb.serialize_owner != exec_cpu && started < lb.serialize_until) {
                exit = Exit::Balanced;
                break;
            }
            holds_serialize = true;
        }
        const int group = sched_balance_find_src_group(s, lb, env);
        if (group < 0) {
            exit = Exit::Balanced;
            break;
        }
        const CpuId busiest = sched_balance_find_src_rq(s, lb, env, group);
        if (busiest == kNoCpu) {
            exit = Exit::Balanced;
            break;
        }
        env.src_cpu = busiest;
        ld_moved = 0;
        env.flags |= LBF_ALL_PINNED;
        bool redo = false;
        if (s.rq(busiest).nr_running > 1) {
            env.loop_max = std::min(static_cast<unsigned>(s.tunables.nr_migrate), s.rq(busiest).nr_running);
            for (;;) {  // more_balance:
                const int moved = detach_tasks(s, lb, env);
                if (moved) {
                    attach_tasks(s, lb, env, out);
                    ld_moved += moved;
                }
                if (env.flags & LBF_NEED_BREAK) {
                    env.flags &= ~LBF_NEED_BREAK;
                    continue;
                }
                // Tasks that could not come here may go to another CPU of
                // our group: the same source, a new destination.
                if ((env.flags & LBF_DST_PINNED) && env.imbalance > 0) {
                    env.cpus.reset(env.dst_cpu);
                    env.dst_cpu = env.new_dst_cpu;
                    env.flags &= ~LBF_DST_PINNED;
                    env.loop = 0;
                    env.loop_break = kNrMigrateBreak;
                    continue;
                }
                break;
            }
            // Affinity kept us from balancing: the level above sees this
            // group as imbalanced.
            if (bool* imb = parent_group_imbalance(s, lb, env);
                imb && (env.flags & LBF_SOME_PINNED) && env.imbalance > 0)
                *imb = true;
            if (env.flags & LBF_ALL_PINNED) {
                env.cpus.reset(busiest);
                if (!env.cpus.is_subset_of(dst_grpmask(lb, env))) {
                    env.loop = 0;
                    env.loop_break = kNrMigrateBreak;
                    redo = true;
                } else {
                    exit = Exit::AllPinned;
                    break;
                }
            }
        }
        if (redo)
            continue;

        if (!ld_moved) {
            // Newly-idle attempts are too frequent to count, and a misfit
            // waiting for its active balance is no failure of load balancing.
            if (idle != CpuIdleType::NewlyIdle && env.migration_type != MigrationType::Misfit)
                ++rt.nr_balance_failed;
            if (need_active_balance(s, lb, env)) {
                const TaskId curr = s.rq(busiest).curr;
                if (curr == kNoTask || !s.task(curr).cpus_allowed.test(this_cpu)) {
                    exit = Exit::OnePinned;
                    break;
                }
                env.flags &= ~LBF_ALL_PINNED;
                CpuLbState& b = lb.cpu(busiest);
                if (!b.active_balance) {
                    b.active_balance = true;
                    b.push_cpu = this_cpu;
                    active_balance = true;
                    out.active.push_back({busiest, this_cpu});
                    ++lb.counters.active_requests;
                }
            }
        } else {
            rt.nr_balance_failed = 0;
        }
        // We were unbalanced: look again soon.
        if (!active_balance || need_active_balance(s, lb, env))
            rt.balance_interval = static_cast<unsigned>(sd.min_interval);
        break;
    }

    if (exit != Exit::Done) {
        if (exit == Exit::Balanced) {
            // Balanced despite affinity: the level above may stop treating
            // this group as imbalanced, unless everything here was pinned.
            if (bool* imb = parent_group_imbalance(s, lb, env); imb && !(env.flags & LBF_ALL_PINNED))
                *imb = false;
        }
        if (exit != Exit::OnePinned)
            rt.nr_balance_failed = 0;
        ld_moved = 0;
        // Newly-idle balancing ignores intervals, and a misfit migration says
        // nothing about how busy the domain is: neither backs off.
        if (idle != CpuIdleType::NewlyIdle && env.migration_type != MigrationType::Misfit) {
            if (((env.flags & LBF_ALL_PINNED) && rt.balance_interval < kMaxPinnedInterval) ||
                rt.balance_interval < static_cast<unsigned>(sd.max_interval))
                rt.balance_interval *= 2;
        }
    }
    if (holds_serialize) {
        lb.serialize_owner = exec_cpu;
        lb.serialize_until = std::max(lb.serialize_until, started + env.cost);
    }
    out.cost += env.cost;
    return ld_moved;
}

TaskId active_balance_pick(SchedState& s, LoadBalanceState& lb, CpuId busiest, CpuId target)
{
    // The lowest domain of target that spans busiest.
    const std::vector<int>& chain = s.domains->domains_of(target);
    int pos = -1;
    for (std::size_t i = 0; i < chain.size() && pos < 0; ++i)
        if (s.domains->domain(chain[i]).span.test(busiest))
            pos = static_cast<int>(i);
    if (pos < 0)
        return kNoTask;
    LbEnv env = make_lb_env(s, target, pos, CpuIdleType::Idle);
    env.src_cpu = busiest;
    env.flags = LBF_ACTIVE_LB;
    env.stopper = true;
    list_prune(s, lb, busiest);
    // detach_one_task(): from the back of the list, the first that may go.
    for (TaskId p = lb.cpu(busiest).tasks_front; p != kNoTask; p = lb.link(p).next) {
        if (!can_migrate_task(s, lb, p, env))
            continue;
        sd_runtime(lb, target, pos).nr_balance_failed = 0;
        ++lb.counters.active_pushes;
        return p;
    }
    return kNoTask;
}

}  // namespace wb

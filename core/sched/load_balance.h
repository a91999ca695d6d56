// SPDX-License-Identifier: Apache-2.0
//
// The fair class's load balancer (kernel/sched/fair.c of the v7.3 merge
// window; wakeup-path.md §12): what keeps placements honest once tasks are
// queued. A task left waiting behind another while a CPU idles is pulled,
// as the kernel would pull it:
//
//   periodic     sched_balance_trigger() from a busy CPU's tick: each domain
//                whose interval has run out is balanced (sched_balance_domains),
//                bottom-up, by the one CPU of each group should_we_balance() picks
//   nohz         a busy tick kicks an idle CPU (nohz_balancer_kick), which
//                balances on behalf of every tickless idle CPU (nohz_idle_balance)
//   newly idle   a CPU about to idle pulls one task (sched_balance_newidle),
//                gated by avg_idle, the domains' max_newidle_lb_cost and NI_RANDOM
//   active       a running task cannot be pulled: the busiest CPU's stopper
//                pushes it (need_active_balance), e.g. a misfit on a small CPU
//
// One attempt (sched_balance_rq) finds the busiest group and runqueue
// (lb_stats.cpp), then detaches up to the imbalance and attaches on the
// balancing CPU. This code changes SchedState only (runqueues, PELT, SIS_UTIL
// budgets) and LoadBalanceState; what the engine must do as a result (kick a
// CPU, start a stopper, charge time) is returned in an LbOutcome.
//
// Where the model differs from the kernel, and why, is listed at the top of
// load_balance.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/rng.h"
#include "base/sim_time.h"
#include "sched/sched_state.h"
#include "sched/slow_path.h"

namespace wb {

// enum cpu_idle_type, ordered as in v6.10+ so that "idle" is non-zero.
enum class CpuIdleType { NotIdle, Idle, NewlyIdle };

// enum migration_type: what the imbalance counts.
enum class MigrationType { Load, Util, Task, Misfit };

// lb_env flags.
inline constexpr unsigned LBF_ALL_PINNED = 0x01;
inline constexpr unsigned LBF_NEED_BREAK = 0x02;
inline constexpr unsigned LBF_DST_PINNED = 0x04;
inline constexpr unsigned LBF_SOME_PINNED = 0x08;
inline constexpr unsigned LBF_ACTIVE_LB = 0x10;

// nohz_flags(cpu) bits.
inline constexpr unsigned NOHZ_BALANCE_KICK = 0x1;
inline constexpr unsigned NOHZ_STATS_KICK = 0x2;
inline constexpr unsigned NOHZ_NEWILB_KICK = 0x4;
inline constexpr unsigned NOHZ_NEXT_KICK = 0x8;
inline constexpr unsigned NOHZ_KICK_MASK = NOHZ_BALANCE_KICK | NOHZ_STATS_KICK | NOHZ_NEXT_KICK;

inline constexpr unsigned kNrMigrateBreak = 32;      // SCHED_NR_MIGRATE_BREAK
inline constexpr unsigned kMaxPinnedInterval = 512;  // MAX_PINNED_INTERVAL, ms

// The runtime half of struct sched_domain: one per CPU and domain, since
// each CPU has its own copy of every domain it belongs to.
struct SdRuntime {
    std::uint64_t last_balance = 0;  // jiffies
    unsigned balance_interval = 0;   // ms
    unsigned nr_balance_failed = 0;
    std::int64_t max_newidle_lb_cost = 0;      // ns
    std::uint64_t last_decay_max_lb_cost = 0;  // jiffies
    // Proportional newidle balance: attempts and successes, and the ratio
    // of the last 1024 attempts that NI_RANDOM throws its dice against.
    unsigned newidle_call = 512;
    unsigned newidle_success = 256;
    unsigned newidle_ratio = 512;
    Time newidle_stamp;
    // get_sd_balance_interval(not busy) of idle_interval_ms, in jiffies:
    // newidle balance asks for it on every idle entry, and balance_interval
    // (HZ and the maximum are fixed per run) seldom changes.
    unsigned idle_interval_ms = ~0u;
    std::uint64_t idle_interval = 0;
};

// What struct sched_group carries beyond SchedGroup's span and capacities.
struct GroupLbInfo {
    unsigned flags = 0;  // sg->flags: the flags of the child domain the group is
    int cores = 0;       // sg->cores
    unsigned weight = 0;  // sg->group_weight: CPUs in the span
    CpuId asym_prefer_cpu = kNoCpu;
    CpuMask balance_mask;    // group_balance_mask(sg): the CPUs whose own group this is
    bool imbalance = false;  // sgc->imbalance: affinity kept a lower level from balancing
};

struct CpuLbState {
    std::vector<SdRuntime> sd;           // parallel to SchedDomains::domains_of(cpu)
    std::vector<int> local_group;        // per chain position: index in domain.groups of this CPU's group
    std::uint64_t next_balance = 0;      // rq->next_balance, jiffies
    unsigned long misfit_task_load = 0;  // rq->misfit_task_load
    bool active_balance = false;         // a stopper push is pending
    CpuId push_cpu = kNoCpu;
    bool nohz_tick_stopped = false;  // in nohz.idle_cpus_mask
    bool nohz_idle = false;          // sd_llc->nohz_idle: not counted in nr_busy_cpus
    bool has_blocked_load = false;
    std::uint64_t last_blocked_load_update_tick = 0;
    unsigned nohz_flags = 0;
    // rq->cfs_tasks: the queued fair tasks, least recently queued or picked
    // first; the balancer takes from the front. Linked through
    // LoadBalanceState::links as the kernel's list is, so
    // that the engine's report of every enqueue, dequeue and pick moves an
    // entry with a few stores (cfs_tasks() copies it out).
    TaskId tasks_front = kNoTask;
    TaskId tasks_back = kNoTask;  // the kernel's list head: the most recent
};

// A task's entry in rq->cfs_tasks: one record per task, so that moving it
// touches one cache line.
struct CfsTasksLink {
    CpuId cpu = kNoCpu;     // whose list holds it
    TaskId prev = kNoTask;  // towards the front
    TaskId next = kNoTask;  // towards the back (the head)
    bool delayed = false;   // kept while the task sleeps as a delayed entity
};

struct NohzState {
    CpuMask idle_cpus_mask;
    int nr_cpus = 0;
    bool has_blocked_load = false;
    std::uint64_t next_blocked = 0;  // jiffies
    std::uint64_t next_balance = 0;  // jiffies
    bool needs_update = false;
};

// How many times each thing happened in a run: for tests and reports.
struct LbCounters {
    std::uint64_t balance_attempts = 0;  // sched_balance_rq() calls past should_we_balance()
    std::uint64_t tasks_moved = 0;       // queued tasks detached and attached
    std::uint64_t newidle_attempts = 0;
    std::uint64_t newidle_pulls = 0;
    std::uint64_t active_requests = 0;
    std::uint64_t active_pushes = 0;
    std::uint64_t ilb_kicks = 0;
};

struct LoadBalanceState {
    std::vector<CpuLbState> cpus;
    std::vector<std::vector<GroupLbInfo>> groups;  // per domain id, parallel to SchedDomain::groups
    NohzState nohz;
    bool overloaded = false;                      // rd->overloaded: some CPU has more than one runnable task
    std::uint64_t max_load_balance_interval = 1;  // jiffies: HZ x nr_cpus / 10
    // SD_SERIALIZE: one CPU at a time balances NUMA levels; the lock is held
    // for the modelled duration of the balance.
    Time serialize_until;
    CpuId serialize_owner = kNoCpu;
    Time cost_per_cpu;   // reading one CPU's runqueue statistics (remote_rq_access)
    Time cost_per_move;  // detaching and attaching one task (two runqueue locks)
    // Per task: its place in a cfs_tasks list, and p->max_allowed_capacity
    // (-1 unknown).
    std::vector<CfsTasksLink> links;
    std::vector<long> max_allowed_capacity;
    LbCounters counters;

    CpuLbState& cpu(CpuId c) { return cpus[static_cast<std::size_t>(c)]; }
    const CpuLbState& cpu(CpuId c) const { return cpus[static_cast<std::size_t>(c)]; }
    CfsTasksLink& link(TaskId p) { return links[static_cast<std::size_t>(p)]; }
    const CfsTasksLink& link(TaskId p) const { return links[static_cast<std::size_t>(p)]; }
};

// cpu's rq->cfs_tasks, front (least recent) first: for tests and reports.
std::vector<TaskId> cfs_tasks(const LoadBalanceState& lb, CpuId cpu);

// Checks cpu's list: linked both ways, every task queued on cpu in it, and
// no entry of a task not queued there but for a delayed entity whose
// dequeue is in cfs.delayed_dequeued (the entries the next pick or prune
// drops). On failure returns false and says why.
bool check_cfs_tasks(const SchedState& s, const LoadBalanceState& lb, CpuId cpu, std::string* why);

// Builds the balancer's state for s's machine and domains: intervals and
// newidle statistics as sd_init() sets them, group facts, an empty nohz mask.
LoadBalanceState make_load_balance_state(const SchedState& s);

// The jiffies the balancer counts in: a run starts on a machine that has
// been up (and idle) for an hour, so every domain is due for balancing and
// no decay is pending, as on a real machine, rather than all of them
// waiting out a first interval from a boot at time 0.
std::uint64_t lb_jiffies(const SchedState& s);

// What a balancing pass asks of the engine.
struct LbMove {
    TaskId p = kNoTask;
    CpuId src = kNoCpu;
    CpuId dst = kNoCpu;
};
struct LbActiveRequest {
    CpuId busiest = kNoCpu;
    CpuId push_cpu = kNoCpu;
};
struct LbOutcome {
    CpuId exec_cpu = kNoCpu;              // the CPU running the balancer (the nohz balancer for others)
    std::vector<LbMove> moved;            // queued tasks moved, in attach order
    std::vector<CpuId> resched;           // resched_curr() from an attach: the CPU must pick again
    std::vector<LbActiveRequest> active;  // stop_one_cpu_nowait(busiest, push to push_cpu)
    Time cost;                            // modelled duration of the work
};

// --- One balance attempt (the pieces are exposed for tests) --------------------

// struct sg_lb_stats.
struct SgLbStats {
    unsigned long avg_load = 0;
    unsigned long group_load = 0;
    unsigned long group_capacity = 0;
    unsigned long group_util = 0;
    unsigned long group_runnable = 0;
    unsigned int sum_nr_running = 0;
    unsigned int sum_h_nr_running = 0;
    unsigned int idle_cpus = 0;
    unsigned int group_weight = 0;
    GroupType group_type = GroupType::HasSpare;
    bool group_asym_packing = false;
    bool group_smt_balance = false;
    unsigned long group_misfit_task_load = 0;
};

// struct sd_lb_stats; groups are indexes into the domain's group list.
struct SdLbStats {
    int busiest = -1;
    int local = -1;
    unsigned long total_load = 0;
    unsigned long total_capacity = 0;
    unsigned long avg_load = 0;
    bool prefer_sibling = false;
    SgLbStats busiest_stat;
    SgLbStats local_stat;
};

// struct lb_env.
struct LbEnv {
    int sd = -1;                 // domain id
    int sd_pos = -1;             // its position in the balancing CPU's chain
    CpuId balance_cpu = kNoCpu;  // whose domain this is: the original dst
    CpuId src_cpu = kNoCpu;
    CpuId dst_cpu = kNoCpu;
    CpuIdleType idle = CpuIdleType::NotIdle;
    long imbalance = 0;
    unsigned flags = 0;
    unsigned loop = 0;
    unsigned loop_break = kNrMigrateBreak;
    unsigned loop_max = 0;
    MigrationType migration_type = MigrationType::Load;
    CpuId new_dst_cpu = kNoCpu;
    CpuMask cpus;               // env->cpus: the domain's CPUs still considered
    std::vector<TaskId> tasks;  // detached, last detached first (attach order)
    bool stopper = false;       // the stopper runs on src: its current task counts as preempted
    Time cost;                  // modelled duration of the attempt so far
};

// An environment for balance_cpu's domain at chain position sd_pos.
LbEnv make_lb_env(const SchedState& s, CpuId balance_cpu, int sd_pos, CpuIdleType idle);

// group_classify() for a group of a domain with this imbalance_pct.
GroupType group_classify(unsigned imbalance_pct, bool sg_imbalanced, const SgLbStats& sgs);

// update_sg_lb_stats() for group `gi` (index in the domain's groups).
void update_sg_lb_stats(const SchedState& s, const LoadBalanceState& lb, const LbEnv& env, const SdLbStats& sds, int gi,
                        SgLbStats& sgs, bool* sg_overloaded);

// update_sd_lb_stats(): every group's statistics, the busiest group, the
// root domain's overloaded flag and (not newly idle) the SIS_UTIL budget.
void update_sd_lb_stats(SchedState& s, LoadBalanceState& lb, LbEnv& env, SdLbStats& sds);

// calculate_imbalance(): the migration type and amount; needs sds.busiest.
void calculate_imbalance(const SchedState& s, const LoadBalanceState& lb, LbEnv& env, SdLbStats& sds);

// sched_balance_find_src_group(): the busiest group's index if the domain
// is imbalanced (env.imbalance set), else -1.
int sched_balance_find_src_group(SchedState& s, LoadBalanceState& lb, LbEnv& env);

// sched_balance_find_src_rq(): the busiest CPU of group `gi`, or kNoCpu.
CpuId sched_balance_find_src_rq(const SchedState& s, const LoadBalanceState& lb, const LbEnv& env, int gi);

// should_we_balance(): whether env.dst_cpu is the CPU of its group that
// balances this domain now.
bool should_we_balance(const SchedState& s, const LoadBalanceState& lb, const LbEnv& env);

// task_hot(): p would lose a warm cache by moving from env.src_cpu.
bool task_hot(const SchedState& s, TaskId p, const LbEnv& env);

// can_migrate_task(): may p move from env.src_cpu to env.dst_cpu? Updates
// env.flags (pinned bookkeeping) as the kernel does.
bool can_migrate_task(const SchedState& s, const LoadBalanceState& lb, TaskId p, LbEnv& env);

// detach_tasks(): detaches up to the imbalance from env.src_cpu into
// env.tasks; returns how many.
int detach_tasks(SchedState& s, LoadBalanceState& lb, LbEnv& env);

// need_active_balance(): after a failed attempt, push the running task?
bool need_active_balance(const SchedState& s, const LoadBalanceState& lb, const LbEnv& env);

// sched_balance_rq(): one attempt at domain position sd_pos of this_cpu.
// Returns the number of tasks moved; clears *continue_balancing when another
// CPU of the group is the one to balance.
int sched_balance_rq(SchedState& s, LoadBalanceState& lb, CpuId this_cpu, int sd_pos, CpuIdleType idle,
                     bool* continue_balancing, LbOutcome& out);

// get_sd_balance_interval(), in jiffies.
std::uint64_t get_sd_balance_interval(const SchedState& s, const LoadBalanceState& lb, const SchedDomain& sd,
                                      const SdRuntime& rt, bool cpu_busy);

// update_newidle_cost(): records a newidle attempt's cost and success, or
// (cost 0) decays max_newidle_lb_cost once a second. Returns whether it decayed.
bool update_newidle_cost(const SchedState& s, SdRuntime& rt, std::int64_t cost, unsigned success);

// --- The triggers --------------------------------------------------------------

// sched_balance_domains(): balances cpu's domains whose interval ran out.
void sched_balance_domains(SchedState& s, LoadBalanceState& lb, CpuId cpu, CpuIdleType idle, LbOutcome& out);

// sched_balance_update_blocked_averages(): decays cpu's idle PELT signals.
void sched_balance_update_blocked_averages(SchedState& s, LoadBalanceState& lb, CpuId cpu);

// sched_balance_newidle(): cpu has nothing to run. Returns > 0 when a fair
// task is now queued on it. `rng` throws NI_RANDOM's dice.
int sched_balance_newidle(SchedState& s, LoadBalanceState& lb, CpuId cpu, Rng& rng, LbOutcome& out);

// update_misfit_status(): at a pick or tick of p on cpu (p = kNoTask: idle).
void update_misfit_status(const SchedState& s, LoadBalanceState& lb, TaskId p, CpuId cpu);

// Active balance, run by the engine as the busiest CPU's stopper: the task
// to push (from the back of the busiest CPU's list; its running task counts
// as preempted), or kNoTask; resets the domain's nr_balance_failed on success.
TaskId active_balance_pick(SchedState& s, LoadBalanceState& lb, CpuId busiest, CpuId target);

// detach_task() / attach_task(): the two halves of move_queued_task_fair(),
// split so a batch leaves its source in detach order and joins its
// destination in the kernel's attach order (last detached first). detach
// accepts the source's running task (the stopper's push): it leaves cfs.curr
// set until the source picks again. A delayed (sleeping) task finishes its
// dequeue and is not attached. attach returns whether dst must reschedule.
bool detach_task(SchedState& s, LoadBalanceState& lb, TaskId p, CpuId dst);
bool attach_task(SchedState& s, LoadBalanceState& lb, TaskId p, CpuId dst);

// --- nohz idle balancing ---------------------------------------------------------

// nohz_balance_enter_idle()'s first entry of an idle period: cpu joins
// nohz.idle_cpus_mask (unless it has no domains).
void nohz_tick_stop(SchedState& s, LoadBalanceState& lb, CpuId cpu);

// nohz_balance_enter_idle(): cpu stopped its tick. Inline: the engine calls
// it at every switch to idle, and the tick is usually already stopped.
inline void nohz_balance_enter_idle(SchedState& s, LoadBalanceState& lb, CpuId cpu)
{
    CpuLbState& c = lb.cpu(cpu);
    // Each idle entry may leave load to decay.
    c.has_blocked_load = true;
    if (!c.nohz_tick_stopped)
        nohz_tick_stop(s, lb, cpu);
    lb.nohz.has_blocked_load = true;
}

// nohz_balancer_kick(): at a busy tick, the NOHZ_* flags to kick an idle
// balancer with (0: none). Takes cpu out of nohz idle first.
unsigned nohz_balancer_kick(SchedState& s, LoadBalanceState& lb, CpuId cpu);

// kick_ilb(): the idle CPU to send the kick to, or kNoCpu when none is free
// or it already has these flags pending.
CpuId kick_ilb(SchedState& s, LoadBalanceState& lb, CpuId this_cpu, unsigned flags);

// _nohz_idle_balance(): ilb balances (and, with NOHZ_STATS_KICK, updates
// the blocked load of) every tickless idle CPU, itself last.
void nohz_idle_balance(SchedState& s, LoadBalanceState& lb, CpuId ilb, unsigned flags, LbOutcome& out);

// nohz_newidle_balance(): after a failed newidle balance, whether cpu should
// update the idle CPUs' blocked load before it idles (NOHZ_NEWILB_KICK).
bool nohz_newidle_balance(const SchedState& s, const LoadBalanceState& lb, CpuId cpu);

// --- What the engine tells the balancer ---------------------------------------------

void lb_task_created(LoadBalanceState& lb, TaskId p);

// rq->cfs_tasks: list_del() and list_add() at the head. They and the
// reports below run at every enqueue, dequeue and pick, so they are inline:
// a call would cost as much as the few stores they make.

// Takes the entry e out of the links of c's list; its cpu and delayed mark stay.
inline void cfs_tasks_unlink(LoadBalanceState& lb, CpuLbState& c, const CfsTasksLink& e)
{
    (e.prev != kNoTask ? lb.link(e.prev).next : c.tasks_front) = e.next;
    (e.next != kNoTask ? lb.link(e.next).prev : c.tasks_back) = e.prev;
}

// Links p (entry e) in at the back of c's list: the kernel's list head.
inline void cfs_tasks_link_head(LoadBalanceState& lb, CpuLbState& c, TaskId p, CfsTasksLink& e)
{
    e.prev = c.tasks_back;
    e.next = kNoTask;
    (c.tasks_back != kNoTask ? lb.link(c.tasks_back).next : c.tasks_front) = p;
    c.tasks_back = p;
}

// always_inline: GCC kept it out of line in the engine's dequeue, where a
// call cost as much as the unlink itself.
[[gnu::always_inline]] inline void list_remove(LoadBalanceState& lb, TaskId p)
{
    CfsTasksLink& e = lb.link(p);
    if (e.cpu == kNoCpu)
        return;
    CpuLbState& c = lb.cpu(e.cpu);
    cfs_tasks_unlink(lb, c, e);
    e.delayed = false;
    e.cpu = kNoCpu;
}

inline void list_add_head(LoadBalanceState& lb, TaskId p, CpuId cpu)
{
    CfsTasksLink& e = lb.link(p);
    CpuLbState& c = lb.cpu(cpu);
    if (e.cpu == cpu && c.tasks_back == p) {
        e.delayed = false;
        return;
    }
    list_remove(lb, p);
    cfs_tasks_link_head(lb, c, p, e);
    e.cpu = cpu;
}

// Drops the entries of delayed tasks whose dequeue was finished since the
// last pick on cpu (cfs.delayed_dequeued) and forgets them (lb_state.cpp).
void lb_drop_dequeued_delayed(SchedState& s, LoadBalanceState& lb, CpuId cpu);

// p was enqueued on p.cpu (wakeup, fork); a task woken while still queued
// as a delayed entity (ttwu_runnable) keeps its place in the list.
inline void lb_task_enqueued(const SchedState& s, LoadBalanceState& lb, TaskId p)
{
    const Task& t = s.task(p);
    CfsTasksLink& e = lb.link(p);
    if (e.cpu == t.cpu && e.delayed) {
        // Woken in place: it never left the list.
        e.delayed = false;
    } else {
        list_add_head(lb, p, t.cpu);
    }
    // add_nr_running(): a second runnable task makes the root domain overloaded.
    if (s.rq(t.cpu).nr_running >= 2)
        lb.overloaded = true;
}

// p left cpu's queue by sleeping (`delayed`: it stays queued as a delayed
// entity) or exiting.
inline void lb_task_dequeued(LoadBalanceState& lb, TaskId p, CpuId cpu, bool delayed)
{
    if (!delayed) {
        list_remove(lb, p);
        return;
    }
    CfsTasksLink& e = lb.link(p);
    if (e.cpu == cpu)
        e.delayed = true;
}

// cpu switched to p (kNoTask: to idle, or kept its task); drops the entries
// of delayed tasks the pick (or anything since the last pick) dequeued.
inline void lb_task_picked(SchedState& s, LoadBalanceState& lb, CpuId cpu, TaskId p)
{
    if (!s.rq(cpu).cfs.delayed_dequeued.empty())
        lb_drop_dequeued_delayed(s, lb, cpu);
    // set_next_task_fair(): the picked task goes to the head.
    if (p != kNoTask && s.task(p).se.on_rq)
        list_add_head(lb, p, cpu);
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// The fair runqueue of one CPU as the kernel runs it (kernel/sched/fair.c,
// v7.3 merge window, flat EEVDF tree): enqueue and dequeue with delayed
// dequeue, placement with lag, the earliest-eligible-virtual-deadline pick,
// run-to-parity slice protection, wakeup preemption, and the PELT signals
// kept on the way (wakeup-path.md §10, §11, §13).
//
// How an engine drives it, mirroring core.c:
//
//   wakeup     set_task_cpu(); enqueue_task_fair(ENQUEUE_WAKEUP [| ENQUEUE_MIGRATED]);
//              if wakeup_preempt_fair() or rq.cfs.need_resched: pick_next_task_fair()
//   delayed    (task still queued as sched_delayed: no CPU selection)
//   wakeup     enqueue_task_fair(ENQUEUE_WAKEUP | ENQUEUE_DELAYED); wakeup_preempt_fair()
//   fork       post_init_entity_util_avg(); enqueue_task_fair(ENQUEUE_INITIAL);
//              wakeup_preempt_fair(WF_FORK)
//   sleep      dequeue_task_fair(DEQUEUE_SLEEP) on the running task; pick_next_task_fair()
//   tick       if task_tick_fair(): pick_next_task_fair()
//   exit       dequeue_task_fair(DEQUEUE_SLEEP); pick_next_task_fair(); task_dead_fair()
//   balance    move_queued_task_fair() for a waiting task
//
// Units: vruntime, deadline, vlag and vprot are virtual ns; the EEVDF sums
// (CfsRq::sum_weight, sum_w_vruntime) use the kernel's 64-bit fixed-point
// weights (nice 0 = 1024 << 10), so that V and eligibility round exactly as
// the kernel's do. SchedEntity::weight itself stays unscaled (nice 0 = 1024).
// PELT timestamps (SchedAvg::last_update_time) run one PELT period
// (1024 x 1024 ns) ahead of simulated time, so that 0 keeps meaning "not
// attached to a runqueue" at the start of a run, and a CPU below full
// capacity keeps a PELT clock of its own (Rq::pelt_clock, slower while busy):
// compare them with the runqueue's last_update_time, not with
// SchedState::now.
#pragma once

#include <cstdint>
#include <string>

#include "base/sim_time.h"
#include "sched/pelt.h"
#include "sched/sched_state.h"

namespace wb {

// Enqueue / dequeue flags, with kernel/sched/sched.h's values.
inline constexpr unsigned ENQUEUE_WAKEUP = 0x0001;
inline constexpr unsigned ENQUEUE_DELAYED = 0x0020;
inline constexpr unsigned ENQUEUE_MIGRATED = 0x00040000;
inline constexpr unsigned ENQUEUE_INITIAL = 0x00080000;
inline constexpr unsigned ENQUEUE_RQ_SELECTED = 0x00100000;  // accepted; the fair class does not read it

inline constexpr unsigned DEQUEUE_SLEEP = 0x0001;
inline constexpr unsigned DEQUEUE_MIGRATING = 0x0010;
inline constexpr unsigned DEQUEUE_DELAYED = 0x0020;
inline constexpr unsigned DEQUEUE_SPECIAL = 0x00010000;  // special task states: never delayed

inline constexpr unsigned long kNice0Load = 1024;       // unscaled weight of a nice-0 task
inline constexpr unsigned long kWeightIdlePrio = 3;     // SCHED_IDLE
inline constexpr unsigned kUtilEstMargin = 1024 / 100;  // util_est ignores changes within ~1%

// --- Weights and virtual time ------------------------------------------------

// sched_prio_to_weight[nice + 20], nice clamped to -20..19.
unsigned long sched_prio_to_weight(int nice);
// The weight a task gets from its policy and nice (set_load_weight()).
unsigned long task_load_weight(const Task& p);
// Sets p.se.weight from p.policy and p.nice. Call before p is first queued.
void set_load_weight(Task& p);
// The weight of a SCHED_NORMAL task of this nice; prefer set_load_weight(),
// which also knows SCHED_IDLE's weight.
inline unsigned long nice_to_weight(int nice)
{
    return sched_prio_to_weight(nice);
}

// calc_delta_fair() for an entity whose weight is not nice 0's.
std::uint64_t calc_delta_fair_weighted(std::uint64_t delta, const SchedEntity& se);

// Real time `delta` ns as virtual time of an entity of se's weight:
// delta * 1024 / weight, with the kernel's sched_prio_to_wmult arithmetic.
// Inline, as the fair class's hot paths call it for nice-0 tasks mostly,
// whose virtual time is their real time.
inline std::uint64_t calc_delta_fair(std::uint64_t delta, const SchedEntity& se)
{
    if (se.weight == kNice0Load)
        return delta;
    return calc_delta_fair_weighted(delta, se);
}

// --- EEVDF queue state ---------------------------------------------------------

// avg_vruntime(): V, the zero-lag point, the weighted average vruntime of the
// queued entities and curr (when curr is queued). Rounds down so that an
// entity at V is eligible. Also rebases cfs.zero_vruntime onto V, as the
// kernel does, which keeps the weighted sums small.
std::int64_t avg_vruntime(SchedState& s, CpuId cpu);
// The same V without rebasing, for readers.
std::int64_t cfs_avg_vruntime(const SchedState& s, CpuId cpu);

// entity_eligible(): lag >= 0, i.e. vruntime <= V, evaluated exactly
// (cross-multiplied) rather than against the rounded V.
bool entity_eligible(const SchedState& s, CpuId cpu, TaskId p);

// update_entity_lag(): stores p's vlag = V - vruntime, clamped to the
// virtual length of the longest queued slice plus a tick. A delayed entity
// keeps the larger of its old and new lag and, with DELAY_ZERO, never more
// than 0. Returns whether clamping moved vlag off V - vruntime.
bool update_entity_lag(SchedState& s, CpuId cpu, TaskId p);

// place_entity() (§11.2): vruntime and deadline for p joining cpu's queue.
// PLACE_LAG restores the saved lag, inflated by (W + w) / W so that it
// survives p's own pull on V; PLACE_REL_DEADLINE restores a deadline kept
// relative across migration; PLACE_DEADLINE_INITIAL gives a new task
// (ENQUEUE_INITIAL) half a slice. Does not queue p.
void place_entity(SchedState& s, CpuId cpu, TaskId p, unsigned flags);

// --- The fair class's runqueue operations --------------------------------------

// enqueue_task_fair(): queues p on cpu (p.cpu must be cpu, or kNoCpu for a
// task never placed). Maintains h_nr_queued / h_nr_runnable / h_nr_idle,
// rq.nr_running, the EEVDF sums, util_est, the root PELT signals (updated
// with the old counts before they change) and p's own PELT (attached to the
// runqueue when p is new or migrated). ENQUEUE_DELAYED re-enqueues a
// sched_delayed entity where it is (ttwu_runnable): it counts as runnable
// again, nr_running does not change. Throws std::logic_error when p is
// already queued and not delayed.
void enqueue_task_fair(SchedState& s, CpuId cpu, TaskId p, unsigned flags);

// dequeue_task_fair(): takes p off cpu. With DEQUEUE_SLEEP and DELAY_DEQUEUE
// an ineligible p stays queued as sched_delayed (h_nr_runnable drops,
// nr_running and h_nr_queued do not) and false is returned; otherwise p
// leaves and true is returned. A dequeue that is not a sleep keeps p's
// deadline relative to its vruntime (PLACE_REL_DEADLINE) for its next
// placement. DEQUEUE_DELAYED finishes the dequeue of a delayed entity; a
// non-sleep dequeue of a delayed entity does the same. DEQUEUE_MIGRATING
// detaches p's PELT contribution from the runqueue.
bool dequeue_task_fair(SchedState& s, CpuId cpu, TaskId p, unsigned flags);

// pick_eevdf(): the entity the kernel would pick, without side effects:
// the earliest deadline among eligible entities, the next buddy when
// PICK_BUDDY and eligible, curr while it is eligible and inside its
// protected slice (when `protect`). kNoTask when nothing is queued. May
// return a delayed entity; pick_next_task_fair() dequeues those.
TaskId pick_eevdf(const SchedState& s, CpuId cpu, bool protect);

// pick_next_task_fair(): __schedule()'s fair part. Picks with pick_eevdf(),
// finishing the dequeue of every delayed entity it meets, then switches:
// put_prev_entity() puts the previous task back in the tree if it is still
// queued, set_next_entity() makes the pick curr (exec_start = now,
// prev_sum_exec_runtime, a new protected slice vprot per §11.5). Sets
// rq.curr and the tasks' states (Running / Runnable) and clears
// rq.cfs.need_resched; idle bookkeeping (idle_stamp, avg_idle) is the
// engine's. Returns the task to run or kNoTask (idle). Picking the task
// already running changes nothing, as in the kernel.
TaskId pick_next_task_fair(SchedState& s, CpuId cpu);

// update_curr(): charges curr for the time since exec_start: vruntime by its
// weight, sum_exec_runtime, and a new deadline (vruntime + vslice) once the
// old one is reached. Returns whether a reschedule is due: the deadline
// passed or curr ran past vprot, unless it is the only queued task. The
// request is also recorded in rq.cfs.need_resched.
bool update_curr(SchedState& s, CpuId cpu);

// task_tick_fair(): update_curr() plus the PELT update of the runqueue and
// curr. Returns whether curr should be rescheduled.
bool task_tick_fair(SchedState& s, CpuId cpu);

// wakeup_preempt_fair() (§11.3): whether the just-queued `wakee` preempts
// cpu's current task. A fair wakee always preempts the idle task. Inside,
// update_curr() may find curr's slice over on its own; that reschedule is
// recorded in rq.cfs.need_resched but not returned here, so the result
// answers only "does this wakeup preempt". May finish the dequeue of delayed
// entities met by its pick, and may set the next buddy (NEXT_BUDDY, or the
// short-slice buddy of PREEMPT_SHORT).
bool wakeup_preempt_fair(SchedState& s, CpuId cpu, TaskId wakee, unsigned wake_flags);

// --- Migration ------------------------------------------------------------------

// migrate_task_rq_fair(): p (not queued, or queued only as a delayed entity,
// whose dequeue is finished first) is about to move to new_cpu: its PELT
// contribution leaves its old runqueue, its averages are aged to now when
// ATTACH_AGE_LOAD, and it will attach to the new runqueue at enqueue. Does
// not change p.cpu (set_task_cpu() does).
void migrate_task_rq_fair(SchedState& s, TaskId p, CpuId new_cpu);

// task_dead_fair(): a task that exited and has been switched out takes its
// PELT contribution off its runqueue (finishing a delayed dequeue first).
void task_dead_fair(SchedState& s, TaskId p);

// set_task_cpu(): migrate_task_rq_fair() when the CPU changes, then
// p.cpu = p.wake_cpu = new_cpu.
void set_task_cpu(SchedState& s, TaskId p, CpuId new_cpu);

// The load balancer's move of a queued, not running task: a migrating
// dequeue (lag and relative deadline kept, PELT detached), set_task_cpu()
// and an ENQUEUE_MIGRATED enqueue on new_cpu.
void move_queued_task_fair(SchedState& s, TaskId p, CpuId new_cpu);

// --- PELT around the queue --------------------------------------------------------

// init_entity_runnable_average() + post_init_entity_util_avg() (§10.5) for a
// task about to be woken for the first time on p.cpu: load at full weight,
// util extrapolated from the runqueue's and capped at half its spare capacity.
void post_init_entity_util_avg(SchedState& s, TaskId p);

// Decays cpu's root PELT signals to now with its current counts (the
// blocked-load update an idle CPU gets from nohz balancing). Call before
// reading cpu_load() of a CPU that has not been touched for a while.
void update_cfs_rq_load_avg(SchedState& s, CpuId cpu);

// The rate of cpu's PELT clock while busy, arch_scale_cpu_capacity() x
// arch_scale_freq_capacity() >> 10: the CPU's capacity, as the model has no
// DVFS (docs/model.md, "speed"). make_sched_state() keeps it in
// Rq::pelt_clock.
unsigned int pelt_capacity(const SchedState& s, CpuId cpu);

// util_est at the end of an activation (§10.5), on the task's averages:
// jumps up to util_avg at once; otherwise moves a quarter of the way down,
// except within ~1% of the estimate or when runnable_avg exceeds util_avg
// by more than that (the task did not get the CPU it wanted). The caller
// checks the UTIL_EST feature.
void util_est_update(SchedAvg& task_avg);

// --- Helpers for engines and tests --------------------------------------------------

// When update_curr() will next ask for a reschedule if nothing else happens:
// the wall time at which curr reaches min(deadline, vprot). Time::max() when
// nothing runs or curr is the only queued task. Lets an engine preempt at
// the exact end of a slice, as HRTICK would.
Time fair_resched_time(const SchedState& s, CpuId cpu);

// Checks what every operation above maintains on cpu: the counters against
// the tasks actually queued, the tree order, the weighted sums, the load
// weight, util_est, buddy and curr sanity. On failure returns false and, if
// `why` is not null, says what is wrong.
bool check_cfs_invariants(const SchedState& s, CpuId cpu, std::string* why);

}  // namespace wb

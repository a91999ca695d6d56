// SPDX-License-Identifier: Apache-2.0
//
// The run loop, task execution, schedule() and the tick, and the load
// balancer's triggers. Wakeups are in ttwu.cpp. docs/model.md describes the
// cost model these functions apply.
//
// Load balancing costs simulated time as load_balance.h models it: a busy
// CPU balancing from its tick spends it before its task continues; a CPU
// that pulls a task (newly idle, or a nohz balancer pulling for itself)
// spends it before the pulled task runs; a nohz balancer's kicks and stopper
// requests leave once its whole pass is done. A failed newly-idle balance
// and the rest of a nohz balancer's pass cost an idle CPU nothing: it idles
// either way. Kicking the nohz balancer is a function-call IPI (wakeup_ipi
// plus the balancer's idle exit), not counted in the metrics' IPIs; the
// reschedule IPIs an attach sends and the stopper's wakeup are.
//
// The small steps of a pipe wakeup's path (the dispatch of an event, a
// segment end, schedule()'s switch or idle entry, settling and the busy
// and waiting counts) are always inlined into the run loop and schedule():
// out of line, each level saved and restored up to six registers on every
// event, as much as many of them do. Their rare branches stay out of line
// (retime_siblings(), FutureEvents::rearm()).
#include "engine/simulator.h"

#include <algorithm>
#include <cassert>
#include <stdexcept>
#include <string>

#include "engine/cost_time.h"
#include "engine/data_movement.h"
#include "engine/idle_governor.h"
#include "engine/idle_wake.h"
#include "sched/placement_policy.h"
#include "sched/eevdf.h"
#include "sched/fair_select.h"
#include "sched/fair_util.h"
#include "sched/load_balance.h"
#include "sched/select_idle.h"
#include "topology/distance.h"
#include "workload/os_noise.h"

namespace wb {

namespace {

// ns x speed (or ns / speed), through a double as the model defines it.
// Most CPUs run at nominal speed, where the double round trip is exact and
// the division the slowest instruction of a segment: skip both.
std::int64_t scale_by_speed(std::int64_t ns, double speed, bool divide)
{
    // |ns| < 2^53, as one unsigned comparison (the sum wraps below zero).
    constexpr std::uint64_t kExact = std::uint64_t{1} << 53;
    if (speed == 1.0 && static_cast<std::uint64_t>(ns) + (kExact - 1) < 2 * kExact - 1)
        return ns;
    const double x = static_cast<double>(ns);
    return static_cast<std::int64_t>(divide ? x / speed : x * speed);
}

// A policy may change how the domains are built (smt-asym-packing).
DomainOptions domain_options(const SimOptions& options)
{
    DomainOptions out = options.domains;
    if (options.policy)
        options.policy->adjust_domain_options(out);
    return out;
}

}  // namespace

Simulator::Simulator(Machine machine, std::unique_ptr<Workload> workload, SimOptions options)
    : machine_(std::move(machine)),
      domains_(SchedDomains::build(machine_, domain_options(options))),
      user_workload_(workload.get()),
      workload_(OsNoise::wrap(std::move(workload), machine_)),
      opt_(std::move(options)),
      rng_(opt_.seed)
{
#ifndef NDEBUG
    checking_ = true;
#endif
    checking_ = checking_ || opt_.check;
    noise_ = dynamic_cast<OsNoise*>(workload_.get());
    s_ = make_sched_state(machine_, domains_, opt_.features);
    s_.policy = opt_.policy;
    lb_ = make_load_balance_state(s_);
    cpu_.resize(static_cast<std::size_t>(machine_.nr_cpus()));
    events_.set_timer_slots(2 * cpu_.size());
    for (CpuId cpu = 0; cpu < machine_.nr_cpus(); ++cpu) {
        events_.name_slot(segment_slot(cpu), kSegmentEnd, cpu);
        events_.name_slot(tick_slot(cpu), kTick, cpu);
    }
    waiting_.assign(cpu_.size(), 0);
    smt_siblings_.resize(cpu_.size());
    for (const CpuTopo& a : machine_.cpus)
        machine_.smt_mask(a.cpu).for_each([&](CpuId b) {
            if (b != a.cpu)
                smt_siblings_[static_cast<std::size_t>(a.cpu)].push_back(b);
        });
    metrics_.cpu_times.resize(cpu_.size());
    idle_cpus_ = machine_.nr_cpus();
    select_step_ns_ = cost_time(machine_, Cost::select_step).ns();
    select_cpu_ns_ = cost_time(machine_, Cost::select_cpu_examined).ns();
    switch_to_idle_ = cost_time(machine_, Cost::switch_to_idle);
    const double hz = machine_.costs[Cost::hz];
    tick_period_ = Time::ns(static_cast<std::int64_t>(1e9 / (hz > 0 ? hz : 250)));
    for (std::size_t i = 0; i < cpu_.size(); ++i) {
        cpu_[i].thread_speed = machine_.cpus[i].speed;
        cpu_[i].has_smt_siblings = !smt_siblings_[i].empty();
    }
    // Ticks of different CPUs are not aligned on real hardware; where each
    // CPU's tick falls is the run's one random draw that every workload sees.
    for (CpuExec& c : cpu_) {
        c.tick_phase = Time::ns(static_cast<std::int64_t>(rng_.below(static_cast<std::uint64_t>(tick_period_.ns()))));
        c.idle_history.fill(tick_period_.ns());  // a quiet CPU: idle until the next tick
    }
}

Simulator::~Simulator() = default;

void Simulator::check_after_event(CpuId cpu)
{
    std::string why;
    const bool all = (metrics_.events & 4095) == 0;
    bool ok = true;
    if (all) {
        ok = check_invariants(&why);
    } else if (cpu >= 0 && cpu < machine_.nr_cpus()) {
        ok = check_cfs_invariants(s_, cpu, &why);
    }
    if (!ok)
        throw std::logic_error("invariant broken at " + format_duration(s_.now) + " after event " +
                               std::to_string(metrics_.events) + ": " + why);
}

bool Simulator::check_invariants(std::string* why) const
{
    auto fail = [&](std::string what) {
        if (why)
            *why = std::move(what);
        return false;
    };
    for (CpuId cpu = 0; cpu < machine_.nr_cpus(); ++cpu)
        if (!check_cfs_invariants(s_, cpu, why) || !check_cfs_tasks(s_, lb_, cpu, why))
            return false;
    std::vector<unsigned int> pending(static_cast<std::size_t>(machine_.nr_cpus()), 0);
    std::vector<int> iowait(static_cast<std::size_t>(machine_.nr_cpus()), 0);
    for (const Task& t : s_.tasks) {
        const std::string who = "task " + std::to_string(t.id) + " (" + t.name + ")";
        if (t.in_iowait) {
            if (t.state != TaskState::Sleeping && t.state != TaskState::Waking)
                return fail(who + " sleeps in io_schedule() but is awake");
            if (!t.se.on_rq)  // a delayed sleeper counts once its dequeue finishes
                ++iowait[static_cast<std::size_t>(t.cpu)];
        }
        if (t.cpu != kNoCpu && !t.cpus_allowed.test(t.cpu))
            return fail(who + " is on CPU " + std::to_string(t.cpu) + " outside its affinity " +
                        t.cpus_allowed.to_cpulist());
        switch (t.state) {
        case TaskState::Running:
            if (t.cpu == kNoCpu || s_.rq(t.cpu).curr != t.id)
                return fail(who + " is Running but not the current task of its CPU");
            break;
        case TaskState::Runnable:
            if (!t.se.on_rq || t.se.sched_delayed)
                return fail(who + " is Runnable but not queued as runnable");
            break;
        case TaskState::Waking:
            if (t.se.on_rq)
                return fail(who + " is on a wake list and queued at once");
            ++pending[static_cast<std::size_t>(t.cpu)];
            break;
        case TaskState::Sleeping:
            if (t.se.on_rq && !t.se.sched_delayed)
                return fail(who + " sleeps but is queued as runnable");
            break;
        case TaskState::Dead:
            if (t.se.on_rq)
                return fail(who + " has exited but is still queued");
            break;
        }
    }
    for (CpuId cpu = 0; cpu < machine_.nr_cpus(); ++cpu)
        if (s_.rq(cpu).ttwu_pending != pending[static_cast<std::size_t>(cpu)])
            return fail("CPU " + std::to_string(cpu) + " counts " + std::to_string(s_.rq(cpu).ttwu_pending) +
                        " pending wakeups but " + std::to_string(pending[static_cast<std::size_t>(cpu)]) +
                        " tasks wait on its wake list");
    for (CpuId cpu = 0; cpu < machine_.nr_cpus(); ++cpu)
        if (s_.rq(cpu).nr_iowait != iowait[static_cast<std::size_t>(cpu)])
            return fail("CPU " + std::to_string(cpu) + " counts " + std::to_string(s_.rq(cpu).nr_iowait) +
                        " in nr_iowait but " + std::to_string(iowait[static_cast<std::size_t>(cpu)]) +
                        " tasks sleep there in io_schedule()");
    return true;
}

TaskId Simulator::create_task(const TaskSpec& spec)
{
    Task t;
    t.id = static_cast<TaskId>(s_.tasks.size());
    t.name = spec.name;
    t.group = spec.group;
    t.cpus_allowed = spec.cpus_allowed.empty() ? machine_.all_cpus() : spec.cpus_allowed;
    t.nr_cpus_allowed = t.cpus_allowed.weight();
    t.nice = spec.nice;
    t.policy = spec.policy;
    t.kthread = spec.kthread;
    t.working_set_bytes = spec.working_set_bytes;
    // Kernel threads have no address space of their own; a task without a
    // process gets one to itself (ids above any a workload names).
    t.mm = spec.kthread ? -1 : spec.process >= 0 ? spec.process : 1'000'000 + t.id;
    t.se.slice = static_cast<std::uint64_t>(s_.base_slice());
    set_load_weight(t);
    s_.tasks.push_back(std::move(t));
    task_.emplace_back();
    lb_task_created(lb_, s_.tasks.back().id);
    if (trace_) [[unlikely]]
        trace_->task_created(s_.tasks.back().id, s_.tasks.back().name, s_.tasks.back().nice);
    return s_.tasks.back().id;
}

// OsNoise::next_step() hands every task but its kworkers to the inner
// workload; asking that directly skips a virtual call per step. Which of
// the two a task belongs to is fixed once it is created, so it is looked
// up once, not at every step.
[[gnu::hot]] inline Step Simulator::workload_step(TaskId p)
{
    Workload*& from = task_[static_cast<std::size_t>(p)].steps_from;
    if (!from) [[unlikely]]
        from = noise_ && noise_->owns(p) ? static_cast<Workload*>(noise_) : user_workload_;
    return from->next_step(*this, p);
}

// OsNoise::done() is the inner workload's.
[[gnu::hot]] inline bool Simulator::workload_done() const
{
    return user_workload_->done();
}

// Inlined into the run loop, its only caller: the loop then saves registers
// once per run instead of once per event.
[[gnu::hot, gnu::always_inline]] inline void Simulator::dispatch(const Event& e)
{
    const CpuId cpu = e.target;
    // Most events end a segment: one compare instead of the jump table's
    // bounds test and indirect jump.
    if (e.kind == kSegmentEnd) [[likely]] {
        on_segment_end(cpu);
        return;
    }
    switch (e.kind) {
    case kSegmentEnd:
        break;
    case kWakeupArrive:
        on_wakeup_arrive(cpu, static_cast<TaskId>(e.arg));
        break;
    case kResched:
        on_resched(cpu);
        break;
    case kTick:
        on_tick(cpu);
        break;
    case kNohzKick:
        on_nohz_kick(cpu);
        break;
    case kActiveBalance:
        on_active_balance(cpu);
        break;
    case kSleepTimer:
        // The task's hrtimer fires on the CPU that armed it.
        wake_up_from_irq(static_cast<TaskId>(e.arg), cpu, 0);
        break;
    case kWorkloadTimer:
        workload_->on_timer(*this, e.arg);
        break;
    }
}

bool Simulator::run()
{
    run_until(opt_.time_limit);
    return finished_;
}

// Every CPU starts idle, in the state the governor picks for a quiet CPU.
// Cold and out of line: go_idle() inlined here for the start would sit in
// the middle of the run loop's code, in the instruction cache.
[[gnu::cold, gnu::noinline]] void Simulator::start()
{
    started_ = true;
    for (CpuId cpu = 0; cpu < machine_.nr_cpus(); ++cpu)
        go_idle(cpu);
    workload_->setup(*this);
}

[[gnu::hot]] bool Simulator::run_until(Time until)
{
    if (!started_)
        start();
    // Only this loop finishes a run, and it returns when it does: the loop
    // itself need not test finished_ on every event.
    if (finished_)
        return false;
    const Time stop = std::min(until, opt_.time_limit);
    Event e;
    while (events_.pop_due(stop, e)) {
        assert(e.at >= s_.now && "time never goes backwards");
        s_.now = e.at;
        ++metrics_.events;
        dispatch(e);
        if (checking_)
            check_after_event(e.target);
        if (workload_done()) [[unlikely]] {
            finished_ = true;
            end_time_ = s_.now;
            metrics_.events += events_.take_ghosts_before(e.at, e.seq);
            close_accounting();
            return false;
        }
    }
    metrics_.events += events_.take_ghosts_until(stop);
    end_time_ = std::max(s_.now, stop);
    return (!events_.empty() && events_.next_at() <= opt_.time_limit) || events_.ghost_due_by(opt_.time_limit);
}

bool Simulator::step_wakeup()
{
    const std::uint64_t before = wakeup_seq_;
    if (!started_)
        run_until(Time());
    while (!finished_ && wakeup_seq_ == before && !events_.empty()) {
        if (!run_until(events_.next_at()))
            break;
    }
    // Only cancelled events left (a workload that waits for nothing): they
    // still count, and move the clock, as they pass.
    if (!finished_ && wakeup_seq_ == before && events_.empty() && events_.has_ghosts())
        run_until(std::min(events_.latest_ghost(), opt_.time_limit));
    return wakeup_seq_ != before;
}

void Simulator::start_timer(Time at, std::int64_t token)
{
    events_.push({std::max(at, s_.now), 0, kWorkloadTimer, 0, 0, token});
}

void Simulator::note_data_read(std::uint64_t bytes, CpuId written_on)
{
    assert(current_cpu_ != kNoCpu && "note_data_read() is called from a running task's step");
    const CpuId from = written_on == kNoCpu ? current_cpu_ : written_on;
    if (from == current_cpu_) {
        // Still in this CPU's caches: the copy's cost is in the workload's own charge.
        metrics_.bytes_read[static_cast<std::size_t>(DistanceClass::SameCpu)] += bytes;
        return;
    }
    const DistanceClass d = distance_class(machine_, from, current_cpu_);
    metrics_.bytes_read[static_cast<std::size_t>(d)] += bytes;
    // The reader's misses to wherever the bytes sit, before its step runs.
    // A workload reads the same size over and over (a pipe's 4 KiB, a
    // message): the time of the last size read at each distance is kept,
    // which spares the division for the bandwidth.
    DataMoveMemo& memo = data_move_memo_[static_cast<std::size_t>(d)];
    if (memo.bytes != bytes) {
        memo.bytes = bytes;
        memo.time = data_move_time(machine_.costs, d, bytes);
    }
    cpu_[static_cast<std::size_t>(current_cpu_)].overhead_left += memo.time;
}

// ---------------------------------------------------------------------------
// Executing steps.

// SMT siblings busy at once share the core's pipelines.
[[gnu::hot, gnu::always_inline]] inline double Simulator::effective_speed(CpuId cpu) const
{
    const CpuExec& c = cpu_[static_cast<std::size_t>(cpu)];
    if (!c.busy_siblings)
        return c.thread_speed;
    return c.thread_speed * machine_.costs[Cost::smt_contention];
}

// Credits the running task with the work done since the segment (re)started.
[[gnu::hot, gnu::always_inline]] inline void Simulator::settle_progress(CpuId cpu)
{
    CpuExec& c = cpu_[static_cast<std::size_t>(cpu)];
    const TaskId p = s_.rq(cpu).curr;
    Time elapsed = s_.now - c.seg_start;
    const Time overhead = std::min(elapsed, c.overhead_left);
    c.overhead_left -= overhead;
    elapsed -= overhead;
    if (p != kNoTask) {
        TaskExec& t = task_[static_cast<std::size_t>(p)];
        const Time done = Time::ns(scale_by_speed(elapsed.ns(), c.speed, false));
        t.work_left = done >= t.work_left ? Time() : t.work_left - done;
    }
    c.seg_start = s_.now;
}

[[gnu::hot]] void Simulator::start_segment(CpuId cpu)
{
    CpuExec& c = cpu_[static_cast<std::size_t>(cpu)];
    const TaskId p = s_.rq(cpu).curr;
    c.speed = effective_speed(cpu);
    c.seg_start = s_.now;
    Time work = p != kNoTask ? task_[static_cast<std::size_t>(p)].work_left : Time();
    const Time duration = c.overhead_left + Time::ns(scale_by_speed(work.ns(), c.speed, true));
    events_.arm(segment_slot(cpu), s_.now + duration);
}

// `cpu` changed between busy and idle: its SMT siblings' segments run at a
// new speed. Out of line: inlined, it made every set_busy() save and restore
// the registers that settling and restarting a segment need, on machines
// without SMT too.
[[gnu::noinline]] void Simulator::retime_siblings(CpuId cpu)
{
    const int change = cpu_[static_cast<std::size_t>(cpu)].busy ? 1 : -1;
    for (CpuId other : smt_siblings_[static_cast<std::size_t>(cpu)])
        cpu_[static_cast<std::size_t>(other)].busy_siblings += change;
    for (CpuId other : smt_siblings_[static_cast<std::size_t>(cpu)]) {
        const CpuExec& c = cpu_[static_cast<std::size_t>(other)];
        if (!c.busy || s_.rq(other).curr == kNoTask)
            continue;
        settle_progress(other);
        start_segment(other);
    }
}

// Its callers (context_switch(), go_idle()) have just called
// note_rq_change() for `cpu` at this instant, which closed the
// idle-while-waiting interval that idle_cpus_ changes here.
[[gnu::hot, gnu::always_inline]] inline void Simulator::set_busy(CpuId cpu, bool busy)
{
    CpuExec& c = cpu_[static_cast<std::size_t>(cpu)];
    if (c.busy == busy)
        return;
    account_cpu_time(cpu);
    idle_cpus_ += busy ? -1 : 1;
    c.busy = busy;
    if (c.has_smt_siblings)
        retime_siblings(cpu);
}

// Closes the CPU's busy or idle interval at now. An idle interval is
// iowait if a task that slept here in io_schedule() still sleeps at its end.
[[gnu::hot, gnu::always_inline]] inline void Simulator::account_cpu_time(CpuId cpu)
{
    CpuExec& c = cpu_[static_cast<std::size_t>(cpu)];
    CpuTimes& times = metrics_.cpu_times[static_cast<std::size_t>(cpu)];
    const Time d = s_.now - c.last_change;
    if (c.busy) {
        times.busy += d;
    } else {
        times.idle += d;
        if (s_.rq(cpu).nr_iowait > 0) [[unlikely]]
            times.iowait += d;
    }
    c.last_change = s_.now;
}

// Inlined, with run_next_step(), into the run loop (see dispatch()).
[[gnu::hot, gnu::always_inline]] inline void Simulator::on_segment_end(CpuId cpu)
{
    CpuExec& c = cpu_[static_cast<std::size_t>(cpu)];
    c.overhead_left = Time();
    const TaskId p = s_.rq(cpu).curr;
    if (p == kNoTask)
        return;
    TaskExec& t = task_[static_cast<std::size_t>(p)];
    t.work_left = Time();
    t.in_step = false;
    run_next_step(cpu);
}

// Asks the workload what the running task does now, and does it. Inlined
// into its two callers, the run loop (three steps of four a pipe wakeup)
// and context_switch(): a call of its own saved six registers each time.
[[gnu::hot, gnu::always_inline]] inline void Simulator::run_next_step(CpuId cpu)
{
    const TaskId p = s_.rq(cpu).curr;
    current_cpu_ = cpu;
    const Step step = workload_step(p);
    current_cpu_ = kNoCpu;
    // Taken only now: the step may have created tasks, moving the tables.
    TaskExec& t = task_[static_cast<std::size_t>(p)];
    CpuExec& c = cpu_[static_cast<std::size_t>(cpu)];
    // Compute first, then Block: a switch made every step pay a jump
    // table's bounds test and indirect jump.
    if (step.kind == Step::Kind::Compute) [[likely]] {
        t.work_left = step.time;
        t.in_step = true;
        if (c.need_resched) {
            schedule(cpu, true);
            return;
        }
        start_segment(cpu);
        return;
    }
    if (step.kind == Step::Kind::Block) [[likely]] {
        block_task(cpu, p, t);
        return;
    }
    other_step(cpu, p, step);
}

// A task going to sleep: it is dequeued by schedule().
[[gnu::hot, gnu::always_inline]] inline void Simulator::block_task(CpuId cpu, TaskId p, TaskExec& t)
{
    t.blocked = true;
    Task& task = s_.task(p);
    task.state = TaskState::Sleeping;
    ++metrics_.voluntary_switches;
    metrics_.workload_voluntary_switches += !task.kthread;
    schedule_sleeping(cpu);
}

// try_to_wake_up()'s decrement of the nr_iowait of the CPU the task slept
// on: by the waker when the task moves, else by ttwu_do_activate() on that
// CPU. `on_cpu`: this runs on `cpu` itself, in the interrupt that ended its
// idle period, and irq_enter() classified that period while the sleeper
// still counted (tick_nohz_stop_idle()).
[[gnu::noinline]] void Simulator::end_iowait(CpuId cpu, Task& p, bool on_cpu)
{
    if (on_cpu && !cpu_[static_cast<std::size_t>(cpu)].busy)
        account_cpu_time(cpu);
    p.in_iowait = false;
    --s_.rq(cpu).nr_iowait;
}

// The rarer steps, out of line.
[[gnu::noinline]] void Simulator::other_step(CpuId cpu, TaskId p, Step step)
{
    TaskExec& t = task_[static_cast<std::size_t>(p)];
    switch (step.kind) {
    case Step::Kind::Compute:
    case Step::Kind::Block:
        break;  // run_next_step()'s
    case Step::Kind::BlockIo:
        // io_schedule(): once the sleep's dequeue is complete (at once, or
        // when a delayed dequeue finishes), the runqueue counts it in
        // nr_iowait until the wakeup.
        s_.task(p).in_iowait = true;
        block_task(cpu, p, t);
        return;
    case Step::Kind::Sleep:
        events_.push({s_.now + step.time, 0, kSleepTimer, cpu, 0, p});
        block_task(cpu, p, t);
        return;
    case Step::Kind::Yield:
        ++metrics_.yields;
        // yield_task_fair(): charge the run so far and push the deadline a
        // slice further, so that any other eligible task goes first.
        update_curr(s_, cpu);
        s_.task(p).se.deadline += static_cast<std::int64_t>(calc_delta_fair(s_.task(p).se.slice, s_.task(p).se));
        t.blocked = true;  // the next run starts with next_step(), after sched_yield() returns
        schedule(cpu, true);
        return;
    case Step::Kind::Exit:
        s_.task(p).state = TaskState::Dead;
        schedule(cpu, false);
        return;
    }
}

// ---------------------------------------------------------------------------
// schedule() and context switches.

[[gnu::hot]] void Simulator::schedule(CpuId cpu, bool preempted)
{
    CpuExec& c = cpu_[static_cast<std::size_t>(cpu)];
    c.need_resched = false;
    Rq& rq = s_.rq(cpu);
    const TaskId prev = rq.curr;
    if (prev != kNoTask) {
        settle_progress(cpu);
        Task& pt = s_.task(prev);
        if (pt.state == TaskState::Sleeping) {
            const bool left = dequeue_task_fair(s_, cpu, prev, DEQUEUE_SLEEP);
            lb_task_dequeued(lb_, prev, cpu, !left);
        } else if (pt.state == TaskState::Dead) {
            dequeue_task_fair(s_, cpu, prev, DEQUEUE_SLEEP | DEQUEUE_SPECIAL);
            lb_task_dequeued(lb_, prev, cpu, false);
        } else if (preempted) {
            task_[static_cast<std::size_t>(prev)].runnable_since = s_.now;
        }
    }
    const TaskId next = pick_next_task_fair(s_, cpu);
    // set_next_task_fair() only runs (and moves the task to the head of
    // the balancer's list) when the pick changes the task.
    lb_task_picked(s_, lb_, cpu, next != prev ? next : kNoTask);
    // An exited task leaves its runqueue's PELT once it is switched out.
    if (prev != kNoTask && s_.task(prev).state == TaskState::Dead)
        task_dead_fair(s_, prev);
    finish_schedule(cpu, prev, next, preempted);
}

// schedule() for a running task that goes to sleep (Block, Sleep): its
// state is known, so none of the tests for the others.
[[gnu::hot]] void Simulator::schedule_sleeping(CpuId cpu)
{
    cpu_[static_cast<std::size_t>(cpu)].need_resched = false;
    const TaskId prev = s_.rq(cpu).curr;
    settle_progress(cpu);
    const bool left = dequeue_task_fair(s_, cpu, prev, DEQUEUE_SLEEP);
    lb_task_dequeued(lb_, prev, cpu, !left);
    const TaskId next = pick_next_task_fair(s_, cpu);
    lb_task_picked(s_, lb_, cpu, next != prev ? next : kNoTask);
    finish_schedule(cpu, prev, next, false);
}

// schedule() on a CPU that runs the idle task (a wakeup's arrival): no
// previous task to put away, so none of its tests.
[[gnu::hot]] void Simulator::schedule_idle(CpuId cpu)
{
    cpu_[static_cast<std::size_t>(cpu)].need_resched = false;
    const TaskId next = pick_next_task_fair(s_, cpu);
    lb_task_picked(s_, lb_, cpu, next);
    finish_schedule(cpu, kNoTask, next, false);
}

// The rest of __schedule() once the fair class has picked: with nothing to
// run, pull before idling (pick_next_task_fair()'s newidle balance).
// Inlined into schedule(), with context_switch() and go_idle(): each of the
// three saved and restored its own registers on every switch.
[[gnu::hot, gnu::always_inline]] inline void Simulator::finish_schedule(CpuId cpu, TaskId prev, TaskId next,
                                                                        bool preempted)
{
    Time balance_cost;
    if (next == kNoTask) {
        // The newly-idle balance runs inside __schedule() with prev still
        // current: its sched_migrate_task events are prev's.
        if (trace_) [[unlikely]]
            trace_sched_prev_ = {cpu, prev};
        const int pulled = newidle_balance(cpu, &balance_cost);
        trace_sched_prev_ = {};
        if (pulled > 0) {
            next = pick_next_task_fair(s_, cpu);
            lb_task_picked(s_, lb_, cpu, next);
        }
        if (next == kNoTask) {
            if (trace_ && prev != kNoTask) [[unlikely]]
                trace_switch(cpu, prev, kNoTask);
            go_idle(cpu);
            // The switch into idle, and any newly-idle balance before it,
            // run with prev still on_cpu and interrupts off.
            if (prev != kNoTask) {
                const Time done = s_.now + switch_to_idle_ + balance_cost;
                cpu_[static_cast<std::size_t>(cpu)].switch_out_end = done;
                task_[static_cast<std::size_t>(prev)].on_cpu_until = done;
            }
            return;
        }
    }
    update_misfit_status(s_, lb_, next, cpu);
    if (next != prev && prev != kNoTask && preempted && s_.task(prev).state != TaskState::Dead) {
        ++metrics_.involuntary_switches;
        metrics_.workload_involuntary_switches += !s_.task(prev).kthread;
    }
    metrics_.switches_from_idle += prev == kNoTask;
    cpu_[static_cast<std::size_t>(cpu)].overhead_left += balance_cost;
    // Picking prev again is no switch: the kernel writes no sched_switch.
    if (trace_ && next != prev) [[unlikely]]
        trace_switch(cpu, prev, next);
    context_switch(cpu, prev, next);
}

[[gnu::hot, gnu::always_inline]] inline void Simulator::context_switch(CpuId cpu, TaskId prev, TaskId next)
{
    CpuExec& c = cpu_[static_cast<std::size_t>(cpu)];
    Task& nt = s_.task(next);
    TaskExec& t = task_[static_cast<std::size_t>(next)];
    nt.state = TaskState::Running;
    s_.rq(cpu).curr = next;
    note_rq_change(cpu);
    set_busy(cpu, true);
    if (next != prev)
        c.overhead_left += switch_cost(cpu, prev, next);
    if (!nt.kthread)
        c.fpu_owner = next;
    // Lazy TLB: kernel threads and the idle task borrow the last address
    // space, so only a switch into another process pays for it.
    if (nt.mm >= 0) {
        if (c.last_mm >= 0 && c.last_mm != nt.mm)
            c.overhead_left += cost_time(machine_, Cost::address_space_switch);
        c.last_mm = nt.mm;
    }

    // A task that last ran elsewhere moves its working set from there.
    if (nt.cache_warm_cpu != kNoCpu && nt.cache_warm_cpu != cpu)
        c.overhead_left += data_move_time(machine_, nt.cache_warm_cpu, cpu, nt.working_set_bytes);
    if (t.last_ran != kNoCpu && t.last_ran != cpu)
        ++metrics_.migrations[static_cast<std::size_t>(distance_class(machine_, t.last_ran, cpu))];
    t.last_ran = cpu;
    nt.cache_warm_cpu = cpu;

    if (t.runnable_since != Time() || t.latency_pending) {
        metrics_.run_delay.record((s_.now - t.runnable_since).ns());
        t.runnable_since = Time();
    }
    if (t.latency_pending) {
        metrics_.wakeup_latency.record((s_.now - t.wake_started).ns());
        t.latency_pending = false;
    }
    arm_tick(cpu);
    if (t.blocked || !t.in_step) {
        // Back from a sleep, or brand new: the program continues after its
        // system call, once the switch itself is done.
        t.blocked = false;
        settle_progress(cpu);
        run_next_step(cpu);
        return;
    }
    start_segment(cpu);
}

// What switch_to() into `next` costs, by the cases the kernel tells apart.
// Between two tasks: the whole switch, the previous task's FP/SIMD state
// saved and the next one's restored on its way to user space. From the idle
// task: nothing to put away or save, and nothing to restore either when the
// task was the last user task on this CPU and has not run elsewhere since
// (x86's fpregs_state_valid(), arm64's TIF_FOREIGN_FPSTATE left clear).
// Kernel threads never return to user space and restore nothing.
[[gnu::hot, gnu::always_inline]] inline Time Simulator::switch_cost(CpuId cpu, TaskId prev, TaskId next) const
{
    if (prev != kNoTask)
        return cost_time(machine_, Cost::context_switch);
    Time cost = cost_time(machine_, Cost::switch_from_idle);
    const bool registers_hold_it = cpu_[static_cast<std::size_t>(cpu)].fpu_owner == next &&
                                   task_[static_cast<std::size_t>(next)].last_ran == cpu;
    if (!s_.task(next).kthread && !registers_hold_it)
        cost += cost_time(machine_, Cost::fpu_restore);
    return cost;
}

[[gnu::hot, gnu::always_inline]] inline void Simulator::go_idle(CpuId cpu)
{
    CpuExec& c = cpu_[static_cast<std::size_t>(cpu)];
    Rq& rq = s_.rq(cpu);
    rq.curr = kNoTask;
    note_rq_change(cpu);
    c.overhead_left = Time();
    events_.cancel(segment_slot(cpu));
    events_.cancel(tick_slot(cpu));  // NO_HZ_IDLE: an idle CPU stops its tick
    c.tick_armed = false;
    rq.idle_stamp = s_.now;
    c.gov_since = s_.now;
    pick_idle_state(cpu);
    ++metrics_.idle_entries;
    set_busy(cpu, false);
    update_idle_core(s_, cpu);
    nohz_balance_enter_idle(s_, lb_, cpu);
}

// The cpuidle governor, simplified from menu: predict this idle period as
// the typical interval of the last eight (IdleHistory), and take the
// deepest state whose target residency it covers.
// Inlined into go_idle(): a CPU in a steady rhythm predicts the same period
// time after time, and the pick it keeps is cheaper than the call was.
[[gnu::hot, gnu::always_inline]] inline void Simulator::pick_idle_state(CpuId cpu)
{
    CpuExec& c = cpu_[static_cast<std::size_t>(cpu)];
    // Without a pattern menu goes by the next timer, which on an idle nohz
    // CPU is far; the mean of the history stands in for it.
    const std::int64_t predicted = c.idle_history.predicted_ns();
    if (predicted != c.picked_for_ns)
        repick_idle_state(c, predicted);
    s_.rq(cpu).idle_state = c.picked_state;
}

[[gnu::noinline]] void Simulator::repick_idle_state(CpuExec& c, std::int64_t predicted)
{
    c.picked_state = -1;
    for (std::size_t i = 0; i < machine_.idle_states.size(); ++i)
        if (i == 0 || static_cast<double>(predicted) >= machine_.idle_states[i].target_residency_ns)
            c.picked_state = static_cast<int>(i);
    c.picked_for_ns = predicted;
}

// An interrupt (the nohz balancer's kick) woke the CPU and it found nothing
// to run: the governor learns the period it cut short and picks a state
// again. The CPU never left the idle task, so avg_idle and idle_stamp stay.
void Simulator::reenter_idle(CpuId cpu)
{
    CpuExec& c = cpu_[static_cast<std::size_t>(cpu)];
    const std::int64_t d = std::max<std::int64_t>(0, (s_.now - c.gov_since - idle_exit_latency(cpu)).ns());
    c.idle_history.add(d);
    c.gov_since = s_.now;
    pick_idle_state(cpu);
    ++metrics_.idle_entries;
}

// Makes an idle CPU run schedule() after `delay` (an IPI's flight and its
// wake from the idle state), or marks a busy one for rescheduling.
void Simulator::kick_cpu(CpuId cpu, Time delay)
{
    CpuExec& c = cpu_[static_cast<std::size_t>(cpu)];
    if (c.resched_pending)
        return;
    c.resched_pending = true;
    events_.push({s_.now + delay, 0, kResched, cpu, 0, 0});
}

void Simulator::on_resched(CpuId cpu)
{
    CpuExec& c = cpu_[static_cast<std::size_t>(cpu)];
    c.resched_pending = false;
    Rq& rq = s_.rq(cpu);
    if (rq.curr == kNoTask) {
        // What woke it may have been pulled away meanwhile; schedule() then
        // balances and idles again.
        leave_idle(cpu);
        schedule(cpu, false);
        return;
    }
    if (c.need_resched)
        schedule(cpu, true);
}

// The CPU wakes from its idle state: avg_idle and the governor learn how
// long the period was, counted to the wake-up event, not to the end of the
// exit latency the state itself added.
[[gnu::hot, gnu::always_inline]] inline void Simulator::leave_idle(CpuId cpu)
{
    CpuExec& c = cpu_[static_cast<std::size_t>(cpu)];
    Rq& rq = s_.rq(cpu);
    const Time exit = idle_exit_latency(cpu);
    const std::int64_t d = std::max<std::int64_t>(0, (s_.now - rq.idle_stamp - exit).ns());
    rq.avg_idle += (d - rq.avg_idle) / 8;
    rq.avg_idle = std::min(rq.avg_idle, 2 * rq.max_idle_balance_cost);
    // The governor counts from its last pick, which a nohz kick may have renewed.
    const std::int64_t since_pick = std::max<std::int64_t>(0, (s_.now - c.gov_since - exit).ns());
    c.idle_history.add(since_pick);
    rq.idle_stamp = Time();
    rq.idle_state = -1;
    // What the CPU does from here (a balance, the switch to the woken task)
    // starts now: without this, settling the segment would count the idle
    // period as time spent on that work, and a switch from idle cost nothing.
    c.seg_start = s_.now;
}

[[gnu::hot, gnu::always_inline]] inline void Simulator::arm_tick(CpuId cpu)
{
    CpuExec& c = cpu_[static_cast<std::size_t>(cpu)];
    if (c.tick_armed)
        return;
    c.tick_armed = true;
    // The next tick of this CPU's grid after now. A CPU that idles and
    // wakes within one tick period re-arms the same grid point: keep it and
    // skip the 64-bit division.
    const std::int64_t period = tick_period_.ns();
    const std::int64_t now = s_.now.ns();
    if (!(c.next_tick.ns() > now && c.next_tick.ns() - period <= now && c.next_tick > c.tick_phase)) {
        const std::int64_t since = now - c.tick_phase.ns();
        c.next_tick = Time::ns(since < 0 ? c.tick_phase.ns() : c.tick_phase.ns() + (since / period + 1) * period);
    }
    events_.arm(tick_slot(cpu), c.next_tick);
}

void Simulator::on_tick(CpuId cpu)
{
    CpuExec& c = cpu_[static_cast<std::size_t>(cpu)];
    c.tick_armed = false;
    const TaskId curr = s_.rq(cpu).curr;
    if (curr == kNoTask)
        return;
    arm_tick(cpu);
    const bool resched = task_tick_fair(s_, cpu);
    update_misfit_status(s_, lb_, curr, cpu);
    // The balance softirq runs on the way out of the tick interrupt, before
    // any preemption it asked for.
    const Time cost = sched_balance_trigger(cpu);
    if (resched || c.need_resched) {
        settle_progress(cpu);
        c.overhead_left += cost;
        schedule(cpu, true);
    } else if (cost > Time()) {
        settle_progress(cpu);
        c.overhead_left += cost;
        start_segment(cpu);
    }
}

// ---------------------------------------------------------------------------
// Load balancing.

// sched_balance_trigger(): from a busy CPU's tick, kick a nohz balancer if
// the hints say so, then balance this CPU's domains if one is due. Returns
// the time the balance took on this CPU.
Time Simulator::sched_balance_trigger(CpuId cpu)
{
    if (domains_.domains_of(cpu).empty())
        return Time();
    if (const unsigned flags = nohz_balancer_kick(s_, lb_, cpu)) {
        // kick_ilb() sends its call through the same wake-list signal as a wakeup.
        if (const CpuId ilb = kick_ilb(s_, lb_, cpu, flags); ilb != kNoCpu)
            events_.push({s_.now + idle_wake(ilb).delay, 0, kNohzKick, ilb, 0, 0});
    }
    if (lb_jiffies(s_) < lb_.cpu(cpu).next_balance)
        return Time();
    LbOutcome out;
    out.exec_cpu = cpu;
    sched_balance_update_blocked_averages(s_, lb_, cpu);
    sched_balance_domains(s_, lb_, cpu, idle_cpu(s_.rq(cpu)) ? CpuIdleType::Idle : CpuIdleType::NotIdle, out);
    if (out.cost > Time())
        apply_balance(out, cpu, out.cost);
    return out.cost;
}

// sched_balance_newidle() for a CPU about to idle; *cost is the time the
// attempt took, spent before a pulled task runs.
[[gnu::hot]] int Simulator::newidle_balance(CpuId cpu, Time* cost)
{
    // Every idle entry comes here: reuse one outcome, cleared only after an
    // attempt (anything it holds came from one, and cost it).
    LbOutcome& out = newidle_out_;
    if (out.cost > Time()) {
        out.moved.clear();
        out.resched.clear();
        out.active.clear();
        out.cost = Time();
    }
    out.exec_cpu = cpu;
    const int pulled = sched_balance_newidle(s_, lb_, cpu, rng_, out);
    if (out.cost > Time())
        apply_balance(out, cpu, out.cost);
    *cost = out.cost;
    // nohz_run_idle_balance(): before idling, this CPU decays the idle CPUs'
    // blocked load itself, unless a kick will do it anyway.
    if (pulled <= 0 && nohz_newidle_balance(s_, lb_, cpu) && !(lb_.cpu(cpu).nohz_flags & NOHZ_KICK_MASK)) {
        LbOutcome stats;
        nohz_idle_balance(s_, lb_, cpu, NOHZ_STATS_KICK, stats);
    }
    return pulled;
}

// What a balancing pass on exec_cpu asks of the others, sent `delay` after
// now: a reschedule IPI to each CPU an attach preempts (and the idle exit
// of an idle one), and the stop work of each active balance.
void Simulator::apply_balance(const LbOutcome& out, CpuId exec_cpu, Time delay)
{
    for (const LbMove& m : out.moved) {
        note_rq_change(m.src);
        note_rq_change(m.dst);
        if (trace_) [[unlikely]]
            trace_migrate(exec_cpu, m.p, m.src, m.dst);
    }
    const Time ipi = cost_time(machine_, Cost::wakeup_ipi);
    for (CpuId cpu : out.resched) {
        CpuExec& c = cpu_[static_cast<std::size_t>(cpu)];
        const Rq& rq = s_.rq(cpu);
        if (cpu == exec_cpu) {
            // The balancing CPU sees its own pull when it is done.
            if (rq.curr != kNoTask)
                c.need_resched = true;
            continue;
        }
        if (rq.curr == kNoTask) {
            if (c.resched_pending || rq.ttwu_pending > 0)
                continue;
            const IdleWake wake = idle_wake(cpu);
            metrics_.ipis += wake.ipi;
            kick_cpu(cpu, delay + wake.delay);
            continue;
        }
        c.need_resched = true;
        if (!c.resched_pending)
            ++metrics_.ipis;
        kick_cpu(cpu, delay + ipi);
    }
    for (const LbActiveRequest& r : out.active) {
        ++metrics_.ipis;
        events_.push({s_.now + delay + ipi, 0, kActiveBalance, r.busiest, 0, 0});
    }
}

// The nohz balancer's kick arrives: balance for every tickless idle CPU,
// then run what was pulled here, or go back to idle.
void Simulator::on_nohz_kick(CpuId cpu)
{
    CpuLbState& c = lb_.cpu(cpu);
    const unsigned flags = c.nohz_flags & (NOHZ_KICK_MASK | NOHZ_NEWILB_KICK);
    c.nohz_flags &= ~(NOHZ_KICK_MASK | NOHZ_NEWILB_KICK);
    const Rq& rq = s_.rq(cpu);
    // Busy again by the time the IPI lands: the kick is dropped.
    if (!idle_cpu(rq) || !(flags & NOHZ_KICK_MASK))
        return;
    LbOutcome out;
    nohz_idle_balance(s_, lb_, cpu, flags, out);
    apply_balance(out, cpu, out.cost);
    if (rq.curr == kNoTask && rq.cfs.h_nr_queued > 0) {
        leave_idle(cpu);
        cpu_[static_cast<std::size_t>(cpu)].overhead_left += out.cost;
        schedule(cpu, false);
        return;
    }
    reenter_idle(cpu);
}

// active_load_balance_cpu_stop(): the stopper preempts the busiest CPU's
// task and pushes one task (from the back of its list, the preempted one
// included) to the CPU that asked. Two switches and a move, on busiest.
void Simulator::on_active_balance(CpuId busiest)
{
    CpuLbState& b = lb_.cpu(busiest);
    const CpuId target = b.push_cpu;
    b.active_balance = false;
    b.push_cpu = kNoCpu;
    Rq& rq = s_.rq(busiest);
    CpuExec& c = cpu_[static_cast<std::size_t>(busiest)];
    if (target == kNoCpu || rq.cfs.h_nr_queued == 0)
        return;
    const TaskId curr = rq.curr;
    const TaskId p = active_balance_pick(s_, lb_, busiest, target);
    const Time stopper = cost_time(machine_, Cost::context_switch) + lb_.cost_per_move;
    LbOutcome out;
    if (p != kNoTask)
        out.moved.push_back({p, busiest, target});

    if (curr == kNoTask) {
        // Idle with work queued (its wakeup kick in flight): the stopper's
        // wakeup brings it out of idle.
        if (p != kNoTask && detach_task(s_, lb_, p, target) && attach_task(s_, lb_, p, target))
            out.resched.push_back(target);
        apply_balance(out, busiest, Time());
        leave_idle(busiest);
        schedule(busiest, false);
        return;
    }
    settle_progress(busiest);
    c.overhead_left += stopper;
    if (p != curr) {
        if (p != kNoTask && detach_task(s_, lb_, p, target) && attach_task(s_, lb_, p, target))
            out.resched.push_back(target);
        apply_balance(out, busiest, Time());
        schedule(busiest, true);
        return;
    }
    // The running task itself: busiest puts it away and picks again before
    // it is attached to target.
    detach_task(s_, lb_, p, target);
    s_.task(p).state = TaskState::Runnable;
    task_[static_cast<std::size_t>(p)].runnable_since = s_.now;
    c.need_resched = false;
    const TaskId next = pick_next_task_fair(s_, busiest);
    lb_task_picked(s_, lb_, busiest, next);
    if (attach_task(s_, lb_, p, target))
        out.resched.push_back(target);
    apply_balance(out, busiest, Time());
    finish_schedule(busiest, p, next, true);
}

// ---------------------------------------------------------------------------
// Bookkeeping.

// Closes the busy/idle intervals still open when the workload finishes.
void Simulator::close_accounting()
{
    for (std::size_t i = 0; i < cpu_.size(); ++i)
        account_cpu_time(static_cast<CpuId>(i));
    note_rq_change(0);
    metrics_.runtime = total_runtime();
}

Time Simulator::total_runtime() const
{
    Time sum;
    for (const Task& t : s_.tasks)
        sum += Time::ns(static_cast<std::int64_t>(t.se.sum_exec_runtime));
    return sum;
}

// Accumulates the time some CPU sat idle while another had a task waiting,
// then refreshes `cpu`'s part of those counts after its runqueue changed.
[[gnu::hot, gnu::always_inline]] inline void Simulator::note_rq_change(CpuId cpu)
{
    if (idle_cpus_ > 0 && waiting_cpus_ > 0)
        metrics_.idle_while_waiting += s_.now - last_waiting_change_;
    last_waiting_change_ = s_.now;
    const Rq& rq = s_.rq(cpu);
    const bool waiting = rq.cfs.h_nr_runnable > (rq.curr != kNoTask ? 1u : 0u);
    char& flag = waiting_[static_cast<std::size_t>(cpu)];
    waiting_cpus_ += static_cast<int>(waiting) - static_cast<int>(flag);
    flag = waiting;
}

// Every enqueue of a wakeup or fork comes through here (ttwu.cpp).
[[gnu::hot]] void Simulator::mark_runnable(TaskId p)
{
    task_[static_cast<std::size_t>(p)].runnable_since = s_.now;
    lb_task_enqueued(s_, lb_, p);
}

}  // namespace wb

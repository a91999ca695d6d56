// SPDX-License-Identifier: Apache-2.0
//
// Simulator: one run of a workload on a machine under the simulated kernel.
// It owns the machine, its sched domains, the kernel state (SchedState), the
// event queue and the workload, and plays the parts of kernel/sched/core.c
// that decide when things happen: try_to_wake_up() and its wake lists and
// IPIs, schedule() and context switches, the tick, idle entry and exit, and
// the load balancer's triggers: the periodic balance from the tick, nohz
// idle balancing on an idle CPU the tick kicks, newly-idle balancing in
// schedule(), and the stopper's active push. What the fair class decides
// (where a task goes, who runs next, what to pull) is asked of
// fair_select.h, eevdf.h and load_balance.h.
//
// Time advances only through events; every cost comes from the machine's
// cost model (docs/model.md gives the formulas). A run is single-threaded
// and deterministic: the same machine, workload, options and seed give the
// same events, metrics and records, byte for byte.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "engine/future_events.h"
#include "engine/idle_governor.h"
#include "engine/kernel.h"
#include "engine/sched_event_sink.h"
#include "base/rng.h"
#include "metrics/run_metrics.h"
#include "sched/fair_select.h"
#include "sched/features.h"
#include "sched/load_balance.h"
#include "sched/sched_state.h"
#include "topology/machine.h"
#include "topology/sched_domains.h"
#include "workload/workload.h"

namespace wb {

class OsNoise;
class PlacementPolicy;

struct SimOptions {
    std::uint64_t seed = 1;
    FeatureSet features;
    DomainOptions domains;
    Time time_limit = Time::s(3600);  // stop a run that never finishes
    // The placement change the run is made under (policies/); null is
    // mainline. Not owned: it must outlive the Simulator.
    const PlacementPolicy* policy = nullptr;
    // Check the kernel state's invariants as the run goes (always on in
    // debug builds): the CPU an event touched after every event, everything
    // every 4096 events. A broken invariant throws std::logic_error.
    bool check = false;
};

class Simulator final : public Kernel {
public:
    Simulator(Machine machine, std::unique_ptr<Workload> workload, SimOptions options);
    ~Simulator() override;
    Simulator(const Simulator&) = delete;
    Simulator& operator=(const Simulator&) = delete;

    // Receives every wakeup's decision record as it is made. Without a sink
    // the selector records nothing.
    using RecordSink = std::function<void(const DecisionRecord&)>;
    void set_record_sink(RecordSink sink) { sink_ = std::move(sink); }
    // Receives the run's sched tracepoints (sched_event_sink.h), and every
    // decision record. Not owned; null detaches. Attach before run(): the
    // tasks created so far are announced to it here.
    void set_event_sink(SchedEventSink* sink);
    // Sees the state select_task_rq() is about to read, at every selection,
    // before anything is written: a viewer asks other policies there (what
    // if, session/what_if.h). Unset, a selection pays one test.
    using DecisionProbe =
        std::function<void(const SchedState&, const WakerContext&, TaskId p, CpuId prev, unsigned int wake_flags)>;
    void set_decision_probe(DecisionProbe probe) { probe_ = std::move(probe); }

    // Runs until the workload is done or the time limit; true if done.
    bool run();
    // Runs events up to simulated time `until` (or the end); true while more remain.
    bool run_until(Time until);
    // Runs until one more wakeup decision has been made; true if one was.
    bool step_wakeup();

    bool finished() const { return finished_; }

    // Every task is on exactly one runqueue or asleep, on a CPU it may use;
    // the counters equal what they count. On failure returns false and
    // says what is wrong in *why.
    bool check_invariants(std::string* why) const;
    Time elapsed() const { return end_time_; }  // when the workload completed (or now, if not yet)
    // Every task's sum_exec_runtime so far; RunMetrics::runtime holds it
    // once the run has ended.
    Time total_runtime() const;
    const SchedState& state() const { return s_; }
    const LoadBalanceState& load_balance() const { return lb_; }
    const RunMetrics& metrics() const { return metrics_; }
    const Workload& workload() const { return *user_workload_; }  // as given, without the OS noise around it
    std::uint64_t wakeup_count() const { return wakeup_seq_; }

    // Kernel, for the workload.
    TaskId create_task(const TaskSpec& spec) override;
    void wake_up_new_task(TaskId p, CpuId parent_cpu) override;
    void wake_up(TaskId p, unsigned int wake_flags) override;
    void wake_up_from_irq(TaskId p, CpuId cpu, unsigned int wake_flags) override;
    void start_timer(Time at, std::int64_t token) override;
    void note_data_read(std::uint64_t bytes, CpuId written_on) override;
    CpuId task_cpu(TaskId p) const override { return s_.task(p).cpu; }
    Time now() const override { return s_.now; }
    const Machine& machine() const override { return machine_; }
    Rng& rng() override { return rng_; }

private:
    enum EventKind {
        kSegmentEnd,
        kWakeupArrive,
        kResched,
        kTick,
        kNohzKick,
        kActiveBalance,
        kSleepTimer,
        kWorkloadTimer
    };

    // What a CPU is doing beyond its runqueue: the segment it executes.
    struct CpuExec {
        bool busy = false;   // running a task (or switching to one); false while the idle task runs
        Time seg_start;      // when the current segment (re)started
        Time overhead_left;  // kernel time still to spend before the task's work continues
        double speed = 1.0;  // work per ns now: thread speed x SMT contention
        // The machine's speed of this CPU's thread, and whether its core has
        // other threads (whose load changes `speed`): read at every segment
        // start, kept here beside `speed` instead of in the machine's tables.
        double thread_speed = 1.0;
        bool has_smt_siblings = false;
        // How many of its SMT siblings are busy (kept by set_busy()): while
        // any is, the thread runs at the contended speed.
        int busy_siblings = 0;
        bool tick_armed = false;
        bool need_resched = false;
        int last_mm = -1;              // the address space loaded on this CPU
        TaskId fpu_owner = kNoTask;    // the user task whose FP/SIMD registers this CPU holds (fpu_fpregs_owner_ctx)
        bool resched_pending = false;  // a kResched is in flight (idle CPU being kicked)
        Time tick_phase;               // offset of this CPU's tick from time 0
        Time next_tick;                // the grid point arm_tick() last chose
        Time last_change;              // for busy/idle accounting
        Time gov_since;                // when the current idle state was entered
        // The cpuidle governor's memory: the last idle periods, as the
        // menu governor's typical-interval detection keeps them.
        IdleHistory idle_history;
        // The idle state pick_idle_state() last chose, and for which
        // prediction (none yet: predictions are never negative).
        std::int64_t picked_for_ns = -1;
        int picked_state = -1;
        // When the switch into the idle task that began at the last idle
        // entry from a task reaches finish_task_switch(): until then the CPU
        // takes no wakeup IPI (interrupts are off in __schedule()).
        Time switch_out_end;
    };

    // What a task is doing beyond its sched entity.
    struct TaskExec {
        Time work_left;        // of the current Compute step, at nominal speed
        bool in_step = false;  // has an unfinished Compute step
        bool blocked = false;  // its last step was Block: the next run starts with next_step()
        Time wake_started;     // try_to_wake_up() of the wakeup being served; for wakeup latency
        bool latency_pending = false;
        Time runnable_since;  // for run delay
        CpuId last_ran = kNoCpu;
        unsigned int pending_flags = 0;  // wake flags of a wakeup waiting on a wake list
        // p->on_cpu after a block: the task stays on its CPU's switch into
        // idle until then (CpuExec::switch_out_end of that switch).
        Time on_cpu_until;
        // Who says what the task does next: the OS noise for its kworkers,
        // else the workload as given. Found at the task's first step (see
        // workload_step()).
        Workload* steps_from = nullptr;
    };

    // Event handling.
    void start();
    void dispatch(const Event& e);
    void on_segment_end(CpuId cpu);
    void on_wakeup_arrive(CpuId cpu, TaskId p);
    void on_resched(CpuId cpu);
    void on_tick(CpuId cpu);
    void on_nohz_kick(CpuId cpu);
    void on_active_balance(CpuId cpu);

    // Load balancing (load_balance.h) and what its outcome asks of the engine.
    Time sched_balance_trigger(CpuId cpu);
    int newidle_balance(CpuId cpu, Time* cost);
    void apply_balance(const LbOutcome& out, CpuId exec_cpu, Time delay);

    // Execution of the running task's steps.
    void run_next_step(CpuId cpu);
    void block_task(CpuId cpu, TaskId p, TaskExec& t);
    void other_step(CpuId cpu, TaskId p, Step step);
    Step workload_step(TaskId p);
    bool workload_done() const;
    void start_segment(CpuId cpu);
    void retime_siblings(CpuId cpu);
    void settle_progress(CpuId cpu);
    double effective_speed(CpuId cpu) const;
    void set_busy(CpuId cpu, bool busy);
    void account_cpu_time(CpuId cpu);
    void end_iowait(CpuId cpu, Task& p, bool on_cpu);

    // core.c: scheduling.
    void schedule(CpuId cpu, bool preempted);
    void schedule_idle(CpuId cpu);
    void schedule_sleeping(CpuId cpu);
    void finish_schedule(CpuId cpu, TaskId prev, TaskId next, bool preempted);
    void context_switch(CpuId cpu, TaskId prev, TaskId next);
    void go_idle(CpuId cpu);
    void pick_idle_state(CpuId cpu);
    void repick_idle_state(CpuExec& c, std::int64_t predicted);
    void reenter_idle(CpuId cpu);
    void leave_idle(CpuId cpu);
    void kick_cpu(CpuId cpu, Time delay);
    void arm_tick(CpuId cpu);
    Time idle_exit_latency(CpuId cpu) const;
    int core_idle_state(CpuId cpu, int state) const;
    // How an idle CPU is woken: its delay (the signal, then the idle exit)
    // and whether the signal is an IPI.
    struct IdleWake {
        Time delay;
        bool ipi;
    };
    IdleWake idle_wake(CpuId cpu) const;
    Time switch_cost(CpuId cpu, TaskId prev, TaskId next) const;

    // core.c: wakeups.
    void ttwu_queue(const WakerContext& waker, TaskId p, CpuId cpu, unsigned int wake_flags);
    bool ttwu_queue_cond(CpuId waker_cpu, CpuId cpu) const;
    void queue_on_wakelist(CpuId waker_cpu, TaskId p, CpuId cpu, unsigned int wake_flags);
    bool ttwu_on_cpu(const WakerContext& waker, TaskId p, unsigned int wake_flags, std::optional<DecisionRecord>& rec);
    Time after_switch_out(CpuId cpu, Time sent, Time delay) const;
    Time landing_in_switch(CpuId cpu, Time at, Time done) const;
    CpuId select_in_window(const WakerContext& waker, TaskId p, CpuId prev, unsigned int* wake_flags,
                           DecisionRecord* rec, WakePath* path);
    Time selection_end() const;
    void ttwu_do_activate(CpuId cpu, TaskId p, unsigned int wake_flags, bool on_target);
    void activate_woken(CpuId cpu, TaskId p, unsigned int wake_flags);
    void charge_waker(CpuId cpu, Time cost);
    CpuId select(const WakerContext& waker, TaskId p, CpuId prev, unsigned int* wake_flags, DecisionRecord* rec,
                 WakePath* path);
    [[gnu::noinline]] void probe(const WakerContext& waker, TaskId p, CpuId prev, unsigned int wake_flags) const;
    std::optional<DecisionRecord> begin_decision(const WakerContext& waker, TaskId p, CpuId prev_cpu,
                                                 unsigned int wake_flags);
    DecisionRecord new_record(std::uint64_t seq, const WakerContext& waker, TaskId p, CpuId prev_cpu,
                              unsigned int wake_flags) const;
    void finish_decision(WakePath path, CpuId waker_cpu, CpuId prev_cpu, CpuId chosen,
                         std::optional<DecisionRecord>& rec);

    // Tracepoints for the event sink, out of line: each call site is a
    // null test of trace_ and nothing else when no sink is attached.
    void trace_decision(const DecisionRecord& rec);
    void trace_wakeup(CpuId cpu, TaskId p, CpuId target);
    void trace_migrate(CpuId cpu, TaskId p, CpuId orig, CpuId dest);
    void trace_switch(CpuId cpu, TaskId prev, TaskId next);

    void note_rq_change(CpuId cpu);
    void check_after_event(CpuId cpu);
    void close_accounting();
    void mark_runnable(TaskId p);

    Machine machine_;
    SchedDomains domains_;
    SchedState s_;
    LoadBalanceState lb_;
    LbOutcome newidle_out_;
    Workload* user_workload_;             // the workload as given (initialised before workload_ wraps it)
    std::unique_ptr<Workload> workload_;  // it, or OsNoise around it
    OsNoise* noise_ = nullptr;            // workload_ when it is OsNoise: steps and done() skip the wrapper
    SimOptions opt_;
    Rng rng_;
    FutureEvents events_;
    // Each CPU's two timer slots in events_.
    static int segment_slot(CpuId cpu) { return 2 * cpu; }
    static int tick_slot(CpuId cpu) { return 2 * cpu + 1; }
    std::vector<CpuExec> cpu_;
    std::vector<std::vector<CpuId>> smt_siblings_;  // the other threads of each CPU's core
    std::vector<TaskExec> task_;
    RunMetrics metrics_;
    // note_data_read()'s last size read at each distance, and its time.
    struct DataMoveMemo {
        std::uint64_t bytes = 0;  // 0 costs nothing, as data_move_time() says
        Time time;
    };
    std::array<DataMoveMemo, kDistanceClassCount> data_move_memo_{};
    RecordSink sink_;
    DecisionProbe probe_;
    SchedEventSink* trace_ = nullptr;
    // The CPU in __schedule()'s newly-idle balance and its prev, which the
    // runqueue no longer names as curr but the kernel's events do.
    struct SchedulingPrev {
        CpuId cpu = kNoCpu;
        TaskId prev = kNoTask;
    };
    SchedulingPrev trace_sched_prev_;
    std::uint64_t wakeup_seq_ = 0;
    // Selections still in their window (docs/model.md, Concurrent wakeups):
    // what a selection chose becomes visible to other CPUs' selections only
    // at its end. The one ending last, and any others still open when it
    // began; nothing else keeps them, and no event ends them.
    struct OpenSelection {
        Time end;
        TaskId p = kNoTask;
        CpuId waker = kNoCpu;
    };
    OpenSelection last_select_;
    std::vector<OpenSelection> open_selects_;
    // select_in_window()'s working lists, kept to spare an allocation a
    // selection: the next list of open selections, and the target effects
    // it hides while it decides (a decremented ttwu_pending or nr_running).
    struct HiddenEffect {
        Rq* rq;
        bool pending;
    };
    std::vector<OpenSelection> open_scratch_;
    std::vector<HiddenEffect> hidden_scratch_;
    std::int64_t select_step_ns_ = 0;  // Cost::select_step
    std::int64_t select_cpu_ns_ = 0;   // Cost::select_cpu_examined
    Time switch_to_idle_;              // Cost::switch_to_idle
    CpuId current_cpu_ = kNoCpu;  // the CPU whose task is in next_step(): the waker for wake_up()
    bool in_irq_ = false;         // wake_up() runs from an interrupt on current_cpu_
    bool checking_ = false;       // check invariants after events (debug builds, SimOptions::check)
    bool started_ = false;
    bool finished_ = false;
    Time end_time_;
    Time tick_period_;
    int idle_cpus_ = 0;
    int waiting_cpus_ = 0;       // CPUs with runnable tasks waiting behind curr
    std::vector<char> waiting_;  // per CPU: counted in waiting_cpus_
    Time last_waiting_change_;
};

}  // namespace wb

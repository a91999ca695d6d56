// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_replay.h"

#include <cstdio>
#include <memory>
#include <regex>

#include "policies/registry.h"
#include "sched/fair_select.h"
#include "sched/placement_policy.h"
#include "sched/sched_state.h"
#include "sched/select_idle.h"
#include "topology/distance.h"
#include "topology/machine.h"
#include "topology/sched_domains.h"
#include "topology/sd_flags.h"
#include "trace/trace_pelt.h"

namespace wb {

namespace {

constexpr unsigned kNice0Weight = 1024;
constexpr std::int64_t kMsNs = 1'000'000;

// --- Pass 1: what each wakeup led to -----------------------------------------------

// Where each sched_waking's task was queued, and whether its waker blocked
// soon enough after it to be taken as a WF_SYNC wakeup. Indexed by the
// sched_waking's line.
struct WakeOutcomes : TraceObserver {
    explicit WakeOutcomes(int lines, std::int64_t sync_window)
        : chosen(static_cast<std::size_t>(lines) + 2, -1), sync(static_cast<std::size_t>(lines) + 2), window(sync_window)
    {
    }

    void waking(const TraceState& state, int wakee) override
    {
        const TraceTask& t = state.task(wakee);
        if (t.waker < 0)
            return;
        if (static_cast<std::size_t>(t.waker) >= recent.size())
            recent.resize(static_cast<std::size_t>(t.waker) + 1);
        recent[static_cast<std::size_t>(t.waker)].push_back({t.waking_line, t.waking_ts});
    }
    void wakeup(const TraceState&, const TraceWakeup& w) override
    {
        if (!w.fork)
            chosen[static_cast<std::size_t>(w.waking_line)] = w.chosen;
    }
    void switched(const TraceState&, const TraceSwitch& s) override
    {
        if (s.prev < 0 || static_cast<std::size_t>(s.prev) >= recent.size())
            return;
        auto& made = recent[static_cast<std::size_t>(s.prev)];
        if (!s.implied && s.prev_state != PrevState::Runnable)
            for (const auto& [line, ts] : made)
                if (s.ts - ts <= window)
                    sync[static_cast<std::size_t>(line)] = 1;
        made.clear();
    }

    std::vector<int> chosen;
    std::vector<char> sync;
    std::int64_t window;
    std::vector<std::vector<std::pair<int, std::int64_t>>> recent;  // per waker: its wakings since it last ran out
};

// --- The per-policy state ------------------------------------------------------------

// A per-CPU kthread's name ends in its CPU: ksoftirqd/3, kworker/3:1 (an
// unbound worker is kworker/u8:2), migration/3, cpuhp/3.
int pinned_cpu_of(const std::string& comm)
{
    static const std::regex kPerCpu(R"(^(ksoftirqd|migration|cpuhp|rcuc|idle_inject|watchdog)/([0-9]+)$|^kworker/([0-9]+)(:|$))");
    std::smatch m;
    if (!std::regex_search(comm, m, kPerCpu))
        return -1;
    return std::stoi(m[2].matched ? m[2].str() : m[3].str());
}

struct Shadow {
    Shadow(const Machine& machine, std::unique_ptr<PlacementPolicy> p, const FeatureSet& feats, bool sync_mode)
        : policy(std::move(p)), domains(SchedDomains::build(machine, options_of(policy.get()))), sync(sync_mode)
    {
        s = make_sched_state(machine, domains, feats);
        s.policy = policy.get();
        for (CpuId cpu = 0; cpu < machine.nr_cpus(); ++cpu) {
            const int llc = domains.shortcuts(cpu).sd_llc;
            if (llc >= 0 && domains.domain(llc).has_shared &&
                std::find(llcs.begin(), llcs.end(), llc) == llcs.end())
                llcs.push_back(llc);
        }
        next_scan.assign(llcs.size(), 0);
    }
    static DomainOptions options_of(const PlacementPolicy* policy)
    {
        DomainOptions out;
        if (policy)
            policy->adjust_domain_options(out);
        return out;
    }

    std::unique_ptr<PlacementPolicy> policy;
    SchedDomains domains;
    SchedState s;
    bool sync;
    std::vector<int> llcs;  // the LLC domains with a shared object (nr_idle_scan, the idle-cores hint)
    std::vector<std::int64_t> next_scan;
};

class Replayer : public TraceObserver {
public:
    Replayer(const Machine& machine, const ReplayOptions& options, const WakeOutcomes& outcomes, bool times,
             ReplayResult& result, const ReplayRecordSink& record, const ReplayFrameSink& frames)
        : machine_(machine), options_(options), outcomes_(outcomes), times_(times), r_(result), record_(record),
          frames_(frames),
          pelt_(machine.nr_cpus()), pending_on_(static_cast<std::size_t>(machine.nr_cpus()))
    {
        for (const std::string& spec : options.policies) {
            r_.policies.push_back({spec, {}, {}});
            for (bool sync : {true, false})
                shadows_.push_back(std::make_unique<Shadow>(machine, make_policy(spec, "--policies"),
                                                            options.features, sync));
        }
    }

    TracePelt& pelt() { return pelt_; }

    // SIS_UTIL: nr_idle_scan from the LLC's utilisation, once per balance interval.
    void before_event(const TraceEvent& ev)
    {
        if (!times_ || ev.kind == TraceEventKind::LostEvents)
            return;
        for (auto& sh : shadows_)
            for (std::size_t i = 0; i < sh->llcs.size(); ++i) {
                if (ev.ts < sh->next_scan[i])
                    continue;
                const SchedDomain& d = sh->domains.domain(sh->llcs[i]);
                unsigned long sum = 0;
                d.span.for_each([&](CpuId cpu) { sum += pelt_.cpu_util(cpu, sh->s.rq(cpu).cpu_capacity_orig); });
                if (sh->next_scan[i] != 0)
                    update_idle_cpu_scan(sh->s, sh->llcs[i], sum);
                // Each CPU of the LLC balances it every min_interval (sd_weight
                // ms) while idle and busy_factor times less often while busy,
                // from staggered starts: some CPU of it does about once per
                // min_interval, which is the schedule taken here.
                sh->next_scan[i] = ev.ts + std::int64_t{d.min_interval > 0 ? d.min_interval : d.span_weight} * kMsNs;
            }
    }

    // The idle task took `cpu`: update_idle_core()'s chance to set the hint.
    void went_idle(const TraceState& state, int cpu)
    {
        for (auto& sh : shadows_) {
            for (CpuId sibling : machine_.smt_mask(cpu).to_vector())
                sync_rq(*sh, state, sibling);
            update_idle_core(sh->s, cpu);
        }
    }

    void waking(const TraceState& state, int p) override;

    void wakeup(const TraceState& state, const TraceWakeup& w) override
    {
        if (w.fork) {
            const TraceTask& t = state.task(w.wakee);
            r_.forks += options_.filter.matches(t.pid, t.comm);
            return;
        }
        clear_pending(w.wakee);
    }

    void lost(const TraceState& state, const TraceEvent&) override
    {
        for (std::size_t t = 0; t < pending_cpu_.size(); ++t)
            if (pending_cpu_[t] >= 0 && !state.task(static_cast<int>(t)).waking)
                clear_pending(static_cast<int>(t));
    }

private:
    void clear_pending(int task)
    {
        if (static_cast<std::size_t>(task) < pending_cpu_.size() && pending_cpu_[static_cast<std::size_t>(task)] >= 0) {
            --pending_on_[static_cast<std::size_t>(pending_cpu_[static_cast<std::size_t>(task)])];
            pending_cpu_[static_cast<std::size_t>(task)] = -1;
        }
    }

    void ensure_tasks(Shadow& sh, const TraceState& state)
    {
        while (sh.s.tasks.size() < state.tasks().size()) {
            Task t;
            t.id = static_cast<TaskId>(sh.s.tasks.size());
            t.cpus_allowed = machine_.all_cpus();
            t.nr_cpus_allowed = machine_.nr_cpus();
            t.name = "\x01";  // differs from every comm: sync_task() takes the first
            sh.s.tasks.push_back(std::move(t));
        }
    }

    void sync_rq(Shadow& sh, const TraceState& state, int cpu)
    {
        const TraceCpu& c = state.cpus()[static_cast<std::size_t>(cpu)];
        Rq& rq = sh.s.rq(cpu);
        rq.curr = c.curr >= 0 ? c.curr : kNoTask;
        // A CPU whose current task is not known (before its first line,
        // after lost events) is taken as busy.
        rq.nr_running = static_cast<unsigned>(std::max(c.nr_running, c.curr == kTraceUnknown ? 1 : 0));
        rq.ttwu_pending = pending_on_[static_cast<std::size_t>(cpu)];
        rq.cfs.h_nr_queued = rq.cfs.h_nr_runnable = rq.nr_running;
        rq.cfs.curr = rq.curr;
        rq.cfs.load_weight = std::uint64_t{rq.nr_running} * kNice0Weight;
        rq.cfs.avg = pelt_.cpu(cpu);
    }

    void sync_task(Shadow& sh, const TraceState& state, int index)
    {
        if (index < 0)
            return;
        const TraceTask& tt = state.task(index);
        Task& t = sh.s.task(index);
        if (t.name != tt.comm) {
            t.name = tt.comm;
            const int pinned = pinned_cpu_of(tt.comm);
            t.kthread = pinned >= 0;
            t.cpus_allowed = pinned >= 0 && pinned < machine_.nr_cpus() ? CpuMask::of(machine_.nr_cpus(), {pinned})
                                                                       : machine_.all_cpus();
            t.nr_cpus_allowed = t.cpus_allowed.weight();
        }
        t.cpu = tt.cpu;
        t.last_wakee = tt.last_wakee >= 0 ? tt.last_wakee : kNoTask;
        t.wakee_flips = tt.wakee_flips;
        t.wakee_flip_decay_ts = jiffies_at(sh.s, tt.wakee_flip_decay_ts);
        t.se.avg = pelt_.task(index);
        t.se.on_rq = tt.queued_on >= 0;
        t.state = tt.queued_on >= 0 ? TaskState::Runnable : TaskState::Sleeping;
    }

    static std::uint64_t jiffies_at(SchedState& s, std::int64_t ns)
    {
        const Time now = s.now;
        s.now = Time::ns(ns);
        const std::uint64_t j = s.jiffies_uncached();
        s.now = now;
        return j;
    }

    // The grid of a frame: the reference policy's state as it was asked.
    std::vector<ReplayCpu> frame_cpus(const Shadow& sh, const TraceState& state) const
    {
        std::vector<ReplayCpu> out(static_cast<std::size_t>(machine_.nr_cpus()));
        for (CpuId cpu = 0; cpu < machine_.nr_cpus(); ++cpu) {
            const TraceCpu& c = state.cpus()[static_cast<std::size_t>(cpu)];
            ReplayCpu& f = out[static_cast<std::size_t>(cpu)];
            f.curr_pid = c.curr >= 0 ? state.task(c.curr).pid : c.curr == kTraceIdle ? 0 : -1;
            f.curr_comm = c.curr >= 0 ? state.task(c.curr).comm : "";
            f.nr_running = sh.s.rq(cpu).nr_running;
            f.idle = available_idle_cpu(sh.s.rq(cpu));
            f.util_avg = sh.s.rq(cpu).cfs.avg.util_avg;
            f.llc_has_idle_cores = test_idle_cores(sh.s, cpu);
        }
        return out;
    }

    PlacedAt placed_at(const Shadow& sh, CpuId cpu, CpuId prev, CpuId waker_cpu) const
    {
        if (cpu == prev)
            return PlacedAt::Prev;
        if (cpu == waker_cpu)
            return PlacedAt::WakerCpu;
        return available_idle_cpu(sh.s.rq(cpu)) ? PlacedAt::OtherIdle : PlacedAt::OtherBusy;
    }

    const Machine& machine_;
    const ReplayOptions& options_;
    const WakeOutcomes& outcomes_;
    bool times_;
    ReplayResult& r_;
    const ReplayRecordSink& record_;
    const ReplayFrameSink& frames_;
    TracePelt pelt_;
    std::vector<std::unique_ptr<Shadow>> shadows_;  // per policy: sync inferred, then no sync
    std::vector<int> pending_cpu_;                  // per task: the CPU its wakeup in flight goes to
    std::vector<unsigned> pending_on_;              // per CPU: wakeups in flight to it
};

void Replayer::waking(const TraceState& state, int p)
{
    const TraceTask& t = state.task(p);
    const bool reported = options_.filter.matches(t.pid, t.comm);
    if (!t.waking_selects) {
        r_.not_selected += reported;
        return;
    }
    const CpuId kernel_cpu = outcomes_.chosen[static_cast<std::size_t>(t.waking_line)];
    const CpuId prev = t.wake_prev_cpu;
    const CpuId waker_cpu = t.waker_cpu;
    if (reported) {
        ++r_.wakeups_selected;
        if (kernel_cpu < 0)
            ++r_.skipped_no_outcome;
        else if (prev < 0 || waker_cpu < 0)
            ++r_.skipped_unknown;
        else if (pinned_cpu_of(t.comm) >= 0)
            ++r_.skipped_pinned;
    }
    const bool replay = reported && kernel_cpu >= 0 && prev >= 0 && waker_cpu >= 0 && pinned_cpu_of(t.comm) < 0;
    if (replay) {
        const bool sync = times_ && outcomes_.sync[static_cast<std::size_t>(t.waking_line)];
        ++r_.replayed;
        r_.sync_inferred += sync;
        const WakerContext waker{waker_cpu, t.waker >= 0 ? t.waker : kNoTask, t.waker >= 0};
        std::array<CpuId, 2> baseline_cpu{kNoCpu, kNoCpu};
        ReplayFrame frame;
        if (frames_) {
            frame = {t.waking_line, t.waking_ts, t.pid, t.comm, t.waker >= 0 ? state.task(t.waker).pid : 0,
                     waker_cpu, prev, kernel_cpu, sync, {}, {}};
        }
        for (std::size_t i = 0; i < shadows_.size(); ++i) {
            Shadow& sh = *shadows_[i];
            ensure_tasks(sh, state);
            sh.s.now = Time::ns(t.waking_ts);
            for (CpuId cpu = 0; cpu < machine_.nr_cpus(); ++cpu)
                sync_rq(sh, state, cpu);
            sync_task(sh, state, p);
            sync_task(sh, state, t.waker);
            unsigned int flags = WF_TTWU | (sh.sync && sync ? WF_SYNC : 0u);
            const bool want_record = (record_ || frames_) && sh.sync;
            DecisionRecord rec;
            WakePath path = WakePath::NotSelected;
            const CpuId cpu = select_task_rq(sh.s, waker, p, prev, &flags, want_record ? &rec : nullptr, &path);
            if (want_record) {
                rec.seq = r_.replayed;
                if (record_)
                    record_(r_.policies[i / 2].spec, rec, kernel_cpu, t.waking_line);
                if (frames_) {
                    if (i == 0)
                        frame.cpus = frame_cpus(sh, state);
                    frame.choices.emplace_back(r_.policies[i / 2].spec, std::move(rec));
                }
            }

            const std::size_t mode = i % 2;
            if (i < 2) {
                baseline_cpu[mode] = cpu;
                if (mode == 0)
                    ++r_.kernel_placed[static_cast<std::size_t>(placed_at(sh, kernel_cpu, prev, waker_cpu))];
            }
            ReplayFigures& f = mode == 0 ? r_.policies[i / 2].sync_inferred : r_.policies[i / 2].no_sync;
            const auto pi = static_cast<std::size_t>(path);
            ++f.wakeups;
            ++f.by_path[pi];
            f.same_cpu += cpu == kernel_cpu;
            f.same_class += distance_class(machine_, waker_cpu, cpu) == distance_class(machine_, waker_cpu, kernel_cpu);
            f.same_placed += placed_at(sh, cpu, prev, waker_cpu) == placed_at(sh, kernel_cpu, prev, waker_cpu);
            if (cpu != baseline_cpu[mode]) {
                ++f.differ_from_baseline;
                ++f.differ_from_baseline_by_path[pi];
            }
            if (cpu != kernel_cpu) {
                ++f.differ_by_path[pi];
                f.differ_kernel_kept_prev += kernel_cpu == prev;
                if (f.first.size() < kReplayListed)
                    f.first.push_back({t.waking_line, t.pid, t.comm, waker_cpu, prev, kernel_cpu, cpu,
                                       baseline_cpu[mode], path, sh.sync && sync});
            }
        }
        if (frames_)
            frames_(std::move(frame));
    }
    // Its wakeup is now in flight: the CPU it goes to is not idle to others.
    if (kernel_cpu >= 0) {
        if (static_cast<std::size_t>(p) >= pending_cpu_.size())
            pending_cpu_.resize(static_cast<std::size_t>(p) + 1, -1);
        clear_pending(p);
        pending_cpu_[static_cast<std::size_t>(p)] = kernel_cpu;
        ++pending_on_[static_cast<std::size_t>(kernel_cpu)];
    }
}

}  // namespace

ReplayResult replay_trace(const ParsedTrace& trace, const Machine& machine, const ReplayOptions& options,
                          const std::string& label, const ReplayRecordSink& record, const ReplayFrameSink& frames)
{
    check_trace_cpus(trace, machine, label);
    ReplayResult r;
    r.times = trace.stamps_in_ns;

    WakeOutcomes outcomes(trace.lines, options.sync_window_ns);
    {
        TraceState state(machine.nr_cpus(), trace.stamps_in_ns);
        for (const TraceEvent& ev : trace.events)
            state.apply(ev, &outcomes);
    }

    TraceState state(machine.nr_cpus(), trace.stamps_in_ns);
    Replayer replayer(machine, options, outcomes, trace.stamps_in_ns, r, record, frames);
    constexpr std::size_t kProgressEvery = 4096;
    for (std::size_t n = 0; n < trace.events.size(); ++n) {
        const TraceEvent& ev = trace.events[n];
        if (options.progress && n % kProgressEvery == 0 &&
            !options.progress(static_cast<double>(n) / static_cast<double>(trace.events.size()))) {
            r.cancelled = true;
            break;
        }
        const bool lost = ev.kind == TraceEventKind::LostEvents;
        const int curr_before = lost ? kTraceUnknown : state.cpus()[static_cast<std::size_t>(ev.cpu)].curr;
        replayer.before_event(ev);
        state.apply(ev, &replayer);
        if (lost)
            continue;
        if (trace.stamps_in_ns)
            replayer.pelt().after_event(state, ev, curr_before);
        if (curr_before != kTraceIdle && state.cpus()[static_cast<std::size_t>(ev.cpu)].curr == kTraceIdle)
            replayer.went_idle(state, ev.cpu);
    }
    r.anomalies = state.anomalies();
    return r;
}

}  // namespace wb

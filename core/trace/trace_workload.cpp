// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_workload.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "io/input_error.h"
#include "topology/machine.h"
#include "trace/trace_state.h"

namespace wb {

namespace {

// Which tasks the filter selects, by any comm they had at any event: a
// first pass, since a wakeup's waker and wakee must both be known selected
// when the second pass writes it.
class Selection final : public TraceObserver {
public:
    explicit Selection(const TaskFilter& filter) : filter_(filter) {}

    void waking(const TraceState& state, int wakee) override { note(state, wakee); }
    void wakeup(const TraceState& state, const TraceWakeup& w) override { note(state, w.wakee); }
    void switched(const TraceState& state, const TraceSwitch& s) override
    {
        note(state, s.prev);
        note(state, s.next);
    }
    void note(const TraceState& state, int task)
    {
        if (task < 0)
            return;
        if (selected.size() <= static_cast<std::size_t>(task))
            selected.resize(static_cast<std::size_t>(task) + 1, 0);
        const TraceTask& t = state.task(task);
        selected[static_cast<std::size_t>(task)] |= filter_.matches(t.pid, t.comm);
    }

    std::vector<char> selected;

private:
    const TaskFilter& filter_;
};

// A name the workload format and a shell both take: letters, digits, '.',
// '_' and '-'; anything else (spaces, '/', ':') becomes '_'.
std::string clean_name(const std::string& comm)
{
    std::string out;
    for (const char c : comm) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                        c == '_' || c == '-';
        out += ok ? c : '_';
    }
    return out.empty() ? "task" : out;
}

// Where a task is while off its CPU, as the timeline knows it.
enum class Off {
    NotYet,     // not seen running yet: asleep since the trace began, or forked and not run
    Preempted,  // switched out still runnable: no phase, the run goes on
    Blocked,    // switched out asleep: the next wakeup ends a sleep or a wait
    Unknown,    // its switch out was not traced: blocked if a wakeup comes, else preempted
    Dead,
};

struct Timeline {
    std::vector<JsonPhase> phases;
    double work_ns = 0;               // work not yet written as a run phase, in ns at nominal speed
    std::int64_t running_since = -1;  // -1: not running; else when work_ns was last brought up to date
    double speed = 1;                 // work per ns on its CPU since running_since
    int cpu = -1;
    Off off = Off::NotYet;
    std::int64_t off_since = 0;
    bool signalled = false;  // a selected waker's signal is written; the wakeup writes the wait
};

class Builder final : public TraceObserver {
public:
    Builder(const Machine& machine, const std::vector<char>& selected, const std::vector<std::string>& names,
            TraceWorkload& w, std::size_t max_phases)
        : machine_(machine), selected_(selected), names_(names), w_(w), max_(max_phases), lines_(selected.size()),
          running_(static_cast<std::size_t>(machine.nr_cpus()), kTraceIdle),
          busy_(static_cast<std::size_t>(machine.nr_cpus()), 0), siblings_(static_cast<std::size_t>(machine.nr_cpus()))
    {
        for (CpuId cpu = 0; cpu < machine.nr_cpus(); ++cpu) {
            const CpuMask core = machine.smt_mask(cpu);
            for (CpuId other = core.first(); other != kNoCpu; other = core.next(other))
                if (other != cpu)
                    siblings_[static_cast<std::size_t>(cpu)].push_back(other);
        }
    }

    // After each event: a selected task the state has current on the
    // event's CPU runs from now if the timeline had it off its CPU. This
    // catches the tasks a CPU's first line shows running and those a
    // lost-events marker hid the switch to. A CPU that went between busy
    // and idle changes its SMT siblings' speed.
    void after(const TraceState& state, const TraceEvent& ev)
    {
        if (ev.cpu < 0 || cut_)
            return;
        const int curr = state.cpus()[static_cast<std::size_t>(ev.cpu)].curr;
        if (curr >= 0 && is_selected(curr) && line(curr).running_since < 0)
            switch_in(curr, ev.cpu, ev.ts);
        const char busy = curr >= 0;
        if (busy_[static_cast<std::size_t>(ev.cpu)] == busy)
            return;
        busy_[static_cast<std::size_t>(ev.cpu)] = busy;
        for (const int sibling : siblings_[static_cast<std::size_t>(ev.cpu)])
            respeed(sibling, ev.ts);
    }

    void waking(const TraceState& state, int wakee) override
    {
        const TraceTask& t = state.task(wakee);
        // Woken while still queued (ttwu_runnable()): it never blocked.
        if (cut_ || !is_selected(wakee) || !t.waking_selects || t.waker < 0 || !is_selected(t.waker))
            return;
        Timeline& wl = line(wakee);
        if (wl.signalled)
            return;  // a second sched_waking before the wakeup: the first one's signal stands
        Timeline& sl = line(t.waker);
        // The waker's run to here and the signal; the wakee's wait later.
        if (!room(t.waker, 2, t.waking_ts) || !room(wakee, 2, t.waking_ts))
            return;
        flush_run(t.waker, t.waking_ts);
        JsonPhase ph;
        ph.kind = JsonPhase::Kind::Signal;
        ph.name = signal_of(wakee);
        sl.phases.push_back(ph);
        ++task(t.waker).signals;
        wl.signalled = true;
    }

    void wakeup(const TraceState& /*state*/, const TraceWakeup& w) override
    {
        if (!is_selected(w.wakee))
            return;
        if (w.fork) {
            forked(w);
            return;
        }
        if (!w.selected)
            return;  // ttwu_runnable(): the task had not blocked
        if (cut_) {
            ++w_.wakeups_cut;
            return;
        }
        Timeline& l = line(w.wakee);
        if (l.off == Off::Unknown) {
            // Its switch out was not traced: it blocked there.
            if (!room(w.wakee, 2, w.ts))
                return;
            block(w.wakee, w.ts);
        }
        if (!room(w.wakee, 1, w.ts))
            return;
        JsonPhase ph;
        if (l.signalled) {
            ph.kind = JsonPhase::Kind::Wait;
            ph.name = signal_of(w.wakee);
            ++task(w.wakee).waits;
            ++w_.wakeups_by_selected;
        } else {
            // The traced time asleep; a block shorter than the stamps'
            // resolution is still one: the shortest sleep there is.
            const std::int64_t since = l.off == Off::NotYet ? w_.first_ts : l.off_since;
            ph.kind = JsonPhase::Kind::Sleep;
            ph.duration = Time::ns(std::max<std::int64_t>(1, w.ts - since));
            ++task(w.wakee).sleeps;
            ++w_.wakeups_by_others;
        }
        l.phases.push_back(ph);
        l.signalled = false;
        l.off = Off::Preempted;  // runnable until it switches in
    }

    void switched(const TraceState& /*state*/, const TraceSwitch& s) override
    {
        if (cut_)
            return;
        if (s.prev >= 0 && s.prev != s.next && is_selected(s.prev)) {
            Timeline& l = line(s.prev);
            if (l.running_since >= 0)
                switch_out(s.prev, s.ts);
            l.off_since = s.ts;
            if (s.implied) {
                l.off = Off::Unknown;
            } else if (s.prev_state == PrevState::Runnable) {
                l.off = Off::Preempted;
            } else {
                if (!room(s.prev, 1, s.ts))
                    return;
                block(s.prev, s.ts);
                l.off = s.prev_state == PrevState::Dead ? Off::Dead : Off::Blocked;
            }
        }
        if (s.next >= 0 && is_selected(s.next) && line(s.next).running_since < 0)
            switch_in(s.next, s.cpu, s.ts);
    }

    void lost(const TraceState& /*state*/, const TraceEvent& marker) override
    {
        ++w_.lost_markers;
        if (cut_)
            return;
        // The state forgets what ran on these CPUs: so does the timeline,
        // keeping the run up to the marker.
        for (std::size_t i = 0; i < lines_.size(); ++i) {
            Timeline& l = lines_[i];
            if (l.running_since < 0 || (marker.cpu >= 0 && l.cpu != marker.cpu))
                continue;
            switch_out(static_cast<int>(i), marker.ts);
            l.off = Off::Unknown;
            l.off_since = marker.ts;
        }
        for (std::size_t cpu = 0; cpu < busy_.size(); ++cpu)
            if (marker.cpu < 0 || static_cast<int>(cpu) == marker.cpu)
                busy_[cpu] = 0;
    }

    // The trace's end: what still runs has run up to the last stamp.
    void finish(std::int64_t end_ts)
    {
        if (cut_)
            return;
        for (std::size_t i = 0; i < lines_.size(); ++i) {
            Timeline& l = lines_[i];
            if (!selected_[i])
                continue;
            if (l.running_since >= 0)
                switch_out(static_cast<int>(i), end_ts);
            if (l.phases.size() < max_)
                flush_run(static_cast<int>(i), end_ts);
        }
    }

    std::vector<Timeline>& lines() { return lines_; }
    std::map<int, bool> forked_by_selected;  // task index -> started by a fork phase
    std::map<int, TraceWorkloadTask> stats;  // task index -> counts

private:
    bool is_selected(int task) const
    {
        return task >= 0 && static_cast<std::size_t>(task) < selected_.size() && selected_[static_cast<std::size_t>(task)];
    }
    Timeline& line(int task) { return lines_[static_cast<std::size_t>(task)]; }
    TraceWorkloadTask& task(int index) { return stats[index]; }
    std::string signal_of(int wakee) const { return "wake-" + names_[static_cast<std::size_t>(wakee)]; }

    // `n` more phases fit in the task's timeline; else the whole workload
    // is cut here, for every task at once, so that each wait written has
    // its signal written too.
    bool room(int task, std::size_t n, std::int64_t ts)
    {
        if (cut_)
            return false;
        if (line(task).phases.size() + n <= max_)
            return true;
        cut_ = true;
        w_.cut = true;
        w_.cut_ts = ts;
        return false;
    }

    void switch_in(int task, int cpu, std::int64_t ts)
    {
        Timeline& l = line(task);
        l.running_since = ts;
        l.cpu = cpu;
        l.speed = speed_of(cpu);
        running_[static_cast<std::size_t>(cpu)] = task;
    }

    void switch_out(int task, std::int64_t ts)
    {
        Timeline& l = line(task);
        settle(l, ts);
        l.running_since = -1;
        if (running_[static_cast<std::size_t>(l.cpu)] == task)
            running_[static_cast<std::size_t>(l.cpu)] = kTraceIdle;
    }

    // A run phase is work at nominal speed, which the engine turns back into
    // time on whatever CPU runs it (docs/workload-json.md). The trace gives
    // time on a CPU, so the time is turned into work by the rule the engine
    // applies: the CPU's speed, times smt_contention while an SMT sibling is
    // busy. Without it, a run of SMT-contended time would be slowed twice.
    double speed_of(int cpu) const
    {
        double speed = machine_.cpus[static_cast<std::size_t>(cpu)].speed;
        for (const int sibling : siblings_[static_cast<std::size_t>(cpu)])
            if (busy_[static_cast<std::size_t>(sibling)]) {
                speed *= machine_.costs[Cost::smt_contention];
                break;
            }
        return speed;
    }

    static void settle(Timeline& l, std::int64_t now)
    {
        l.work_ns += static_cast<double>(now - l.running_since) * l.speed;
        l.running_since = now;
    }

    // A sibling of `cpu` went busy or idle: the selected task running on
    // `cpu`, if any, works at a new speed from now.
    void respeed(int cpu, std::int64_t now)
    {
        const int task = running_[static_cast<std::size_t>(cpu)];
        if (task < 0)
            return;
        Timeline& l = line(task);
        settle(l, now);
        l.speed = speed_of(cpu);
    }

    // The work since the last phase, as a run phase (none if zero).
    void flush_run(int task, std::int64_t now)
    {
        Timeline& l = line(task);
        if (l.running_since >= 0)
            settle(l, now);
        const auto work = static_cast<std::int64_t>(std::llround(l.work_ns));
        if (work <= 0)
            return;
        JsonPhase ph;
        ph.kind = JsonPhase::Kind::Run;
        ph.duration = Time::ns(work);
        l.phases.push_back(ph);
        TraceWorkloadTask& st = this->task(task);
        ++st.runs;
        st.run_ns += work;
        l.work_ns = 0;
    }

    // The task blocks: its run so far is one phase, and the signals it sent
    // within kTraceSyncWindowNs of CPU time before it were WF_SYNC ones.
    void block(int task, std::int64_t now)
    {
        flush_run(task, now);
        Timeline& l = line(task);
        std::int64_t cpu_time = 0;
        for (auto it = l.phases.rbegin(); it != l.phases.rend(); ++it) {
            if (it->kind == JsonPhase::Kind::Run)
                cpu_time += it->duration.ns();
            else if (it->kind == JsonPhase::Kind::Wait || it->kind == JsonPhase::Kind::Sleep)
                break;  // the block before this one
            if (cpu_time > kTraceSyncWindowNs)
                break;
            if (it->kind == JsonPhase::Kind::Signal && !it->sync) {
                it->sync = true;
                ++this->task(task).sync_signals;
            }
        }
    }

    void forked(const TraceWakeup& w)
    {
        Timeline& child = line(w.wakee);
        child.off = Off::Preempted;  // runnable from its fork
        if (cut_)
            return;
        if (w.waker >= 0 && is_selected(w.waker)) {
            if (!room(w.waker, 2, w.ts))
                return;
            flush_run(w.waker, w.ts);
            JsonPhase ph;
            ph.kind = JsonPhase::Kind::Fork;
            ph.name = names_[static_cast<std::size_t>(w.wakee)];
            line(w.waker).phases.push_back(ph);
            ++task(w.waker).forks;
            forked_by_selected[w.wakee] = true;
            return;
        }
        // Forked by a task left out: it starts with the run, after the time
        // the trace had it not yet there.
        if (w.ts > w_.first_ts) {
            JsonPhase ph;
            ph.kind = JsonPhase::Kind::Sleep;
            ph.duration = Time::ns(w.ts - w_.first_ts);
            child.phases.push_back(ph);
            ++task(w.wakee).sleeps;
        }
    }

    const Machine& machine_;
    const std::vector<char>& selected_;
    const std::vector<std::string>& names_;
    TraceWorkload& w_;
    std::size_t max_;
    std::vector<Timeline> lines_;
    std::vector<int> running_;  // per CPU: the selected task whose work is being counted there, or kTraceIdle
    std::vector<char> busy_;    // per CPU: a task (any, selected or not) is current there
    std::vector<std::vector<int>> siblings_;  // per CPU: its SMT siblings, itself left out
    bool cut_ = false;
};

// Names for the selected tasks: comm-pid, cleaned, made unique (a reused
// pid gets "-2", "-3", ...).
std::vector<std::string> task_names(const TraceState& state, const std::vector<char>& selected)
{
    std::vector<std::string> names(selected.size());
    std::set<std::string> used;
    for (std::size_t i = 0; i < selected.size(); ++i) {
        if (!selected[i])
            continue;
        const TraceTask& t = state.task(static_cast<int>(i));
        const std::string base = clean_name(t.comm) + "-" + std::to_string(t.pid);
        std::string name = base;
        for (int n = 2; used.count(name); ++n)
            name = base + "-" + std::to_string(n);
        used.insert(name);
        names[i] = name;
    }
    return names;
}

std::string selection_text(const TaskFilter& filter)
{
    if (!filter.active())
        return "the trace";
    std::string s;
    if (filter.comm)
        s += "--comm '" + filter.comm_text + "'";
    if (!filter.pids.empty())
        s += std::string(s.empty() ? "" : " or ") + "--pid";
    return s;
}

}  // namespace

TraceWorkload trace_to_workload(const ParsedTrace& trace, const Machine& machine, const TaskFilter& filter,
                                const std::string& label, const TraceWorkloadOptions& options)
{
    if (!trace.stamps_in_ns)
        throw InputError(Diagnostic{label, 0, 0, "",
                                    "the stamps are whole counts of a clock not in ns (counter, uptime or x86-tsc): "
                                    "a workload needs run and sleep lengths in time; expected a trace recorded with "
                                    "a ns trace_clock (local, global, mono)"});
    // The CPUs checked against the machine as `trace import` checks them.
    const TraceReport report = build_trace_report(trace, machine, filter, label);

    TraceWorkload w;
    w.first_ts = report.first_ts;
    w.last_ts = report.last_ts;
    w.tasks_seen = report.tasks_seen;

    Selection selection(filter);
    TraceState first(machine.nr_cpus(), true);
    for (const TraceEvent& ev : trace.events)
        first.apply(ev, &selection);
    for (std::size_t i = 0; i < first.tasks().size(); ++i)
        selection.note(first, static_cast<int>(i));  // the last comm of each, and tasks no callback named
    std::vector<char>& selected = selection.selected;
    std::size_t nr_selected = 0;
    for (const char s : selected)
        nr_selected += s != 0;
    if (nr_selected == 0)
        throw InputError(Diagnostic{label, 0, 0, "",
                                    selection_text(filter) + " selects none of the " +
                                        std::to_string(report.tasks_seen) +
                                        " tasks in the trace: expected a --comm or --pid that names the tasks "
                                        "of the workload (`wakesim trace import` lists how many it selects)"});
    const std::vector<std::string> names = task_names(first, selected);

    Builder builder(machine, selected, names, w, options.max_phases_per_task);
    TraceState state(machine.nr_cpus(), true);
    for (const TraceEvent& ev : trace.events) {
        state.apply(ev, &builder);
        if (ev.kind != TraceEventKind::LostEvents)
            builder.after(state, ev);
    }
    builder.finish(w.last_ts);

    // One template per selected task that did something; a fork of a task
    // that never ran before the end (or the cut) is left out with it.
    std::set<std::string> dropped;
    for (std::size_t i = 0; i < selected.size(); ++i)
        if (selected[i] && builder.lines()[i].phases.empty())
            dropped.insert(names[i]);
    for (std::size_t i = 0; i < selected.size(); ++i) {
        if (!selected[i] || dropped.count(names[i]))
            continue;
        const int index = static_cast<int>(i);
        JsonTask t;
        t.name = names[i];
        t.loop = 1;
        t.start = !builder.forked_by_selected.count(index);
        TraceWorkloadTask st = builder.stats[index];
        for (const JsonPhase& ph : builder.lines()[i].phases) {
            if (ph.kind == JsonPhase::Kind::Fork && dropped.count(ph.name)) {
                --st.forks;
                continue;
            }
            t.phases.push_back(ph);
        }
        if (t.phases.empty())
            continue;  // its only phase was a fork of a task left out
        st.pid = first.task(index).pid;
        st.comm = first.task(index).comm;
        st.name = t.name;
        st.forked = !t.start;
        w.tasks.push_back(st);
        w.file.tasks.push_back(std::move(t));
    }
    if (w.file.tasks.empty())
        throw InputError(Diagnostic{label, 0, 0, "",
                                    selection_text(filter) + " selects " + std::to_string(nr_selected) +
                                        " tasks, but none of them ran or slept in the trace: expected tasks with "
                                        "switches or wakeups"});
    bool any_started = false;
    for (const JsonTask& t : w.file.tasks)
        any_started |= t.start;
    if (!any_started)  // every kept task was forked by one left out: start them all
        for (std::size_t i = 0; i < w.file.tasks.size(); ++i) {
            w.file.tasks[i].start = true;
            w.tasks[i].forked = false;
        }
    return w;
}

std::string format_trace_workload(const TraceWorkload& w, const std::string& output)
{
    std::string out;
    char buf[512];
    const auto ull = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
    std::snprintf(buf, sizeof buf, "wrote %s: %zu tasks of the trace's %llu, each through its timeline once\n",
                  output.c_str(), w.tasks.size(), ull(w.tasks_seen));
    out += buf;
    std::uint64_t sync = 0;
    for (const TraceWorkloadTask& t : w.tasks)
        sync += t.sync_signals;
    std::snprintf(buf, sizeof buf,
                  "wakeups             %llu by selected tasks as signal/wait (%llu sync), %llu by others as sleeps\n",
                  ull(w.wakeups_by_selected), ull(sync), ull(w.wakeups_by_others));
    out += buf;
    std::snprintf(buf, sizeof buf, "%-24s %8s %12s %8s %8s %8s %8s %6s\n", "task", "runs", "run (ms)", "waits",
                  "signals", "sync", "sleeps", "forks");
    out += buf;
    for (const TraceWorkloadTask& t : w.tasks) {
        std::snprintf(buf, sizeof buf, "%-24s %8llu %12.3f %8llu %8llu %8llu %8llu %6llu%s\n", t.name.c_str(),
                      ull(t.runs), static_cast<double>(t.run_ns) / 1e6, ull(t.waits), ull(t.signals),
                      ull(t.sync_signals), ull(t.sleeps), ull(t.forks), t.forked ? "  (forked)" : "");
        out += buf;
    }
    if (w.cut) {
        std::snprintf(buf, sizeof buf,
                      "cut                 at the phase limit: the first %.6f s of the trace's %.6f s kept, %llu "
                      "later wakeups left out\n",
                      static_cast<double>(w.cut_ts - w.first_ts) / 1e9,
                      static_cast<double>(w.last_ts - w.first_ts) / 1e9, ull(w.wakeups_cut));
        out += buf;
    }
    if (w.lost_markers) {
        std::snprintf(buf, sizeof buf,
                      "note                the trace lost events at %llu places: runs near them are short\n",
                      ull(w.lost_markers));
        out += buf;
    }
    return out;
}

}  // namespace wb

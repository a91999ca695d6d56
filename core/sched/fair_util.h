// SPDX-License-Identifier: Apache-2.0
//
// Small helpers the wakeup path shares (fair_select.cpp, select_idle.cpp,
// slow_path.cpp): the idle predicates that depend on the waking task, SMT
// sibling iteration, loads and utilisations as fair.c reads them, p's PELT
// signals synced to its runqueue's clock, a for_each_cpu_wrap() cursor that
// tolerates a shrinking mask, and the text builders of decision records.
// Private to core/sched; not part of the engine's API.
#pragma once

#include <algorithm>
#include <charconv>
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

#include "sched/decision.h"
#include "sched/pelt.h"
#include "sched/sched_state.h"

namespace wb {

// --- Idle predicates that depend on p ([NEW], v7.1 choose_idle_cpu) -------

// A CPU running only SCHED_IDLE tasks is as good as idle for a normal task,
// but not for another SCHED_IDLE task: it would just queue behind them.
inline bool choose_sched_idle_rq(const Rq& rq, const Task& p)
{
    return sched_idle_rq(rq) && p.policy != SchedPolicy::Idle;
}

inline bool choose_idle_cpu(const SchedState& s, CpuId cpu, const Task& p)
{
    ++s.cpus_examined;
    const Rq& rq = s.rq(cpu);
    return available_idle_cpu(rq) || choose_sched_idle_rq(rq, p);
}

// --- SMT siblings ----------------------------------------------------------

// cpu_smt_mask(cpu) without building a mask: the SMT domain is always the
// CPU's lowest domain and spans exactly its core, and a core of one thread
// has no SMT domain (it degenerates), so the siblings are the CPU alone.
// This keeps the per-wakeup cost O(threads per core) on any machine size.
class SmtSiblings {
public:
    SmtSiblings(const SchedState& s, CpuId cpu) : cpu_(cpu)
    {
        const std::vector<int>& chain = s.domains->domains_of(cpu);
        if (!chain.empty()) {
            const SchedDomain& d = s.domains->domain(chain.front());
            if (d.flags & SD_SHARE_CPUCAPACITY)
                mask_ = &d.span;
        }
    }

    struct Iter {
        const CpuMask* mask;
        CpuId cpu;
        CpuId operator*() const { return cpu; }
        Iter& operator++()
        {
            cpu = mask ? mask->next(cpu) : kNoCpu;
            return *this;
        }
        bool operator!=(const Iter& other) const { return cpu != other.cpu; }
    };
    Iter begin() const { return {mask_, mask_ ? mask_->first() : cpu_}; }
    Iter end() const { return {mask_, kNoCpu}; }

private:
    CpuId cpu_;
    const CpuMask* mask_ = nullptr;
};

// is_core_idle(): every other thread of the core runs its idle task with
// nothing queued (idle_cpu, not available_idle_cpu, as in the kernel).
inline bool is_core_idle(const SchedState& s, CpuId cpu)
{
    for (CpuId sibling : SmtSiblings(s, cpu))
        if (sibling != cpu && !idle_cpu(s.rq(sibling)))
            return false;
    return true;
}

// --- Loads, capacities, utilisation (§10.4, §10.6, §10.7) -----------------

inline long capacity_of(const SchedState& s, CpuId cpu)
{
    return s.rq(cpu).cpu_capacity;
}
inline long arch_scale_cpu_capacity(const SchedState& s, CpuId cpu)
{
    return s.rq(cpu).cpu_capacity_orig;
}
// No thermal or cpufreq pressure is modelled, so the actual capacity is the
// original one.
inline long get_actual_cpu_capacity(const SchedState& s, CpuId cpu)
{
    return s.rq(cpu).cpu_capacity_orig;
}

inline unsigned long cpu_load(const SchedState& s, CpuId cpu)
{
    return s.rq(cpu).cfs.avg.load_avg;
}

// Without cgroups task_h_load() is the task's own load_avg, read as last
// updated. The idle task (kNoTask, an interrupted idle CPU) carries none.
inline unsigned long task_h_load(const SchedState& s, TaskId p)
{
    return p == kNoTask ? 0 : s.task(p).se.avg.load_avg;
}

// task_util_est(): the larger of the running average and the estimate of
// the task's size at its last sleeps, so a task that just slept long does
// not look small. (The kernel's UTIL_AVG_UNCHANGED flag bit is a separate
// field here, SchedEntity::util_avg_unchanged.)
inline unsigned long task_util_est(const SchedAvg& a)
{
    return std::max<unsigned long>(a.util_avg, a.util_est);
}

// sync_entity_load_avg() without writing: p's signals decayed, as blocked,
// to its runqueue's last PELT update. The kernel writes the result into
// p->se.avg; the engine's next PELT update of p does the same decay, so
// returning a copy gives the same decision and keeps the PELT code the only
// writer of PELT state. A task with no history (new, or in migration) is
// returned as is.
inline SchedAvg synced_avg(const SchedState& s, TaskId p)
{
    const Task& t = s.task(p);
    SchedAvg a = t.se.avg;
    if (a.last_update_time == 0 || t.cpu < 0)
        return a;
    const std::uint64_t rq_time = s.rq(t.cpu).cfs.avg.last_update_time;
    if (rq_time > a.last_update_time)
        update_sched_avg(a, rq_time, 0, 0, 0);
    return a;
}

// p as the utilisation helpers see it: the task and its (possibly synced)
// signals. A null task means "no task".
struct TaskSignals {
    const Task* task = nullptr;
    const SchedAvg* avg = nullptr;
};

// cpu_util(cpu, p, dst_cpu, boost) (§10.6): the CFS utilisation of `cpu` if
// p moved to dst_cpu (-1: p goes nowhere, so it is removed from its CPU).
inline unsigned long cpu_util(const SchedState& s, CpuId cpu, TaskSignals p, CpuId dst_cpu, bool boost)
{
    const Rq& rq = s.rq(cpu);
    const bool add = p.task && p.task->cpu != cpu && dst_cpu == cpu;
    const bool sub = p.task && p.task->cpu == cpu && dst_cpu != cpu;
    auto adjust = [&](unsigned long value, unsigned long task_value) {
        if (add)
            return value + task_value;
        if (sub)
            return value - std::min(value, task_value);
        return value;
    };
    unsigned long util = adjust(rq.cfs.avg.util_avg, p.avg ? p.avg->util_avg : 0);
    if (boost)
        util = std::max(util, adjust(rq.cfs.avg.runnable_avg, p.avg ? p.avg->runnable_avg : 0));
    if (s.feats(Feat::UTIL_EST)) {
        unsigned long est = rq.cfs.avg.util_est;
        const unsigned long task_est = p.avg ? p.avg->util_est : 0;
        if (dst_cpu == cpu)
            est += task_est;
        else if (p.task && (p.task->se.on_rq || (p.task->cpu >= 0 && s.rq(p.task->cpu).curr == p.task->id)))
            est -= std::min(est, task_est);
        util = std::max(util, est);
    }
    return std::min<unsigned long>(util, static_cast<unsigned long>(arch_scale_cpu_capacity(s, cpu)));
}

inline unsigned long cpu_util_cfs(const SchedState& s, CpuId cpu)
{
    return cpu_util(s, cpu, {}, kNoCpu, false);
}

// --- for_each_cpu_wrap() over a mask the loop may shrink --------------------

// Visits the CPUs of `mask` from `start` upwards, wrapping to 0, reading the
// mask afresh at every step: a CPU removed before it is reached is skipped,
// as in the kernel where select_idle_core() clears a busy core's siblings
// from the scan mask while the scan runs.
class WrapCursor {
public:
    WrapCursor(const CpuMask& mask, CpuId start) : mask_(mask), start_(start) {}

    CpuId next()
    {
        CpuId cpu = started_ ? mask_.next(last_) : mask_.next(start_ - 1);
        started_ = true;
        if (cpu == kNoCpu && !wrapped_) {
            wrapped_ = true;
            cpu = mask_.first();
        }
        if (wrapped_ && cpu != kNoCpu && cpu >= start_)
            cpu = kNoCpu;
        last_ = cpu;
        return cpu;
    }

private:
    const CpuMask& mask_;
    CpuId start_;
    CpuId last_ = kNoCpu;
    bool started_ = false;
    bool wrapped_ = false;
};

// --- Decision-record text ---------------------------------------------------
// Only ever called under `if (rec)`, so a run without recording builds no
// strings at all.

// One part of a record's text: a string as it is, a number in decimal
// (as std::to_string writes it), held until cat() knows the whole length.
class TextPart {
public:
    TextPart(std::string_view v) : view_(v) {}
    // A string literal: its length is known, so no strlen().
    template <std::size_t N>
    TextPart(const char (&v)[N]) : view_(v, N - 1)
    {
    }
    template <std::integral T>
    requires(!std::same_as<T, bool> && !std::same_as<T, char>) TextPart(T v)
    {
        const std::to_chars_result r = std::to_chars(digits_, digits_ + sizeof digits_, v);
        view_ = std::string_view(digits_, static_cast<std::size_t>(r.ptr - digits_));
    }
    TextPart(const TextPart&) = delete;
    TextPart& operator=(const TextPart&) = delete;

    std::string_view view() const { return view_; }

private:
    char digits_[24];  // a 64-bit integer's digits and sign
    std::string_view view_;
};

// The parts joined, in a string allocated once at its final length.
template <typename... A>
std::string cat(const A&... parts)
{
    const TextPart texts[] = {TextPart(parts)...};
    std::size_t length = 0;
    for (const TextPart& t : texts)
        length += t.view().size();
    std::string out;
    out.reserve(length);
    for (const TextPart& t : texts)
        out += t.view();
    return out;
}

inline void note(DecisionRecord* rec, std::string_view function, std::string_view branch, std::string detail,
                 CpuId result = kNoCpu)
{
    rec->steps.push_back(DecisionStep{function, branch, std::move(detail), result});
}

// "cpu 5 idle", "cpu 5 busy (nr_running 2)": why an idle test went one way.
inline std::string idle_text(const SchedState& s, CpuId cpu)
{
    const Rq& rq = s.rq(cpu);
    if (idle_cpu(rq))
        return cat("cpu ", cpu, " idle");
    if (sched_idle_rq(rq))
        return cat("cpu ", cpu, " runs only SCHED_IDLE (", rq.nr_running, ")");
    if (rq.curr == kNoTask && rq.nr_running == 0)
        return cat("cpu ", cpu, " wakeup pending");
    return cat("cpu ", cpu, " busy (nr_running ", rq.nr_running, ")");
}

}  // namespace wb

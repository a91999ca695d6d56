// SPDX-License-Identifier: Apache-2.0
#include "workload/json_workload.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "engine/kernel.h"
#include "io/input_error.h"
#include "topology/sd_flags.h"
#include "workload/workload_params.h"

namespace wb {

namespace {

constexpr Time kNotDue = Time::max();

// The CPU the task runs on; CPU 0 before its first placement.
CpuId task_cpu_of(const Kernel& k, TaskId t)
{
    if (const CpuId cpu = k.task_cpu(t); cpu != kNoCpu)
        return cpu;
    return 0;
}

bool uses_barrier(const JsonTask& t, const std::string& name)
{
    for (const JsonPhase& ph : t.phases)
        if (ph.kind == JsonPhase::Kind::Barrier && ph.name == name)
            return true;
    return false;
}

}  // namespace

void JsonWorkload::setup(Kernel& k)
{
    const int nr = k.machine().nr_cpus();
    std::vector<Diagnostic> problems;
    stats_.resize(file_.tasks.size());
    for (std::size_t i = 0; i < file_.tasks.size(); ++i) {
        const JsonTask& t = file_.tasks[i];
        by_name_[t.name] = i;
        CpuMask mask;  // empty: every CPU
        if (!t.cpus.empty()) {
            CpulistParse parsed = parse_cpulist(t.cpus, nr);
            if (!parsed.ok() || parsed.mask.empty())
                problems.push_back(
                    {file_.path, t.cpus_line, t.cpus_column, "/tasks/" + std::to_string(i) + "/cpus",
                     "\"" + t.cpus + "\": " + (parsed.ok() ? std::string("expected at least one CPU") : parsed.error)});
            else
                mask = parsed.mask;
        }
        allowed_.push_back(mask);
    }
    if (!problems.empty())
        throw InputError(std::move(problems));
    for (std::size_t i = 0; i < file_.tasks.size(); ++i)
        if (file_.tasks[i].start)
            for (std::uint64_t n = 0; n < file_.tasks[i].instances; ++n)
                spawn(k, i, 0);
}

void JsonWorkload::spawn(Kernel& k, std::size_t tmpl, CpuId parent_cpu)
{
    const JsonTask& t = file_.tasks[tmpl];
    TaskSpec spec;
    spec.name = t.name + "-" + std::to_string(stats_[tmpl].tasks++);
    spec.group = static_cast<int>(tmpl);
    spec.cpus_allowed = allowed_[tmpl];
    spec.nice = t.nice;
    spec.policy = t.policy;
    Instance in;
    in.tmpl = tmpl;
    in.task = k.create_task(spec);
    in.start = k.now();
    in.due = kNotDue;
    const std::size_t self = instances_.size();
    if (instance_of_.size() <= static_cast<std::size_t>(in.task))
        instance_of_.resize(static_cast<std::size_t>(in.task) + 1, SIZE_MAX);
    instance_of_[static_cast<std::size_t>(in.task)] = self;
    std::set<std::string> barriers;
    for (const JsonPhase& ph : t.phases)
        if (ph.kind == JsonPhase::Kind::Barrier && barriers.insert(ph.name).second)
            ++barriers_[ph.name].parties;
    instances_.push_back(in);
    ++started_;
    // Fork placement within the parent's allowed CPUs would need the
    // parent on one of them: start from the first allowed CPU otherwise.
    if (!allowed_[tmpl].empty() && !allowed_[tmpl].test(parent_cpu))
        parent_cpu = allowed_[tmpl].first();
    k.wake_up_new_task(in.task, parent_cpu);
}

Step JsonWorkload::next_step(Kernel& k, TaskId t)
{
    const std::size_t self = instance_of_[static_cast<std::size_t>(t)];
    if (Instance& in = instances_[self]; in.due != kNotDue) {
        stats_[in.tmpl].latency.record((k.now() - in.due).ns());
        in.due = kNotDue;
    }
    return begin_phase(k, self);
}

Step JsonWorkload::zero_time_lap(const Kernel& k, const JsonTask& t)
{
    const std::int64_t syscall = static_cast<std::int64_t>(k.machine().costs[Cost::syscall]);
    return Step::compute(Time::ns(std::max<std::int64_t>(1, syscall * static_cast<std::int64_t>(t.phases.size()))));
}

Step JsonWorkload::begin_phase(Kernel& k, std::size_t self)
{
    const JsonTask& t = file_.tasks[instances_[self].tmpl];
    TemplateStats& st = stats_[instances_[self].tmpl];
    // Phases passed in this call: a whole lap of them took no simulated time.
    for (std::size_t passed = 0;; ++passed) {
        Instance& in = instances_[self];  // looked up again: a fork moves the instances
        if (in.phase == t.phases.size()) {
            in.phase = 0;
            ++in.loop;
            ++st.loops;
            ++loops_;
            if (in.loop >= t.loop) {
                ++exited_;
                // An exiting party no longer holds its barriers back.
                for (auto& [name, b] : barriers_) {
                    if (!uses_barrier(t, name))
                        continue;
                    --b.parties;
                    if (!b.waiting.empty() && b.waiting.size() >= b.parties) {
                        for (std::size_t w : b.waiting) {
                            instances_[w].due = k.now();
                            k.wake_up(instances_[w].task, 0);
                        }
                        b.waiting.clear();
                    }
                }
                return Step::exit();
            }
            // Without this, a loop of signals to itself, or of forks, would
            // turn at one instant for ever, and no time limit could end it.
            if (passed >= t.phases.size())
                return zero_time_lap(k, t);
        }
        const JsonPhase& ph = t.phases[in.phase++];
        switch (ph.kind) {
        case JsonPhase::Kind::Run:
            ++st.runs;
            return Step::compute(ph.duration);
        case JsonPhase::Kind::Sleep:
            in.due = k.now() + ph.duration;
            return Step::sleep(ph.duration);
        case JsonPhase::Kind::Timer: {
            // The next period boundary counted from the task's start; a
            // task that overran its period catches up without sleeping.
            const std::int64_t period = ph.duration.ns();
            const std::int64_t n = (k.now() - in.start).ns() / period + 1;
            const Time at = in.start + Time::ns(n * period);
            in.due = at;
            return Step::sleep(at - k.now());
        }
        case JsonPhase::Kind::Wait: {
            Event& e = events_[ph.name];
            if (e.count > 0) {
                --e.count;
                continue;
            }
            e.waiters.push_back(self);
            return Step::block();
        }
        case JsonPhase::Kind::Signal: {
            Event& e = events_[ph.name];
            if (e.waiters.empty()) {
                // Kept for the next wait, as a semaphore (no lost wakeups).
                if (!ph.broadcast)
                    ++e.count;
                continue;
            }
            do {
                Instance& w = instances_[e.waiters.front()];
                e.waiters.pop_front();
                w.due = k.now();
                k.wake_up(w.task, ph.sync ? WF_SYNC : 0);
            } while (ph.broadcast && !e.waiters.empty());
            continue;
        }
        case JsonPhase::Kind::Yield:
            return Step::yield();
        case JsonPhase::Kind::Barrier: {
            Barrier& b = barriers_[ph.name];
            if (b.waiting.size() + 1 >= b.parties) {
                // The last to arrive releases the others (futex wake, not sync).
                for (std::size_t w : b.waiting) {
                    instances_[w].due = k.now();
                    k.wake_up(instances_[w].task, 0);
                }
                b.waiting.clear();
                continue;
            }
            b.waiting.push_back(self);
            return Step::block();
        }
        case JsonPhase::Kind::Fork:
            // The file's own instances are checked against the bound when it
            // is read; forks, which only the run can count, here.
            if (started_ >= max_tasks_)
                throw InputError(Diagnostic{
                    file_.path, 0, 0,
                    "/tasks/" + std::to_string(in.tmpl) + "/phases/" + std::to_string(in.phase - 1) + "/fork",
                    "this fork would start task " + std::to_string(started_ + 1) +
                        " of the run; a json workload starts at most " + std::to_string(max_tasks_) +
                        " tasks (docs/reliability.md)"});
            spawn(k, by_name_.at(ph.name), task_cpu_of(k, in.task));
            continue;
        }
    }
}

void JsonWorkload::Latency::record(std::int64_t ns)
{
    const std::uint64_t v = ns < 0 ? 0 : static_cast<std::uint64_t>(ns);
    const int bucket = Histogram::index_of(v);
    auto it = std::lower_bound(buckets_.begin(), buckets_.end(), bucket,
                               [](const std::pair<int, std::uint64_t>& b, int key) { return b.first < key; });
    if (it == buckets_.end() || it->first != bucket)
        it = buckets_.insert(it, {bucket, 0});
    ++it->second;
    ++count_;
    max_ = std::max(max_, static_cast<std::int64_t>(v));
}

std::int64_t JsonWorkload::Latency::percentile(double q) const
{
    if (count_ == 0)
        return 0;
    const double wanted = std::ceil(std::clamp(q, 0.0, 1.0) * static_cast<double>(count_));
    const std::uint64_t rank = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(wanted));
    std::uint64_t seen = 0;
    for (const auto& [bucket, samples] : buckets_) {
        seen += samples;
        if (seen >= rank)
            return std::min(static_cast<std::int64_t>(Histogram::upper_bound_of(bucket)), max_);
    }
    return max_;
}

Headline JsonWorkload::headline(Time elapsed) const
{
    const double secs = elapsed.to_seconds();
    return {"loops/s", secs > 0 ? static_cast<double>(loops_) / secs : 0.0, "loops/s", false};
}

std::string JsonWorkload::report(Time elapsed) const
{
    std::string out;
    char buf[256];
    std::snprintf(buf, sizeof buf, "json workload %s: %zu tasks in %.6f s\n", file_.path.c_str(), started_,
                  elapsed.to_seconds());
    out += buf;
    std::snprintf(buf, sizeof buf, "%-16s %6s %10s %10s %12s %12s %12s\n", "task", "tasks", "loops", "runs",
                  "lat p50(us)", "lat p99(us)", "lat max(us)");
    out += buf;
    for (std::size_t i = 0; i < file_.tasks.size(); ++i) {
        const TemplateStats& s = stats_[i];
        std::snprintf(buf, sizeof buf, "%-16s %6llu %10llu %10llu %12.1f %12.1f %12.1f\n", file_.tasks[i].name.c_str(),
                      static_cast<unsigned long long>(s.tasks), static_cast<unsigned long long>(s.loops),
                      static_cast<unsigned long long>(s.runs), static_cast<double>(s.latency.percentile(0.5)) / 1e3,
                      static_cast<double>(s.latency.percentile(0.99)) / 1e3,
                      static_cast<double>(s.latency.max()) / 1e3);
        out += buf;
    }
    std::snprintf(buf, sizeof buf, "loops/s: %.2f\n", headline(elapsed).value);
    out += buf;
    return out;
}

}  // namespace wb

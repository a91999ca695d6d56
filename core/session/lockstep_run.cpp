// SPDX-License-Identifier: Apache-2.0
#include "session/lockstep_run.h"

#include <algorithm>
#include <stdexcept>

#include "engine/simulator.h"

namespace wb {

namespace {

// While looking for the first divergence, runs advance together in slices
// of simulated time so that the records waiting to be compared stay few.
constexpr Time kCompareSlice = Time::us(50);

}  // namespace

LockstepRun::LockstepRun(const Machine& machine, const RunRequest& base, const std::vector<std::string>& policies)
    : machine_(machine)
{
    if (policies.empty() || policies.size() > static_cast<std::size_t>(kMaxRuns))
        throw std::invalid_argument("a lockstep run takes one to four policies, not " +
                                    std::to_string(policies.size()));
    runs_.reserve(policies.size());
    for (const std::string& policy : policies) {
        Lane lane;
        lane.request = base;
        lane.request.policy = policy;
        lane.prepared = prepare_run(machine_, lane.request);
        runs_.push_back(std::move(lane));
    }
    for (int i = 0; i < size(); ++i)
        runs_[static_cast<std::size_t>(i)].prepared.sim->set_record_sink(
            [this, i](const DecisionRecord& rec) { on_record(i, rec); });
    // A single run has nothing to be compared with.
    collecting_ = size() > 1;
}

LockstepRun::~LockstepRun() = default;

const Simulator& LockstepRun::sim(int run) const
{
    return *runs_[static_cast<std::size_t>(run)].prepared.sim;
}

void LockstepRun::on_record(int run, const DecisionRecord& rec)
{
    Lane& lane = runs_[static_cast<std::size_t>(run)];
    lane.recent.push(rec);
    if (!collecting_)
        return;
    const bool hit = break_condition_ && break_condition_(run, rec, lane.prepared.sim->state());
    WhatIfChoices what_if;
    if (what_if_ && lane.asked.seq == rec.seq)
        what_if = std::move(lane.asked.choices);
    lane.asked.choices.clear();
    lane.pending.push_back({rec, hit, std::move(what_if)});
}

void LockstepRun::set_what_if(const WhatIf* what_if)
{
    what_if_ = what_if;
    for (std::size_t i = 0; i < runs_.size(); ++i) {
        Lane& lane = runs_[i];
        Simulator& sim = *lane.prepared.sim;
        if (!what_if) {
            sim.set_decision_probe({});
            continue;
        }
        // The record of the selection about to be made takes the number the
        // engine handed out last.
        sim.set_decision_probe([&lane, &sim, what_if](const SchedState& s, const WakerContext& waker, TaskId p,
                                                      CpuId prev, unsigned int wake_flags) {
            lane.asked = {sim.wakeup_count() - 1, what_if->ask(s, waker, p, prev, wake_flags)};
        });
    }
}

bool LockstepRun::differ(const DecisionRecord& a, const DecisionRecord& b)
{
    return a.chosen != b.chosen || a.path != b.path;
}

void LockstepRun::compare_aligned()
{
    auto all_have = [&] {
        return std::all_of(runs_.begin(), runs_.end(), [](const Lane& l) { return !l.pending.empty(); });
    };
    while (all_have()) {
        const DecisionRecord& first = runs_.front().pending.front().rec;
        const bool split = std::any_of(runs_.begin() + 1, runs_.end(),
                                       [&](const Lane& l) { return differ(first, l.pending.front().rec); });
        if (split && !first_divergence_) {
            Divergence d;
            d.wakeup = first.seq;
            for (const Lane& l : runs_)
                d.records.push_back(l.pending.front().rec);
            first_divergence_ = std::move(d);
        }
        for (Lane& l : runs_)
            l.pending.pop_front();
    }
}

LockstepStep LockstepRun::step_wakeup()
{
    collecting_ = true;
    LockstepStep out;
    out.records.resize(runs_.size());
    out.hits.resize(runs_.size(), false);
    out.what_if.resize(runs_.size());
    for (std::size_t i = 0; i < runs_.size(); ++i) {
        Lane& lane = runs_[i];
        if (lane.pending.empty() && !lane.exhausted && !lane.prepared.sim->step_wakeup())
            lane.exhausted = true;
        if (lane.pending.empty())
            continue;
        out.records[i] = std::move(lane.pending.front().rec);
        out.hits[i] = lane.pending.front().hit;
        out.what_if[i] = std::move(lane.pending.front().what_if);
        lane.pending.pop_front();
    }
    const bool all = std::all_of(out.records.begin(), out.records.end(), [](const auto& r) { return r.has_value(); });
    if (all && runs_.size() > 1) {
        out.diverged = std::any_of(out.records.begin() + 1, out.records.end(),
                                   [&](const auto& r) { return differ(*out.records.front(), *r); });
        if (out.diverged && !first_divergence_) {
            Divergence d;
            d.wakeup = out.records.front()->seq;
            for (const auto& r : out.records)
                d.records.push_back(*r);
            first_divergence_ = std::move(d);
        }
    }
    return out;
}

bool LockstepRun::run_until(Time until)
{
    auto advance = [&](Lane& lane, Time to) {
        if (!lane.exhausted && !lane.prepared.sim->run_until(to))
            lane.exhausted = true;
    };
    if (size() == 1)
        stop_collecting();
    while (collecting_ && !first_divergence_ && now() < until && !finished()) {
        const Time to = std::min(until, now() + kCompareSlice);
        for (Lane& lane : runs_)
            advance(lane, to);
        compare_aligned();
        // A run that ended leaves the others' records with nothing to meet.
        if (std::any_of(runs_.begin(), runs_.end(), [](const Lane& l) { return l.exhausted && l.pending.empty(); }))
            stop_collecting();
    }
    // Once the runs have parted (or one has ended) there is nothing left to
    // compare by index while running.
    if (first_divergence_)
        stop_collecting();
    for (Lane& lane : runs_)
        advance(lane, until);
    return !finished();
}

void LockstepRun::stop_collecting()
{
    collecting_ = false;
    for (Lane& lane : runs_)
        lane.pending.clear();
}

std::optional<Divergence> LockstepRun::next_divergence(std::uint64_t max_wakeups)
{
    for (std::uint64_t n = 0; n < max_wakeups; ++n) {
        LockstepStep step = step_wakeup();
        if (step.diverged) {
            Divergence d;
            d.wakeup = step.records.front()->seq;
            for (auto& r : step.records)
                d.records.push_back(std::move(*r));
            return d;
        }
        if (std::none_of(step.records.begin(), step.records.end(), [](const auto& r) { return r.has_value(); }))
            break;
    }
    return std::nullopt;
}

bool LockstepRun::finished() const
{
    return std::all_of(runs_.begin(), runs_.end(), [](const Lane& l) { return l.exhausted; });
}

Time LockstepRun::now() const
{
    // elapsed(): how far a run has been taken, which is past its last event.
    Time earliest = Time::max();
    Time latest;
    for (const Lane& l : runs_) {
        latest = std::max(latest, l.prepared.sim->elapsed());
        if (!l.exhausted)
            earliest = std::min(earliest, l.prepared.sim->elapsed());
    }
    return earliest == Time::max() ? latest : earliest;
}

RunSnapshot LockstepRun::snapshot(int run) const
{
    const Lane& lane = runs_[static_cast<std::size_t>(run)];
    return take_snapshot(*lane.prepared.sim, lane.request.policy);
}

std::vector<RunSnapshot> LockstepRun::snapshots() const
{
    std::vector<RunSnapshot> out;
    for (int i = 0; i < size(); ++i)
        out.push_back(snapshot(i));
    return out;
}

std::vector<DecisionRecord> LockstepRun::recent(int run, std::size_t n) const
{
    const DecisionRing& ring = runs_[static_cast<std::size_t>(run)].recent;
    std::vector<DecisionRecord> out;
    const std::size_t take = std::min(n, ring.size());
    for (std::size_t i = ring.size() - take; i < ring.size(); ++i)
        out.push_back(ring.at(i));
    return out;
}

}  // namespace wb

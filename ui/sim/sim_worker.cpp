// SPDX-License-Identifier: Apache-2.0
#include "sim/sim_worker.h"

#include <QTimer>
#include <algorithm>
#include <exception>

#include "divergence_text.h"
#include "engine/simulator.h"
#include "io/input_error.h"
#include "plugin/policy_error.h"
#include "session/pace.h"

namespace wb {

namespace {

// Work per pump: short enough that pause and stop feel immediate, long
// enough that the timer's own cost is noise.
constexpr qint64 kSliceNs = 12'000'000;
// A frame every 30 ms: with a few ms of jitter from the slices still over
// 30 frames a second.
constexpr qint64 kFrameIntervalNs = 30'000'000;
constexpr int kIdleWaitMs = 4;  // ahead of a throttled clock: wait this long
constexpr std::size_t kRecentPerFrame = 24;
constexpr std::uint64_t kSeekBatch = 256;  // wakeups between checks of the clock while seeking

}  // namespace

SimWorker::SimWorker(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<wb::SimFrame>();
    qRegisterMetaType<wb::StepRecords>();
    qRegisterMetaType<wb::SimState>();
    pump_ = new QTimer(this);
    pump_->setSingleShot(true);
    connect(pump_, &QTimer::timeout, this, &SimWorker::pump);
    since_frame_.start();
    anchor_wall_.start();
}

SimWorker::~SimWorker() = default;

void SimWorker::load(const SessionSetup& setup, RunGeneration generation)
{
    if (!start(setup, generation))
        return;
    measurePace(setup);
    settle(SimState::Paused);
}

// The runs from time 0; false (and `failed`) when they cannot be built.
bool SimWorker::start(const SessionSetup& setup, RunGeneration generation)
{
    pump_->stop();
    generation_ = generation;
    try {
        auto run = std::make_unique<LockstepRun>(setup.machine, setup.base, setup.policies);
        what_if_.reset();
        run_ = std::move(run);
        setup_ = setup;
    } catch (const InputError& e) {
        emit failed(QString::fromStdString(e.what()));
        return false;
    } catch (const std::exception& e) {
        emit failed(QStringLiteral("cannot start the runs: %1").arg(QString::fromStdString(e.what())));
        return false;
    }
    setBreakpoints(breakpoints_, break_on_divergence_);
    buildWhatIf();
    run_to_ = Time();
    chunk_ = Time::us(20);
    events_at_frame_ = 0;
    return true;
}

void SimWorker::halt()
{
    stop_ = true;
    pump_->stop();
}

// The speed the user has chosen stays: no new pace.
void SimWorker::restart(RunGeneration generation)
{
    if (setup_ && start(*setup_, generation))
        settle(SimState::Paused);
}

void SimWorker::dropRuns(RunGeneration generation)
{
    pump_->stop();
    run_.reset();
    what_if_.reset();
    run_to_ = Time();
    generation_ = generation;
    // The slice that requestStop() cut short is over: later commands run.
    stop_ = false;
    setState(SimState::Empty);
}

void SimWorker::setWhatIf(std::vector<WhatIfCase> cases)
{
    what_if_cases_ = std::move(cases);
    buildWhatIf();
}

void SimWorker::buildWhatIf()
{
    what_if_.reset();
    if (!setup_ || !run_ || what_if_cases_.empty())
        return;
    try {
        what_if_ = std::make_unique<WhatIf>(setup_->machine, setup_->base.features, what_if_cases_);
    } catch (const std::exception& e) {
        emit stopped(generation_, tr("what if: %1").arg(QString::fromStdString(e.what())));
    }
}

template <typename F>
void SimWorker::guarded(F&& advance)
{
    try {
        advance();
    } catch (const PolicyError& e) {
        breakDown(QString::fromStdString(e.what()));
    } catch (const std::exception& e) {
        breakDown(QStringLiteral("internal error while running: %1").arg(QString::fromStdString(e.what())));
    }
}

// The engine stopped in the middle of an event: its state is not one to
// advance, or even to snapshot, again. The window keeps the last frame.
void SimWorker::breakDown(const QString& message)
{
    pump_->stop();
    run_.reset();
    run_to_ = Time();
    setState(SimState::Failed);
    emit runFailed(generation_, message);
}

void SimWorker::setState(SimState state)
{
    if (state_ == state)
        return;
    state_ = state;
    emit stateChanged(generation_, state);
}

// A state that holds until the user acts goes out with the frame that shows
// it, and the frame first: whoever stateChanged() wakes finds the session's
// last frame already final.
void SimWorker::settle(SimState state)
{
    const bool changed = state_ != state;
    state_ = state;
    sendFrame(true);
    if (changed)
        emit stateChanged(generation_, state);
}

void SimWorker::resetClock()
{
    anchor_sim_ = run_ ? run_->now() : Time();
    anchor_wall_.restart();
}

void SimWorker::run()
{
    if (!run_ || run_->finished())
        return;
    run_to_ = Time();
    resetClock();
    setState(SimState::Running);
    pump_->start(0);
}

void SimWorker::runTo(Time until)
{
    if (!run_)
        return;
    run_to_ = until;
    if (run_->now() >= until || run_->finished()) {
        run_to_ = Time();
        sendFrame(true);
        return;
    }
    resetClock();
    setState(SimState::Running);
    pump_->start(0);
}

void SimWorker::pause()
{
    pump_->stop();
    run_to_ = Time();
    if (run_ && state_ != SimState::Finished)
        settle(SimState::Paused);
}

void SimWorker::pauseBecause(const QString& why)
{
    pause();
    emit stopped(generation_, why);
}

void SimWorker::step()
{
    if (!run_)
        return;
    pump_->stop();
    run_to_ = Time();
    guarded([this] {
        // Asked for the stepped wakeup only: a copy of the state per case
        // per selection is for a wakeup at a time, not for running.
        run_->set_what_if(what_if_.get());
        const LockstepStep s = run_->step_wakeup();
        run_->set_what_if(nullptr);
        StepRecords out{0, s.records, s.hits, s.diverged, false, s.what_if};
        // The records last: the diagram animates them once the state is paused.
        settle(run_->finished() ? SimState::Finished : SimState::Paused);
        sendStepped(std::move(out));
    });
}

void SimWorker::nextDivergence()
{
    if (!run_ || run_->finished())
        return;
    if (run_->size() < 2) {
        emit stopped(generation_, tr("one policy: nothing to diverge from"));
        return;
    }
    run_to_ = Time();
    setState(SimState::Seeking);
    pump_->start(0);
}

void SimWorker::setSpeed(double simulated_per_wall_second)
{
    speed_ = simulated_per_wall_second;
    resetClock();
}

void SimWorker::setBreakpoints(std::vector<Breakpoint> breakpoints, bool on_first_divergence)
{
    breakpoints_ = std::move(breakpoints);
    break_on_divergence_ = on_first_divergence;
    if (!run_)
        return;
    if (breakpoints_.empty()) {
        run_->set_break_condition({});
        return;
    }
    // A copy: the condition runs on this thread while the list may change.
    run_->set_break_condition([bps = breakpoints_](int, const DecisionRecord& rec, const SchedState& s) {
        return std::any_of(bps.begin(), bps.end(), [&](const Breakpoint& bp) { return breakpoint_hit(bp, rec, s); });
    });
}

bool SimWorker::breaking() const
{
    return !breakpoints_.empty() || (break_on_divergence_ && run_->size() > 1 && !run_->first_divergence());
}

void SimWorker::pump()
{
    if (stop_ || !run_)
        return;
    guarded([this] {
        if (state_ == SimState::Seeking)
            advanceSeeking(kSliceNs);
        else if (state_ == SimState::Running)
            advanceRunning(kSliceNs);
    });
    if (stop_ || !run_)
        return;
    if (state_ == SimState::Running || state_ == SimState::Seeking) {
        sendFrame(false);
        const bool throttled = speed_ > 0 && run_to_ == Time();
        const Time clock = anchor_sim_ + Time::s(speed_ * static_cast<double>(anchor_wall_.nsecsElapsed()) / 1e9);
        pump_->start(throttled && run_->now() >= clock ? kIdleWaitMs : 0);
    }
}

void SimWorker::advanceRunning(qint64 budget_ns)
{
    QElapsedTimer wall;
    wall.start();
    while (!stop_ && wall.nsecsElapsed() < budget_ns && state_ == SimState::Running) {
        Time target = Time::max();
        if (run_to_ > Time()) {
            target = run_to_;
        } else if (speed_ > 0) {
            target = anchor_sim_ + Time::s(speed_ * static_cast<double>(anchor_wall_.nsecsElapsed()) / 1e9);
            // A machine too slow for the speed asked runs flat out rather
            // than building up a debt it would later race to pay.
            if (target - run_->now() > Time::s(speed_ * 0.25)) {
                resetClock();
                target = run_->now() + Time::s(speed_ * 0.25);
            }
        }
        if (run_->now() >= target && run_to_ == Time())
            return;  // ahead of the clock: wait for it
        if (breaking()) {
            advanceByWakeups(budget_ns - wall.nsecsElapsed(), target);
        } else {
            QElapsedTimer chunk_wall;
            chunk_wall.start();
            const Time to = std::min(target, run_->now() + chunk_);
            run_->run_until(to);
            // Aim for a few milliseconds per call whatever the machine.
            const qint64 took = chunk_wall.nsecsElapsed();
            if (took < 1'000'000 && chunk_ < Time::s(1))
                chunk_ = chunk_ * 2;
            else if (took > 4'000'000 && chunk_ > Time::ns(1000))
                chunk_ = Time::ns(chunk_.ns() / 2);
        }
        // Frames leave on their own clock, not only between slices.
        sendFrame(false);
        if (run_->finished()) {
            settle(SimState::Finished);
            emit stopped(generation_, tr("every run has finished"));
            return;
        }
        if (run_to_ > Time() && run_->now() >= run_to_) {
            pauseBecause(tr("reached %1").arg(QString::fromStdString(format_duration(run_to_))));
            return;
        }
    }
}

// With breakpoints the runs go wakeup by wakeup, so that they stop at the
// very decision that matched rather than somewhere after it.
void SimWorker::advanceByWakeups(qint64 budget_ns, Time target)
{
    QElapsedTimer wall;
    wall.start();
    const bool had_divergence = run_->first_divergence().has_value();
    while (!stop_ && wall.nsecsElapsed() < budget_ns && run_->now() < target) {
        sendFrame(false);
        const LockstepStep s = run_->step_wakeup();
        if (std::none_of(s.records.begin(), s.records.end(), [](const auto& r) { return r.has_value(); }))
            return;
        const bool hit = std::find(s.hits.begin(), s.hits.end(), true) != s.hits.end();
        const bool diverged = break_on_divergence_ && !had_divergence && run_->first_divergence().has_value();
        if (hit || diverged) {
            sendStepped(StepRecords{0, s.records, s.hits, s.diverged, false, {}});
            QString why;
            if (diverged) {
                why = tr("the policies first diverged: %1").arg(choicesText(*run_->first_divergence()));
            } else {
                QStringList what;
                for (std::size_t i = 0; i < s.hits.size(); ++i)
                    if (s.hits[i] && s.records[i])
                        for (const Breakpoint& bp : breakpoints_)
                            if (breakpoint_hit(bp, *s.records[i], run_->sim(static_cast<int>(i)).state()))
                                what << QString::fromStdString(bp.describe());
                what.removeDuplicates();
                why = tr("breakpoint: %1 (wakeup #%2)")
                          .arg(what.isEmpty() ? tr("matched") : what.join(QStringLiteral("; ")))
                          .arg(s.records[static_cast<std::size_t>(std::distance(
                                             s.hits.begin(), std::find(s.hits.begin(), s.hits.end(), true)))]
                                   ->seq);
            }
            pauseBecause(why);
            return;
        }
    }
}

void SimWorker::advanceSeeking(qint64 budget_ns)
{
    QElapsedTimer wall;
    wall.start();
    while (!stop_ && wall.nsecsElapsed() < budget_ns) {
        if (std::optional<Divergence> d = run_->next_divergence(kSeekBatch)) {
            StepRecords out;
            out.diverged = true;
            out.from_divergence_search = true;
            out.hits.assign(d->records.size(), false);
            for (DecisionRecord& r : d->records)
                out.records.emplace_back(std::move(r));
            sendStepped(std::move(out));
            pauseBecause(tr("the policies diverge: %1").arg(choicesText(*d)));
            return;
        }
        if (run_->finished()) {
            settle(SimState::Finished);
            emit stopped(generation_, tr("the runs ended without diverging again"));
            return;
        }
    }
}

void SimWorker::sendFrame(bool force)
{
    if (!run_)
        return;
    if (!force && (frame_in_flight_ || since_frame_.nsecsElapsed() < kFrameIntervalNs))
        return;
    SimFrame frame;
    frame.serial = ++frame_serial_;
    frame.generation = generation_;
    frame.state = state_;
    frame.runs = run_->snapshots();
    frame.recent.reserve(frame.runs.size());
    std::uint64_t events = 0;
    for (int i = 0; i < run_->size(); ++i) {
        frame.recent.push_back(run_->recent(i, kRecentPerFrame));
        events += frame.runs[static_cast<std::size_t>(i)].events;
    }
    frame.first_divergence = run_->first_divergence();
    const double seconds = static_cast<double>(since_frame_.nsecsElapsed()) / 1e9;
    if (state_ == SimState::Running && seconds > 0 && events >= events_at_frame_)
        frame.events_per_second = static_cast<double>(events - events_at_frame_) / seconds;
    frame.target = run_to_;
    events_at_frame_ = events;
    since_frame_.restart();
    frame_in_flight_ = true;
    emit frameReady(frame);
}

// A separate run, so the one shown starts untouched; cut short on a big
// machine, where the estimate is scaled up from the wakeups it saw.
void SimWorker::measurePace(const SessionSetup& setup)
{
    QElapsedTimer wall;
    wall.start();
    try {
        PaceProbe probe(setup);
        while (probe.wakeups() < kPacedWakeups && wall.elapsed() < kPaceBudgetMs && probe.advance()) {
        }
        emit paced(generation_, probe.estimate(kPacedWakeups).ns());
    } catch (const std::exception&) {
        // The run itself reports what is wrong with the setup.
    }
}

QString SimWorker::choicesText(const Divergence& d) const
{
    std::vector<PolicyChoice> choices;
    for (std::size_t i = 0; i < d.records.size() && setup_ && i < setup_->policies.size(); ++i)
        choices.push_back({QString::fromStdString(setup_->policies[i]), &d.records[i]});
    return divergence_text(d.wakeup, choices);
}

void SimWorker::sendStepped(StepRecords records)
{
    records.generation = generation_;
    emit stepped(records);
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// SimWorker: owns the LockstepRun and advances it on its own thread, the
// way Qt's Mandelbrot example runs its render thread: inputs arrive as
// queued calls, work is done in slices of a few milliseconds from a timer so
// that pause, step and stop are served between slices, and results leave as
// value copies through queued signals. A frame is sent at most ~30 times a
// second and only once the window has drawn the previous one
// (frameConsumed()), so a slow window drops frames instead of queueing them.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "session/breakpoint.h"
#include "session/scenario_session.h"
#include "sim/sim_frame.h"

class QTimer;

namespace wb {

class LockstepRun;

class SimWorker : public QObject {
    Q_OBJECT

public:
    // The window's default speed lets these first decisions take about ten
    // seconds; measured by a probe run of at most kPaceBudgetMs of wall time.
    static constexpr std::uint64_t kPacedWakeups = 1000;
    static constexpr qint64 kPaceBudgetMs = 250;

    explicit SimWorker(QObject* parent = nullptr);
    ~SimWorker() override;

    // Thread-safe. Any slice in progress ends at its next check.
    void requestStop() { stop_ = true; }
    // Thread-safe: the window has drawn the last frame.
    void frameConsumed() { frame_in_flight_ = false; }

    // Call these on the worker's thread (SimSession queues them).
    // Loads and measures the new scenario's pace (paced()).
    void load(const SessionSetup& setup, RunGeneration generation);
    void halt();  // stops for good: no more slices
    void run();
    void runTo(Time until);  // run as fast as possible to `until`, then pause
    void pause();
    void step();
    void nextDivergence();
    void restart(RunGeneration generation);
    // Drops the runs and serves a requestStop(): nothing of them is left on
    // this thread, so the policies they were built from can be replaced.
    // The setup stays for restart().
    void dropRuns(RunGeneration generation);
    // Simulated seconds per wall second; <= 0 as fast as possible.
    void setSpeed(double simulated_per_wall_second);
    void setBreakpoints(std::vector<Breakpoint> breakpoints, bool on_first_divergence);
    // The cases asked at each stepped wakeup (StepRecords::what_if); none:
    // nothing is asked. Kept across loads and restarts.
    void setWhatIf(std::vector<WhatIfCase> cases);

signals:
    void frameReady(const wb::SimFrame& frame);
    void stepped(const wb::StepRecords& records);
    void stateChanged(wb::RunGeneration generation, wb::SimState state);
    // Why a run paused on its own: a breakpoint, the first divergence, the end.
    void stopped(wb::RunGeneration generation, const QString& why);
    // The runs could not be built (a bad setup): nothing is loaded.
    void failed(const QString& message);
    // A run broke while advancing (a PolicyError names the policy, the hook
    // and the wakeup): the runs are dropped, the state is Failed.
    void runFailed(wb::RunGeneration generation, const QString& message);
    // The simulated time the loaded run's first kPacedWakeups decisions take.
    void paced(wb::RunGeneration generation, qint64 first_wakeups_ns);

private:
    void pump();
    // Runs `advance`; an exception from the engine (a policy breaking its
    // contract) stops the run instead of unwinding through Qt's event loop.
    template <typename F>
    void guarded(F&& advance);
    void breakDown(const QString& message);
    void advanceRunning(qint64 budget_ns);
    void advanceByWakeups(qint64 budget_ns, Time target);
    void advanceSeeking(qint64 budget_ns);
    void setState(SimState state);
    void settle(SimState state);
    void sendFrame(bool force);
    void pauseBecause(const QString& why);
    void sendStepped(StepRecords records);
    // "#3: baseline → CPU 2 (prev idle), sync-waker-v3 → CPU 3 (sync-waker-v3)"
    QString choicesText(const Divergence& d) const;
    void measurePace(const SessionSetup& setup);
    bool start(const SessionSetup& setup, RunGeneration generation);
    void resetClock();
    bool breaking() const;
    void buildWhatIf();  // what_if_ from setup_ and what_if_cases_

    std::unique_ptr<LockstepRun> run_;
    std::vector<WhatIfCase> what_if_cases_;
    std::unique_ptr<WhatIf> what_if_;  // built from policies as the runs are: dropped with them
    std::optional<SessionSetup> setup_;
    std::vector<Breakpoint> breakpoints_;
    bool break_on_divergence_ = false;
    SimState state_ = SimState::Empty;
    double speed_ = 0;
    Time run_to_;                // a runTo target, zero when none
    Time chunk_ = Time::us(20);  // simulated time per run_until, tuned to the machine's speed
    Time anchor_sim_;            // simulated time when the wall clock was anchored
    QElapsedTimer anchor_wall_;
    QElapsedTimer since_frame_;
    std::uint64_t frame_serial_ = 0;
    RunGeneration generation_ = 0;
    std::uint64_t events_at_frame_ = 0;
    QTimer* pump_ = nullptr;
    std::atomic<bool> stop_{false};
    std::atomic<bool> frame_in_flight_{false};
};

}  // namespace wb

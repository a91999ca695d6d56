// SPDX-License-Identifier: Apache-2.0
//
// SimSession: the window's handle on the simulation thread. It starts a
// QThread with a SimWorker in it, forwards the window's commands as queued
// calls and the worker's frames and records back as signals, and on
// destruction stops the worker between two slices and joins the thread, so
// closing the window mid-run neither hangs nor leaks.
#pragma once

#include <QObject>
#include <QString>
#include <vector>

#include "session/breakpoint.h"
#include "session/scenario_session.h"
#include "sim/sim_frame.h"

class QThread;

namespace wb {

class SimWorker;
class CallReceiver;

class SimSession : public QObject {
    Q_OBJECT

public:
    explicit SimSession(QObject* parent = nullptr);
    ~SimSession() override;

    void load(const SessionSetup& setup);
    void run();
    void runTo(Time until);
    void pause();
    void step();
    void nextDivergence();
    void restart();
    void setSpeed(double simulated_per_wall_second);
    void setBreakpoints(const std::vector<Breakpoint>& breakpoints, bool on_first_divergence);
    // What every case would choose at each stepped wakeup (StepRecords::what_if); none: off.
    void setWhatIf(const std::vector<WhatIfCase>& cases);

    SimState state() const { return state_; }
    const SimFrame& lastFrame() const { return last_frame_; }
    bool hasFrame() const { return last_frame_.serial != 0; }
    // Stops the runs between two slices and drops them, and returns once
    // the worker holds nothing of them (the state becomes Empty): then the
    // policies they were built from may be replaced. restart() builds them
    // again from the same setup, load() from another.
    void dropRuns();
    // Stops the worker and joins its thread; later commands are ignored.
    void shutdown();

signals:
    void frameReady(const wb::SimFrame& frame);
    void stepped(const wb::StepRecords& records);
    void stateChanged(wb::SimState state);
    void stopped(const QString& why);
    void failed(const QString& message);
    // The current run broke while advancing (SimState::Failed): the message
    // names the policy, the hook and the wakeup.
    void runFailed(const QString& message);
    // What the loaded scenario's first SimWorker::kPacedWakeups decisions take.
    void paced(qint64 first_wakeups_ns);

private:
    template <typename F>
    void post(F&& call);
    void onFrame(const SimFrame& frame);

    QThread* thread_ = nullptr;
    SimWorker* worker_ = nullptr;
    CallReceiver* receiver_ = nullptr;  // on the worker's thread: runs what post() hands over
    RunGeneration generation_ = 0;  // of the last load or restart asked for
    SimState state_ = SimState::Empty;
    SimFrame last_frame_;
};

}  // namespace wb

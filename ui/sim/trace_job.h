// SPDX-License-Identifier: Apache-2.0
//
// TraceJob: a recorded trace read, parsed and replayed (replay_trace(), as
// `wakesim trace replay` runs it) on a background thread, keeping each
// replayed wakeup's frame for the window to step through. The replay
// reports its progress every few thousand events and stops at the next
// report after cancel(); frames past `max_frames` are not kept (the figures
// still cover the whole trace). Destroying the job cancels it and waits.
#pragma once

#include <QObject>
#include <QString>
#include <memory>
#include <vector>

#include "sim/job_thread.h"
#include "topology/machine.h"
#include "trace/trace_replay.h"

namespace wb {

// What a finished load hands the window.
struct LoadedTrace {
    QString path;
    QString machine_spec;  // as the user gave it: a shipped name, a machine file, "lscpu:FILE"
    Machine machine;
    ReplayOptions options;  // the policies asked, the reference first
    ReplayResult result;
    std::vector<ReplayFrame> frames;  // the first max_frames replayed wakeups
    bool capped = false;              // more were replayed than kept
};

class TraceJob : public QObject {
    Q_OBJECT

public:
    static constexpr std::size_t kMaxFrames = 200'000;

    explicit TraceJob(QObject* parent = nullptr);
    ~TraceJob() override;

    // Cancels a load in progress and starts this one.
    void start(const QString& path, const QString& machine_spec, const Machine& machine, const ReplayOptions& options,
               std::size_t max_frames = kMaxFrames);
    // Stops the load at its next progress report; nothing more is delivered.
    void cancel();
    bool running() const { return running_; }
    // The finished load, once finished() was emitted; taken once.
    std::unique_ptr<LoadedTrace> take() { return std::move(result_); }

signals:
    void progress(double done);  // 0 to 1, of the replay (reading and parsing come first)
    void finished();
    void failed(const QString& message);

private:
    JobThread<TraceJob> thread_;
    std::unique_ptr<LoadedTrace> result_;
    bool running_ = false;
};

}  // namespace wb

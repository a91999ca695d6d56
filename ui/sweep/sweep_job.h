// SPDX-License-Identifier: Apache-2.0
//
// SweepJob: a sweep file run on a background thread, as `wakesim sweep FILE
// --json OUT` runs it (resumable from OUT.partial, the same bytes), for
// Results > Sweep. Destroying or cancelling the job lets the runs under way
// finish, keeps them in OUT.partial, and waits for them.
#pragma once

#include <QObject>
#include <QString>

#include "sim/job_thread.h"

namespace wb {

class SweepJob : public QObject {
    Q_OBJECT

public:
    explicit SweepJob(QObject* parent = nullptr);
    ~SweepJob() override;

    // Cancels a job in progress and starts this one on `jobs` threads.
    void start(const QString& sweep_file, const QString& out, int jobs);
    void cancel();
    bool running() const { return running_; }

signals:
    void progress(int done, int total);
    void finished(const QString& out);
    void failed(const QString& message);

private:
    JobThread<SweepJob> thread_;
    bool running_ = false;
};

}  // namespace wb

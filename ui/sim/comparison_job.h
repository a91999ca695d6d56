// SPDX-License-Identifier: Apache-2.0
//
// ComparisonJob: the scenario's whole comparison (every policy x case x
// seed, as `wakesim compare` runs it) on a background thread, for the
// headline and placement charts and the result exports. Destroying the job
// cancels it and waits for the run in progress, no more.
#pragma once

#include <QObject>
#include <QString>

#include "io/scenario_json.h"
#include "metrics/comparison.h"
#include "sim/job_thread.h"
#include "topology/machine.h"

namespace wb {

class ComparisonJob : public QObject {
    Q_OBJECT

public:
    explicit ComparisonJob(QObject* parent = nullptr);
    ~ComparisonJob() override;

    // Cancels a job in progress and starts this one.
    void start(const Machine& machine, const Scenario& scenario, int jobs);
    void cancel();
    bool running() const { return running_; }

signals:
    void progress(int done, int total);
    void finished(const wb::Comparison& comparison, const QString& machine);
    void failed(const QString& message);

private:
    JobThread<ComparisonJob> thread_;
    bool running_ = false;
};

}  // namespace wb

Q_DECLARE_METATYPE(wb::Comparison)

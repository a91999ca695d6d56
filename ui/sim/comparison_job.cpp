// SPDX-License-Identifier: Apache-2.0
#include "sim/comparison_job.h"

#include <exception>

#include "session/comparison_run.h"

namespace wb {

ComparisonJob::ComparisonJob(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<wb::Comparison>();
}

ComparisonJob::~ComparisonJob()
{
    cancel();
}

void ComparisonJob::cancel()
{
    thread_.cancel();
    running_ = false;
}

void ComparisonJob::start(const Machine& machine, const Scenario& scenario, int jobs)
{
    running_ = true;
    thread_.start(this, [machine, scenario, jobs](const JobThread<ComparisonJob>::Deliver& deliver) {
        try {
            ComparisonControl control;
            control.cancel = deliver.flag();
            control.progress = [&](int done, int total) {
                deliver([done, total](ComparisonJob* j) { emit j->progress(done, total); });
            };
            std::optional<Comparison> result = run_comparison(machine, scenario, jobs, control);
            if (result) {
                const QString name = QString::fromStdString(machine.name);
                deliver([c = std::move(*result), name](ComparisonJob* j) {
                    j->running_ = false;
                    emit j->finished(c, name);
                });
            }
        } catch (const std::exception& e) {
            const QString what = QString::fromStdString(e.what());
            deliver([what](ComparisonJob* j) {
                j->running_ = false;
                emit j->failed(what);
            });
        }
    });
}

}  // namespace wb

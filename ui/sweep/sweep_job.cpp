// SPDX-License-Identifier: Apache-2.0
#include "sweep/sweep_job.h"

#include <exception>

#include "sweep/prepared_sweep.h"
#include "sweep/sweep_run.h"

namespace wb {

SweepJob::SweepJob(QObject* parent) : QObject(parent) {}

SweepJob::~SweepJob()
{
    cancel();
}

void SweepJob::cancel()
{
    thread_.cancel();
    running_ = false;
}

void SweepJob::start(const QString& sweep_file, const QString& out, int jobs)
{
    running_ = true;
    thread_.start(this, [file = sweep_file.toStdString(), out_path = out.toStdString(),
                         jobs](const JobThread<SweepJob>::Deliver& deliver) {
        try {
            const PreparedSweep sweep(file, jobs);
            SweepRunOptions options;
            options.jobs = jobs;
            options.stop = deliver.flag();
            options.progress = [&](const SweepProgress& p) {
                deliver([done = static_cast<int>(p.done), total = static_cast<int>(p.total)](SweepJob* j) {
                    emit j->progress(done, total);
                });
            };
            if (run_sweep(sweep.grid(), sweep.machines(), sweep.costs(), out_path, options))
                deliver([out = QString::fromStdString(out_path)](SweepJob* j) {
                    j->running_ = false;
                    emit j->finished(out);
                });
        } catch (const std::exception& e) {
            deliver([what = QString::fromStdString(e.what())](SweepJob* j) {
                j->running_ = false;
                emit j->failed(what);
            });
        }
    });
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "sweep/sweep_job.h"

#include <QMetaObject>
#include <QPointer>
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
    if (stop_)
        *stop_ = true;
    if (thread_.joinable())
        thread_.join();
    running_ = false;
}

void SweepJob::start(const QString& sweep_file, const QString& out, int jobs)
{
    cancel();
    stop_ = std::make_shared<std::atomic<bool>>(false);
    running_ = true;
    QPointer<SweepJob> self(this);
    thread_ = std::thread([self, file = sweep_file.toStdString(), out_path = out.toStdString(), jobs, flag = stop_] {
        // Results come back as queued calls; a job cancelled meanwhile drops them.
        auto deliver = [self, flag](auto&& call) {
            if (flag->load() || !self)
                return;
            QMetaObject::invokeMethod(
                self.data(),
                [self, flag, call] {
                    if (self && !flag->load())
                        call(self.data());
                },
                Qt::QueuedConnection);
        };
        try {
            const PreparedSweep sweep(file, jobs);
            SweepRunOptions options;
            options.jobs = jobs;
            options.stop = flag.get();
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

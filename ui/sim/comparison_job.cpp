// SPDX-License-Identifier: Apache-2.0
#include "sim/comparison_job.h"

#include <QMetaObject>
#include <QPointer>
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
    if (cancel_)
        *cancel_ = true;
    if (thread_.joinable())
        thread_.join();
    running_ = false;
}

void ComparisonJob::start(const Machine& machine, const Scenario& scenario, int jobs)
{
    cancel();
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    running_ = true;
    QPointer<ComparisonJob> self(this);
    thread_ = std::thread([self, machine, scenario, jobs, flag = cancel_] {
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
            ComparisonControl control;
            control.cancel = flag.get();
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

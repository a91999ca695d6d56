// SPDX-License-Identifier: Apache-2.0
//
// JobThread: the background thread of a job object (ComparisonJob,
// TraceJob): one run at a time, cancelled through a flag the run polls, its
// results handed to the job on the job's own thread as queued calls, which
// a cancelled run (or a destroyed job) drops. cancel() waits for the run in
// progress to see the flag, no more.
#pragma once

#include <QMetaObject>
#include <QPointer>
#include <atomic>
#include <memory>
#include <thread>
#include <utility>

namespace wb {

template <typename Job>
class JobThread {
public:
    JobThread() = default;
    JobThread(const JobThread&) = delete;
    JobThread& operator=(const JobThread&) = delete;
    ~JobThread() { cancel(); }

    // Calls a function of Job* on the job's thread, unless cancelled meanwhile.
    class Deliver {
    public:
        Deliver(QPointer<Job> job, std::shared_ptr<std::atomic<bool>> cancelled)
            : job_(std::move(job)), cancelled_(std::move(cancelled))
        {
        }
        template <typename Call>
        void operator()(Call&& call) const
        {
            if (cancelled_->load() || !job_)
                return;
            QMetaObject::invokeMethod(
                job_.data(),
                [job = job_, cancelled = cancelled_, call = std::forward<Call>(call)] {
                    if (job && !cancelled->load())
                        call(job.data());
                },
                Qt::QueuedConnection);
        }
        bool cancelled() const { return cancelled_->load(); }
        const std::atomic<bool>* flag() const { return cancelled_.get(); }

    private:
        QPointer<Job> job_;
        std::shared_ptr<std::atomic<bool>> cancelled_;
    };

    // Cancels the run in progress, then runs `work(deliver)` on a new thread.
    template <typename Work>
    void start(Job* job, Work work)
    {
        cancel();
        cancelled_ = std::make_shared<std::atomic<bool>>(false);
        thread_ = std::thread(
            [work = std::move(work), deliver = Deliver(QPointer<Job>(job), cancelled_)]() mutable { work(deliver); });
    }

    void cancel()
    {
        if (cancelled_)
            *cancelled_ = true;
        if (thread_.joinable())
            thread_.join();
    }

private:
    std::thread thread_;
    std::shared_ptr<std::atomic<bool>> cancelled_;
};

}  // namespace wb

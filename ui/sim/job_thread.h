// SPDX-License-Identifier: Apache-2.0
//
// JobThread: the background thread of a job object (ComparisonJob,
// TraceJob): one run at a time, cancelled through a flag the run polls, its
// results handed to the job on the job's own thread as queued calls, which
// a cancelled run (or a destroyed job) drops. cancel() waits for the run in
// progress to see the flag, no more.
#pragma once

#include <QPointer>
#include <atomic>
#include <memory>
#include <thread>
#include <utility>

#include "sim/posted_call.h"

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
        Deliver(QPointer<Job> job, CallReceiver* receiver, std::shared_ptr<std::atomic<bool>> cancelled)
            : job_(std::move(job)), receiver_(receiver), cancelled_(std::move(cancelled))
        {
        }
        template <typename Call>
        void operator()(Call&& call) const
        {
            if (cancelled_->load())
                return;
            post_call(receiver_, [job = job_, cancelled = cancelled_, call = std::forward<Call>(call)] {
                if (job && !cancelled->load())
                    call(job.data());
            });
        }
        bool cancelled() const { return cancelled_->load(); }
        const std::atomic<bool>* flag() const { return cancelled_.get(); }

    private:
        QPointer<Job> job_;  // read on the job's thread only
        // On the job's thread; it outlives every run, since the JobThread
        // that owns it joins the run before it goes.
        CallReceiver* receiver_;
        std::shared_ptr<std::atomic<bool>> cancelled_;
    };

    // Cancels the run in progress, then runs `work(deliver)` on a new thread.
    template <typename Work>
    void start(Job* job, Work work)
    {
        cancel();
        cancelled_ = std::make_shared<std::atomic<bool>>(false);
        thread_ = std::thread([work = std::move(work), deliver = Deliver(QPointer<Job>(job), &receiver_,
                                                                         cancelled_)]() mutable { work(deliver); });
    }

    void cancel()
    {
        if (cancelled_)
            *cancelled_ = true;
        if (thread_.joinable())
            thread_.join();
    }

private:
    CallReceiver receiver_;  // on the thread that made the job, where results are delivered
    std::thread thread_;
    std::shared_ptr<std::atomic<bool>> cancelled_;
};

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "sim/sim_session.h"

#include <QMetaObject>
#include <QThread>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "sim/posted_call.h"
#include "sim/sim_worker.h"
#include "sim/thread_handoff.h"

namespace wb {

namespace {

// nice 5: about a third of a nice-0 thread's weight (sched_prio_to_weight,
// 1024 against 335), so the window's thread is served first without
// starving the runs.
constexpr int kWorkerNice = 5;

void lower_own_priority()
{
#ifdef __linux__
    setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), kWorkerNice);
#endif
}

}  // namespace

SimSession::SimSession(QObject* parent) : QObject(parent)
{
    thread_ = new QThread(this);
    thread_->setObjectName(QStringLiteral("wakebench-sim"));
    // The simulation is background work: under contention the window's
    // thread must get the CPU first, or the live view stalls while the runs
    // take their full share. QThread's priorities mean nothing to
    // SCHED_OTHER on Linux, so the thread lowers its own nice value.
    connect(
        thread_, &QThread::started, thread_, [] { lower_own_priority(); }, Qt::DirectConnection);
    // The thread's last act, and wait() below its other end (thread_handoff.h).
    connect(
        thread_, &QThread::finished, thread_, [t = thread_] { handoff_release(t); }, Qt::DirectConnection);
    worker_ = new SimWorker;
    worker_->moveToThread(thread_);
    receiver_ = new CallReceiver;
    receiver_->moveToThread(thread_);
    connect(worker_, &SimWorker::frameReady, this, &SimSession::onFrame);
    connect(worker_, &SimWorker::stepped, this, [this](const StepRecords& records) {
        if (records.generation == generation_)
            emit stepped(records);
    });
    connect(worker_, &SimWorker::stateChanged, this, [this](RunGeneration generation, SimState s) {
        if (generation != generation_)
            return;
        state_ = s;
        emit stateChanged(s);
    });
    connect(worker_, &SimWorker::stopped, this, [this](RunGeneration generation, const QString& why) {
        if (generation == generation_)
            emit stopped(why);
    });
    connect(worker_, &SimWorker::failed, this, &SimSession::failed);
    connect(worker_, &SimWorker::runFailed, this, [this](RunGeneration generation, const QString& message) {
        if (generation == generation_)
            emit runFailed(message);
    });
    connect(worker_, &SimWorker::paced, this, [this](RunGeneration generation, qint64 first_wakeups_ns) {
        if (generation == generation_)
            emit paced(first_wakeups_ns);
    });
    thread_->start();
}

SimSession::~SimSession()
{
    shutdown();
}

void SimSession::shutdown()
{
    if (!worker_)
        return;
    worker_->requestStop();
    // Waits for the slice in progress (it ends at its next check) and stops
    // the worker's timer on its own thread, as Qt requires.
    QMetaObject::invokeMethod(
        worker_, [w = worker_] { w->halt(); }, Qt::BlockingQueuedConnection);
    thread_->quit();
    thread_->wait();
    handoff_acquire(thread_);
    delete receiver_;
    receiver_ = nullptr;
    delete worker_;
    worker_ = nullptr;
}

void SimSession::dropRuns()
{
    if (!worker_)
        return;
    worker_->requestStop();
    QMetaObject::invokeMethod(
        worker_, [w = worker_, g = ++generation_] { w->dropRuns(g); }, Qt::BlockingQueuedConnection);
    // Known now, not when the worker's queued word arrives: a load may
    // come first and make it a stale generation's.
    if (state_ != SimState::Empty) {
        state_ = SimState::Empty;
        emit stateChanged(state_);
    }
}

template <typename F>
void SimSession::post(F&& call)
{
    if (!worker_)
        return;
    post_call(receiver_, std::forward<F>(call));
}

void SimSession::onFrame(const SimFrame& frame)
{
    // A frame of a run that has since been restarted or replaced was queued
    // before the command: it is not drawn, only acknowledged.
    if (frame.generation == generation_) {
        last_frame_ = frame;
        emit frameReady(frame);
    }
    // Receivers in this thread have drawn it by now.
    if (worker_)
        worker_->frameConsumed();
}

void SimSession::load(const SessionSetup& setup)
{
    post([w = worker_, setup, g = ++generation_] { w->load(setup, g); });
}

void SimSession::run()
{
    post([w = worker_] { w->run(); });
}

void SimSession::runTo(Time until)
{
    post([w = worker_, until] { w->runTo(until); });
}

void SimSession::pause()
{
    post([w = worker_] { w->pause(); });
}

void SimSession::step()
{
    post([w = worker_] { w->step(); });
}

void SimSession::nextDivergence()
{
    post([w = worker_] { w->nextDivergence(); });
}

void SimSession::restart()
{
    post([w = worker_, g = ++generation_] { w->restart(g); });
}

void SimSession::setSpeed(double simulated_per_wall_second)
{
    post([w = worker_, simulated_per_wall_second] { w->setSpeed(simulated_per_wall_second); });
}

void SimSession::setWhatIf(const std::vector<WhatIfCase>& cases)
{
    post([w = worker_, cases] { w->setWhatIf(cases); });
}

void SimSession::setBreakpoints(const std::vector<Breakpoint>& breakpoints, bool on_first_divergence)
{
    post([w = worker_, breakpoints, on_first_divergence] { w->setBreakpoints(breakpoints, on_first_divergence); });
}

}  // namespace wb

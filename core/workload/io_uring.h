// SPDX-License-Identifier: Apache-2.0
//
// The io-uring workload, modelled on stress-ng's io-uring stressor
// (stress-io-uring.c) and Linux's io_uring (io_uring/io_uring.c, io-wq.c,
// wait.c). Each instance is a process that opens a file in its temp dir and
// submits 15 opcodes to its ring one at a time, each with
// io_uring_enter(fd, 1, 1, IORING_ENTER_GETEVENTS): it waits for every
// completion before the next submission. Requests the kernel cannot finish
// without blocking are handed to an io-wq worker, a thread of the instance's
// own process (iou-wrk-PID, PF_IO_WORKER, not a kthread) that the submitter
// wakes with wake_up_process() and the fair class places like any task; the
// worker's completion wakes the submitter, which sleeps in io_cqring_wait()
// with in_iowait set while it has requests in flight. Idle workers linger
// WORKER_IDLE_TIMEOUT before exiting, and the last one stays.
#pragma once

#include <cstdint>
#include <vector>

#include "workload/io_uring_ops.h"
#include "workload/workload.h"

namespace wb {

struct IoUringOptions {
    std::uint64_t instances = 0;  // stress-ng's --io-uring N; 0 = one per CPU
    std::uint64_t ops = 0;        // --io-uring-ops: stop after this many bogo ops per instance; 0 = no limit
    Time timeout = Time::s(1);    // --timeout, in simulated time
    // In-kernel work of one tmpfs file operation besides the io_uring layer
    // and the system call: fd or dcache lookup, inode lock, attribute copy.
    Time vfs_work = Time::ns(300);
    // Allocating and zeroing, or freeing, one 4 KiB tmpfs page.
    Time page_work = Time::ns(300);
    // fork() of a stress-ng process: the parent forks the instances one
    // after another (stress_run()), and each instance forks the child that
    // runs the stressor (stress_oomable_child()).
    Time fork = Time::us(50);
    // io-wq.c WORKER_IDLE_TIMEOUT (5 * HZ): how long an idle worker sleeps
    // before it checks whether to exit.
    Time worker_idle = Time::s(5);
    IoFileCaps file = kTmpfsFile;
};

class IoUringWorkload final : public Workload {
public:
    explicit IoUringWorkload(IoUringOptions options) : opt_(options) {}

    void setup(Kernel& k) override;
    Step next_step(Kernel& k, TaskId t) override;
    void on_timer(Kernel& k, std::int64_t token) override;
    // An instance's process is gone once its io-wq workers have exited too
    // (io_wq_exit_workers() waits for them).
    bool done() const override
    {
        return exited_ == instances_.size() && !instances_.empty() && wstats_.exited == wstats_.created;
    }
    double ops() const override { return static_cast<double>(total_ops()); }
    double progress(Time now) const override
    {
        return time_progress(now, opt_.timeout + times_fork(instances_.size()));
    }
    Headline headline(Time elapsed) const override;
    std::string report(Time elapsed) const override;

    // What the tests look at.
    struct WorkerStats {
        std::uint64_t created = 0;        // create_io_worker() calls
        std::uint64_t exited = 0;         // workers that left io_wq_worker()
        std::uint64_t activations = 0;    // idle workers woken by io_wq_enqueue()
        std::uint64_t found_queued = 0;   // requests a running worker took without sleeping
        std::uint64_t idle_timeouts = 0;  // schedule_timeout(WORKER_IDLE_TIMEOUT) expiries
    };
    const WorkerStats& worker_stats() const { return wstats_; }
    std::uint64_t punted() const { return punted_; }
    std::uint64_t inline_completions() const { return inline_; }
    std::uint64_t iowait_sleeps() const { return iowait_sleeps_; }
    std::uint64_t rounds() const { return rounds_; }
    bool is_worker(TaskId t) const;

private:
    enum class Phase : std::uint8_t { Start, FileCycle, Submitting, Waiting, Exited };
    enum class WorkerState : std::uint8_t { Busy, Woken, Idle, Exiting, Exited };

    // The instance's file in its temp dir: every request names offset 0, so
    // its page-cache pages are the first `pages` 4 KiB pages.
    struct File {
        std::uint64_t size = 0;
        std::uint64_t pages = 0;
        CpuId data_cpu = kNoCpu;  // where the bytes at offset 0 were last written
    };

    struct Instance {
        TaskId task = kNoTask;
        Phase phase = Phase::Start;
        std::size_t next = 0;  // index in kStressIoUringRound of the request being submitted
        bool cqe_ready = false;
        Time start, end;  // the stressor's own run: alarm(timeout) is set by each child
        std::uint32_t unsupported = 0;  // opcodes a completion reported -EOPNOTSUPP for, by bit
        std::uint64_t ops = 0;
        File file;
        std::vector<std::size_t> workers;  // indices in workers_, live ones
        std::vector<IoUringOp> iowq;       // io-wq work list
        int nr_workers = 0;
        int max_workers = 0;
        Time cpu_time;  // nominal CPU work of the process: submitter and workers
    };

    struct Worker {
        TaskId task = kNoTask;
        std::size_t instance = 0;
        WorkerState state = WorkerState::Busy;
        bool has_work = false;
        IoUringOp op = IoUringOp::Nop;
        bool timer_armed = false;
        bool timed_out = false;
        Time idle_since;
    };

    enum class Kind : std::uint8_t { Parent, Instance, Worker };
    struct Role {
        Kind kind = Kind::Instance;
        std::uint32_t index = 0;
    };

    Step parent_step(Kernel& k);
    Step instance_step(Kernel& k, Instance& in);
    Step worker_step(Kernel& k, Worker& w);
    Step submit(Kernel& k, Instance& in);
    Step next_supported(Kernel& k, Instance& in);
    Step reap_and_continue(Kernel& k, Instance& in);
    Step exit_instance(Kernel& k, Instance& in);
    Time file_cycle(Instance& in, bool first);
    Time op_work(Kernel& k, Instance& in, IoUringOp op, CpuId cpu);
    void io_wq_enqueue(Kernel& k, Instance& in, IoUringOp op);
    void create_worker(Kernel& k, Instance& in);
    Step worker_idle(Kernel& k, Worker& w);
    Step worker_exit(Instance& in, Worker& w);
    void set_role(TaskId t, Role r);
    std::uint64_t total_ops() const;
    double mean_run_seconds(Time now) const;
    Time times_fork(std::size_t n) const { return Time::ns(opt_.fork.ns() * static_cast<std::int64_t>(n)); }
    bool stopping(const Kernel& k, const Instance& in) const;

    IoUringOptions opt_;
    std::vector<Instance> instances_;
    std::vector<Worker> workers_;
    std::vector<Role> role_of_;  // by TaskId
    TaskId parent_ = kNoTask;
    std::size_t forked_ = 0;
    std::size_t exited_ = 0;
    Time syscall_, ring_;
    WorkerStats wstats_;
    std::uint64_t punted_ = 0, inline_ = 0, iowait_sleeps_ = 0, rounds_ = 0;
};

}  // namespace wb

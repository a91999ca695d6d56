// SPDX-License-Identifier: Apache-2.0
#include "workload/io_uring.h"

#include <algorithm>
#include <cstdio>

#include "engine/kernel.h"

namespace wb {

namespace {

constexpr std::uint64_t kPage = 4096;
constexpr std::size_t kRound = kStressIoUringRound.size();

std::uint64_t pages_for(std::uint64_t bytes)
{
    return (bytes + kPage - 1) / kPage;
}

// stress_io_uring_child(): "minor tweaking based on empirical testing".
std::uint32_t ring_entries_for(int cpus)
{
    if (cpus > 128)
        return 22;
    if (cpus > 32)
        return 20;
    if (cpus > 16)
        return 18;
    return 14;
}

// io_uring_setup() rounds the SQ size up to a power of two; io-wq's bound
// accounting class gets min(sq_entries, 4 * online CPUs) workers
// (io_init_wq_offload()).
int bound_workers_for(int cpus)
{
    std::uint32_t sq = 1;
    while (sq < ring_entries_for(cpus))
        sq <<= 1;
    return static_cast<int>(std::min<std::uint64_t>(sq, 4ULL * static_cast<std::uint64_t>(cpus)));
}

Time times(Time t, std::uint64_t n)
{
    return Time::ns(t.ns() * static_cast<std::int64_t>(n));
}

}  // namespace

void IoUringWorkload::setup(Kernel& k)
{
    const Machine& m = k.machine();
    syscall_ = Time::ns(static_cast<std::int64_t>(m.costs[Cost::syscall]));
    // A request's life in the ring (the SQE copied and prepared, its CQE
    // posted and the request freed) and each hand-off between submitter and
    // worker (io_wq_enqueue() under acct->lock; the worker's dequeue and its
    // task_work add) are small transfers through shared, locked queues: the
    // cost of one small pipe transfer, the closest the machine has.
    ring_ = Time::ns(static_cast<std::int64_t>(m.costs[Cost::pipe_transfer]));

    const int nr = m.nr_cpus();
    const std::size_t n = opt_.instances ? opt_.instances : static_cast<std::size_t>(nr);
    // stress-ng's main process, on CPU 0, forks the instances.
    TaskSpec ps;
    ps.name = "stress-ng";
    ps.group = 2;
    parent_ = k.create_task(ps);
    set_role(parent_, {Kind::Parent, 0});
    instances_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        TaskSpec spec;
        spec.name = "stress-ng-io-uring-" + std::to_string(i);
        spec.group = 0;
        spec.process = static_cast<int>(i);  // each instance is a forked process
        const TaskId t = k.create_task(spec);
        instances_[i].task = t;
        instances_[i].max_workers = bound_workers_for(nr);
        set_role(t, {Kind::Instance, static_cast<std::uint32_t>(i)});
    }
    k.wake_up_new_task(parent_, 0);
}

// stress_run(): fork() each instance in turn; the children start at once
// (no --sync-start). Then waitpid() for the rest of the run.
Step IoUringWorkload::parent_step(Kernel& k)
{
    if (forked_ > 0 && forked_ <= instances_.size())
        k.wake_up_new_task(instances_[forked_ - 1].task, k.task_cpu(parent_));
    if (forked_ >= instances_.size())
        return Step::block();
    ++forked_;
    return Step::compute(opt_.fork);
}

void IoUringWorkload::set_role(TaskId t, Role r)
{
    const auto idx = static_cast<std::size_t>(t);
    if (role_of_.size() <= idx)
        role_of_.resize(idx + 1);
    role_of_[idx] = r;
}

bool IoUringWorkload::is_worker(TaskId t) const
{
    const auto idx = static_cast<std::size_t>(t);
    return idx < role_of_.size() && role_of_[idx].kind == Kind::Worker;
}

Step IoUringWorkload::next_step(Kernel& k, TaskId t)
{
    const Role r = role_of_[static_cast<std::size_t>(t)];
    switch (r.kind) {
    case Kind::Worker:
        return worker_step(k, workers_[r.index]);
    case Kind::Instance:
        return instance_step(k, instances_[r.index]);
    case Kind::Parent:
        break;
    }
    return parent_step(k);
}

// ---------------------------------------------------------------------------
// The submitter: stress_io_uring_child() and stress_io_uring_submit().

Step IoUringWorkload::instance_step(Kernel& k, Instance& in)
{
    switch (in.phase) {
    case Phase::Start: {
        // The instance forks the child that runs the stressor, whose run
        // (and alarm(timeout)) starts now; it opens its file.
        in.start = k.now();
        in.phase = Phase::FileCycle;
        const Time t = opt_.fork + file_cycle(in, true);
        in.cpu_time += t;
        return Step::compute(t);
    }
    case Phase::FileCycle:
        in.next = 0;
        return next_supported(k, in);
    case Phase::Submitting:
        // io_uring_enter() has submitted the request: it ran inline (its
        // CQE is posted at the end of submission) or went to io-wq.
        if (!in.cqe_ready)
            io_wq_enqueue(k, in, kStressIoUringRound[in.next]);
        // io_cqring_wait(): with the CQE there already (inline) it returns
        // at once; otherwise it sleeps until the worker's completion. The sleep is an iowait one: __io_cqring_wait_schedule()
        // sets current->in_iowait when the task has requests in flight
        // (current_pending_io()), and IORING_ENTER_NO_IOWAIT is not passed.
        if (in.cqe_ready)
            return reap_and_continue(k, in);
        in.phase = Phase::Waiting;
        ++iowait_sleeps_;
        return Step::block_io();
    case Phase::Waiting:
        // Woken by the worker's task_work add; io_run_local_work() posts
        // the CQE in this task's context (its cost is in ring_).
        return reap_and_continue(k, in);
    case Phase::Exited:
        break;
    }
    return Step::exit();
}

// The enter returned: one bogo op (stress_bogo_inc() after a successful
// io_uring_enter()); stress_io_uring_complete() reaps the CQ; the next
// opcode, or the end of the round: close both descriptors, reopen.
Step IoUringWorkload::reap_and_continue(Kernel& k, Instance& in)
{
    ++in.ops;
    in.cqe_ready = false;
    const IoUringOp done = kStressIoUringRound[in.next];
    if (io_uring_op_unsupported(done, opt_.file))
        in.unsupported |= 1U << static_cast<unsigned>(done);
    ++in.next;
    return next_supported(k, in);
}

// The next opcode of the round stress-ng still submits, or the round's end.
Step IoUringWorkload::next_supported(Kernel& k, Instance& in)
{
    while (in.next < kRound && (in.unsupported >> static_cast<unsigned>(kStressIoUringRound[in.next])) & 1U)
        ++in.next;
    if (in.next < kRound)
        return submit(k, in);
    ++rounds_;
    if (stopping(k, in))
        return exit_instance(k, in);
    in.phase = Phase::FileCycle;
    const Time t = file_cycle(in, false);
    in.cpu_time += t;
    return Step::compute(t);
}

// One io_uring_enter(fd, 1, 1, IORING_ENTER_GETEVENTS) of request in.next:
// the syscall, the request's ring work, and either the operation itself
// (inline) or the hand-off to io-wq. stress_continue() is checked first.
Step IoUringWorkload::submit(Kernel& k, Instance& in)
{
    if (stopping(k, in))
        return exit_instance(k, in);
    const IoUringOp op = kStressIoUringRound[in.next];
    Time t = syscall_ + ring_;
    // stress_io_uring_close_setup() dup()s stdin for the CLOSE to close.
    if (op == IoUringOp::Close)
        t += syscall_;
    if (io_uring_issue(op, opt_.file).issue == IoIssue::Inline) {
        const CpuId cpu = k.task_cpu(in.task);
        t += op_work(k, in, op, cpu);
        in.cqe_ready = true;
        ++inline_;
    } else {
        t += ring_;  // io_queue_iowq(): io_prep_async_work(), io_wq_enqueue()
        ++punted_;
    }
    in.phase = Phase::Submitting;
    in.cpu_time += t;
    return Step::compute(t);
}

// stress_continue(): the instance's alarm(timeout) has fired, or its
// bogo-op budget is spent.
bool IoUringWorkload::stopping(const Kernel& k, const Instance& in) const
{
    return (opt_.ops && in.ops >= opt_.ops) || k.now() >= in.start + opt_.timeout;
}

// close(fd), close(fd_at) of the last round (none before the first), then
// open(O_CREAT | O_RDWR | O_TRUNC), fcntl(F_SET_RW_HINT) and open(O_PATH).
// The O_TRUNC frees the file's pages.
Time IoUringWorkload::file_cycle(Instance& in, bool first)
{
    Time t;
    if (!first)
        t += times(syscall_ + opt_.vfs_work, 2);
    t += times(syscall_ + opt_.vfs_work, 2) + syscall_;
    t += times(opt_.page_work, in.file.pages);
    in.file = File{};
    return t;
}

// Exit: the ring is torn down (io_uring_cancel_generic() -> io_wq_exit_start
// and the workers woken, IO_WQ_BIT_EXIT set, with wake_up_process()).
Step IoUringWorkload::exit_instance(Kernel& k, Instance& in)
{
    in.phase = Phase::Exited;
    in.end = k.now();
    ++exited_;
    for (const std::size_t wi : in.workers) {
        Worker& w = workers_[wi];
        const bool asleep = w.state == WorkerState::Idle;
        w.state = WorkerState::Exiting;
        w.timed_out = false;
        if (asleep)
            k.wake_up(w.task, 0);
    }
    return Step::exit();
}

// The operation's own work on the instance's tmpfs file, by the task that
// runs it on `cpu`. Sizes are stress-ng's: 4 x 512 B iovecs for READV and
// WRITEV, 512 B for READ and WRITE, all at offset 0; FALLOCATE of
// stress_mwc16() bytes; FTRUNCATE to stress_mwc16() & ~511.
Time IoUringWorkload::op_work(Kernel& k, Instance& in, IoUringOp op, CpuId cpu)
{
    File& f = in.file;
    Time t = opt_.vfs_work;
    if (io_uring_op_unsupported(op, opt_.file))
        return t;  // the lookup, then -EOPNOTSUPP
    auto read = [&](std::uint64_t len) {
        const std::uint64_t bytes = std::min(len, f.size);
        if (bytes)
            k.note_data_read(bytes, f.data_cpu);
    };
    auto write = [&](std::uint64_t len) {
        const std::uint64_t need = pages_for(len);
        if (need > f.pages) {
            t += times(opt_.page_work, need - f.pages);
            f.pages = need;
        }
        f.size = std::max(f.size, len);
        f.data_cpu = cpu;
    };
    switch (op) {
    case IoUringOp::Nop:
        return Time();
    case IoUringOp::Readv:
        read(4 * 512);
        break;
    case IoUringOp::Read:
        read(512);
        break;
    case IoUringOp::Writev:
        write(4 * 512);
        break;
    case IoUringOp::Write:
        write(512);
        break;
    case IoUringOp::Fallocate: {
        // mode 0 from offset 0: shmem_fallocate() allocates the pages and
        // extends i_size; a zero length is -EINVAL, which stress-ng ignores.
        const std::uint64_t len = k.rng().below(65536);
        const std::uint64_t need = pages_for(len);
        if (need > f.pages) {
            t += times(opt_.page_work, need - f.pages);
            f.pages = need;
        }
        f.size = std::max(f.size, len);
        break;
    }
    case IoUringOp::Ftruncate: {
        const std::uint64_t len = k.rng().below(65536) & ~std::uint64_t{511};
        const std::uint64_t keep = pages_for(len);
        if (keep < f.pages) {
            t += times(opt_.page_work, f.pages - keep);
            f.pages = keep;
        }
        f.size = len;
        break;
    }
    case IoUringOp::Fsync:          // shmem: noop_fsync
    case IoUringOp::SyncFileRange:  // no writeback on shmem: nothing to start
    case IoUringOp::Fadvise:
    case IoUringOp::Close:
    case IoUringOp::Madvise:
    case IoUringOp::Statx:
    case IoUringOp::Setxattr:  // tmpfs user.* xattr: created once, then -EEXIST (ignored)
    case IoUringOp::Getxattr:
        break;
    }
    return t;
}

// ---------------------------------------------------------------------------
// io-wq: io_wq_enqueue(), create_io_worker(), io_wq_worker().

void IoUringWorkload::io_wq_enqueue(Kernel& k, Instance& in, IoUringOp op)
{
    in.iowq.push_back(op);
    // io_acct_activate_free_worker(): the most recently idled worker first
    // (__io_worker_idle() adds at the head of the free list).
    // A worker stays on the free list until it runs and takes work
    // (__io_worker_busy()), so one already woken (by its idle timer) counts:
    // wake_up_process() finds it awake and does nothing.
    for (auto it = in.workers.rbegin(); it != in.workers.rend(); ++it) {
        Worker& w = workers_[*it];
        if (w.state == WorkerState::Woken && w.timed_out)
            return;
        if (w.state != WorkerState::Idle)
            continue;
        w.state = WorkerState::Woken;
        ++wstats_.activations;
        k.wake_up(w.task, 0);  // wake_up_process(): no wake flags
        return;
    }
    // No free worker: create one only if none is running, which would pick
    // the work up itself before sleeping (io_acct_run_queue()).
    int running = 0;
    for (const std::size_t wi : in.workers)
        running += workers_[wi].state == WorkerState::Busy;
    if (running == 0 && in.nr_workers < in.max_workers)
        create_worker(k, in);
}

// create_io_worker(): create_io_thread() clones a thread of the submitting
// process (CLONE_THREAD, PF_IO_WORKER; not a kthread), io_init_new_worker()
// sets its mask to the io-wq's (every CPU the task may use) and
// wake_up_new_task() places it from the submitter's CPU.
void IoUringWorkload::create_worker(Kernel& k, Instance& in)
{
    const auto idx = static_cast<std::size_t>(&in - instances_.data());
    TaskSpec spec;
    spec.name = "iou-wrk-" + std::to_string(idx);
    spec.group = 1;
    spec.process = static_cast<int>(idx);
    spec.kthread = false;
    const TaskId t = k.create_task(spec);
    Worker w;
    w.task = t;
    w.instance = idx;
    w.state = WorkerState::Woken;
    workers_.push_back(w);
    set_role(t, {Kind::Worker, static_cast<std::uint32_t>(workers_.size() - 1)});
    in.workers.push_back(workers_.size() - 1);
    ++in.nr_workers;
    ++wstats_.created;
    k.wake_up_new_task(t, k.task_cpu(in.task));
}

Step IoUringWorkload::worker_step(Kernel& k, Worker& w)
{
    Instance& in = instances_[w.instance];
    if (w.has_work) {
        // io_wq_submit_work() finished the request: io_req_complete_post()
        // hands it back as task_work (DEFER_TASKRUN: the submitter's ctx
        // must post it); io_req_local_work_add() wakes the submitter with
        // wake_up_state() if it waits for this many completions.
        w.has_work = false;
        in.cqe_ready = true;
        if (in.phase == Phase::Waiting)
            k.wake_up(in.task, 0);
    }
    if (w.state == WorkerState::Exiting) {
        return worker_exit(in, w);
    }
    if (!in.iowq.empty()) {
        // io_acct_run_queue() / io_worker_handle_work(): take the next
        // request; issue it without IO_URING_F_NONBLOCK.
        if (w.state == WorkerState::Busy)
            ++wstats_.found_queued;
        w.state = WorkerState::Busy;
        w.timed_out = false;
        w.op = in.iowq.front();
        in.iowq.erase(in.iowq.begin());
        w.has_work = true;
        const Time t = ring_ + op_work(k, in, w.op, k.task_cpu(w.task));
        in.cpu_time += t;
        return Step::compute(t);
    }
    if (w.timed_out) {
        w.timed_out = false;
        if (io_worker_exits_on_timeout(in.nr_workers, true)) {
            return worker_exit(in, w);
        }
    }
    return worker_idle(k, w);
}

// io_worker_exit(): the worker leaves its accounting class and the process.
Step IoUringWorkload::worker_exit(Instance& in, Worker& w)
{
    w.state = WorkerState::Exited;
    --in.nr_workers;
    in.workers.erase(std::find(in.workers.begin(), in.workers.end(), static_cast<std::size_t>(&w - workers_.data())));
    ++wstats_.exited;
    return Step::exit();
}

// __io_worker_idle() then schedule_timeout(WORKER_IDLE_TIMEOUT) in
// TASK_INTERRUPTIBLE: a plain sleep, not iowait. One timer per worker is
// kept armed for the latest idle period's end.
Step IoUringWorkload::worker_idle(Kernel& k, Worker& w)
{
    w.state = WorkerState::Idle;
    w.idle_since = k.now();
    if (!w.timer_armed) {
        w.timer_armed = true;
        k.start_timer(k.now() + opt_.worker_idle, static_cast<std::int64_t>(&w - workers_.data()));
    }
    return Step::block();
}

// process_timeout(): the idle timer fired on the CPU the worker slept on.
void IoUringWorkload::on_timer(Kernel& k, std::int64_t token)
{
    Worker& w = workers_[static_cast<std::size_t>(token)];
    w.timer_armed = false;
    if (w.state != WorkerState::Idle)
        return;
    const Time expiry = w.idle_since + opt_.worker_idle;
    if (k.now() < expiry) {
        // Idled again since the timer was armed: wait out this idle period.
        w.timer_armed = true;
        k.start_timer(expiry, token);
        return;
    }
    w.timed_out = true;
    w.state = WorkerState::Woken;
    ++wstats_.idle_timeouts;
    k.wake_up_from_irq(w.task, k.task_cpu(w.task), 0);
}

std::uint64_t IoUringWorkload::total_ops() const
{
    std::uint64_t n = 0;
    for (const Instance& in : instances_)
        n += in.ops;
    return n;
}

// stress-ng's "real time" is the mean of the instances' own run times
// (stats->duration, each from its child's start), and bogo ops/s (real
// time) the total ops over it: the staggered forks do not count.
double IoUringWorkload::mean_run_seconds(Time now) const
{
    double sum = 0;
    std::size_t n = 0;
    for (const Instance& in : instances_) {
        if (in.phase == Phase::Start)
            continue;
        sum += ((in.phase == Phase::Exited ? in.end : now) - in.start).to_seconds();
        ++n;
    }
    return n ? sum / static_cast<double>(n) : 0.0;
}

Headline IoUringWorkload::headline(Time elapsed) const
{
    const double secs = mean_run_seconds(elapsed);
    return {"bogo ops/s", secs > 0 ? static_cast<double>(total_ops()) / secs : 0.0, "ops/s", false};
}

// stress-ng's --metrics layout. The simulated work is all in the kernel
// (system calls, io_uring, tmpfs), so the CPU time is sys time; it includes
// the io-wq workers, threads of the instances' processes.
std::string IoUringWorkload::report(Time elapsed) const
{
    const double secs = mean_run_seconds(elapsed);
    double cpu = 0;
    for (const Instance& in : instances_)
        cpu += in.cpu_time.to_seconds();
    const double ops = static_cast<double>(total_ops());
    const double n = static_cast<double>(instances_.size());
    char buf[1024];
    std::snprintf(buf, sizeof buf,
                  "stress-ng: info:  [1] dispatching hogs: %zu io-uring\n"
                  "stress-ng: metrc: [1] stressor       bogo ops real time  usr time  sys time   bogo ops/s     bogo "
                  "ops/s CPU used per\n"
                  "stress-ng: metrc: [1]                           (secs)    (secs)    (secs)   (real time) (usr+sys "
                  "time) instance (%%)\n"
                  "stress-ng: metrc: [1] io-uring   %12.0f %9.2f %9.2f %9.2f %12.2f %14.2f %12.2f\n"
                  "stress-ng: info:  [1] successful run completed in %.2f secs\n",
                  instances_.size(), ops, secs, 0.0, cpu, secs > 0 ? ops / secs : 0.0, cpu > 0 ? ops / cpu : 0.0,
                  secs > 0 && n > 0 ? 100.0 * cpu / (secs * n) : 0.0, elapsed.to_seconds());
    return buf;
}

}  // namespace wb

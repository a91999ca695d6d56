// SPDX-License-Identifier: Apache-2.0
#include "workload/tee.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>

#include "engine/kernel.h"
#include "topology/sd_flags.h"

namespace wb {

namespace {

constexpr std::int64_t kTimeoutTimer = 0;
constexpr int W = 0, T = 1, R = 2;  // the roles, as indices
// exercise_tee()'s three calls after every splice: illegal flags (EINVAL at
// the flags check of the tee syscall), the read end as both ends (EBADF:
// do_tee() tests the output's FMODE_WRITE before it compares the pipes),
// len 0 (returns 0 before looking up the descriptors).
constexpr std::int64_t kExerciseCalls = 3;

// Wakes the task asleep on a pipe's wait queue, if any, and empties it.
void wake_waiter(Kernel& k, TaskId& waiter, unsigned int wake_flags)
{
    if (waiter == kNoTask)
        return;
    const TaskId p = waiter;
    waiter = kNoTask;
    k.wake_up(p, wake_flags);
}

}  // namespace

TeeWorkload::Pipe::Taken TeeWorkload::Pipe::take(std::uint64_t bytes)
{
    Taken out;
    while (bytes > 0) {
        assert(!empty());
        PipeBuf& buf = at(tail);
        const std::uint32_t n = static_cast<std::uint32_t>(std::min<std::uint64_t>(buf.len, bytes));
        buf.offset += n;
        buf.len -= n;
        bytes -= n;
        if (buf.len == 0) {
            out.released = true;
            out.released_full = out.released_full || full();
            ++tail;
        }
    }
    return out;
}

void TeeWorkload::setup(Kernel& k)
{
    const Machine& m = k.machine();
    syscall_ = Time::ns(static_cast<std::int64_t>(m.costs[Cost::syscall]));
    transfer_ = Time::ns(static_cast<std::int64_t>(m.costs[Cost::pipe_transfer]));
    const std::size_t n = opt_.instances ? opt_.instances : static_cast<std::size_t>(m.nr_cpus());
    inst_.assign(n, Instance{});
    for (std::size_t i = 0; i < n; ++i) {
        Instance& in = inst_[i];
        const std::string suffix = "-" + std::to_string(i);
        TaskId* ids[3] = {&in.writer, &in.teer, &in.reader};
        const char* names[3] = {"stress-ng-tee-writer", "stress-ng-tee", "stress-ng-tee-reader"};
        for (int r = 0; r < 3; ++r) {
            TaskSpec spec;
            spec.name = names[r] + suffix;
            spec.group = static_cast<int>(i);
            *ids[r] = k.create_task(spec);
            if (static_cast<std::size_t>(*ids[r]) >= owner_.size())
                owner_.resize(static_cast<std::size_t>(*ids[r]) + 1);
            owner_[static_cast<std::size_t>(*ids[r])] = {i, static_cast<Role>(r)};
        }
    }
    // stress-ng's main process forks one stressor per instance; each stressor
    // (stress_tee_spawn()) forks its writer, then its reader.
    for (Instance& in : inst_)
        k.wake_up_new_task(in.teer, 0);
    for (Instance& in : inst_) {
        k.wake_up_new_task(in.writer, k.task_cpu(in.teer));
        k.wake_up_new_task(in.reader, k.task_cpu(in.teer));
    }
    k.start_timer(opt_.timeout, kTimeoutTimer);
}

void TeeWorkload::on_timer(Kernel& k, std::int64_t token)
{
    (void)k;
    if (token == kTimeoutTimer)
        timed_out_ = true;
}

// `calls` read() or write() calls moving `bytes` between a user buffer and
// pipe pages: per call the system call and pipe_transfer (a small pipe
// copy with its locking and bookkeeping), plus pipe_transfer per 4 KiB page
// copied, as hackbench's pipe mode charges.
Time TeeWorkload::call_cost(std::uint64_t calls, std::uint64_t bytes) const
{
    const double per_call = static_cast<double>((syscall_ + transfer_).ns());
    const double copy = static_cast<double>(transfer_.ns()) * static_cast<double>(bytes) / kTeePageSize;
    return Time::ns(std::llround(per_call * static_cast<double>(calls) + copy));
}

Step TeeWorkload::next_step(Kernel& k, TaskId t)
{
    const Owner& o = owner_[static_cast<std::size_t>(t)];
    Instance& in = inst_[o.instance];
    Step s = Step::exit();
    switch (o.role) {
    case Role::Writer:
        s = writer_step(k, in);
        break;
    case Role::Teer:
        s = teer_step(k, in);
        break;
    case Role::Reader:
        s = reader_step(k, in);
        break;
    }
    if (s.kind == Step::Kind::Compute)
        cpu_time_ += s.time;
    return s;
}

// ---------------------------------------------------------------------------
// The writer: stress_tee_pipe_write() loops write(A, &data, size).

Step TeeWorkload::writer_step(Kernel& k, Instance& in)
{
    if (in.phase[W] == Phase::Writing)
        apply_writes(k, in);
    if (in.finished || in.phase[W] == Phase::Killed) {
        in.phase[W] = Phase::Killed;
        return Step::exit();
    }
    return start_write(in);  // Idle, or woken from the wait for room
}

// pipe_write()'s merge test: `size & (PAGE_SIZE-1)` bytes go into the last
// buffer's page if the pipe is not empty, that buffer may be merged into
// and they fit behind its data.
bool TeeWorkload::write_merges(const Instance& in) const
{
    const std::uint32_t chars = opt_.size & (kTeePageSize - 1);
    if (chars == 0 || in.a.empty())
        return false;
    const PipeBuf& last = in.a.at(in.a.head - 1);
    return last.can_merge && last.offset + last.len + chars <= kTeePageSize;
}

// How many writes one step carries. A merge changes only the length of A's
// last buffer, and only the stressor's tee() could see it, if it reaches
// that buffer; a write that opens a slot changes what tee() can take, and
// one into an empty pipe wakes the stressor, so each of those is a step of
// its own. Merges share a step, up to the page's end, only while the
// stressor cannot look at the page before the step ends: it sleeps in
// opipe_prep() and A holds more buffers than B has free slots plus one the
// reader may free meanwhile, so the tee() after its wakeup takes buffers
// from A's tail and stops before this page (exact unless the reader frees
// two more slots of B inside one batch). Otherwise every write is a step of
// its own. (Batching merges while the stressor is merely runnable on the
// writer's CPU saves nine events in ten but moves where preemption falls:
// it gave 11% fewer ops/s, so it is not done.)
std::uint32_t TeeWorkload::merge_batch(const Instance& in) const
{
    if (!opt_.batch_merges || in.b.wr_wait != in.teer)
        return 1;
    const std::uint32_t free_b = kTeePipeSlots - in.b.occupancy();
    if (free_b + 1 >= in.a.occupancy())
        return 1;
    const PipeBuf& last = in.a.at(in.a.head - 1);
    return std::max<std::uint32_t>(1, (kTeePageSize - last.offset - last.len) / opt_.size);
}

// Inside write(): sleep while A is full and nothing merges
// (wait_event_interruptible_exclusive on wr_wait); else the call runs.
Step TeeWorkload::start_write(Instance& in)
{
    const bool merges = write_merges(in);
    if (!merges && in.a.full()) {
        in.a.wr_wait = in.writer;
        in.phase[W] = Phase::WaitOut;
        ++in.counts.writer_waits;
        return Step::block();
    }
    in.writes_in_step = merges ? merge_batch(in) : 1;
    in.phase[W] = Phase::Writing;
    return Step::compute(call_cost(in.writes_in_step, std::uint64_t{in.writes_in_step} * opt_.size));
}

// The step's writes land, one by one as pipe_write() makes them, against A
// as it is now (the stressor may have emptied it meanwhile). A write into
// an empty pipe wakes its reader with WF_SYNC (was_empty, and
// wake_up_interruptible_sync_poll); a merge into a non-empty one wakes
// nobody.
void TeeWorkload::apply_writes(Kernel& k, Instance& in)
{
    Pipe& a = in.a;
    const CpuId cpu = k.task_cpu(in.writer);
    for (std::uint32_t i = 0; i < in.writes_in_step; ++i) {
        const bool was_empty = a.empty();
        if (write_merges(in)) {
            PipeBuf& last = a.at(a.head - 1);
            last.len += opt_.size;
            last.written_on = cpu;
        } else {
            assert(!a.full() && "the writer only starts a write with room or a merge");
            a.at(a.head) = PipeBuf{0, opt_.size, true, cpu};  // a new page, PIPE_BUF_FLAG_CAN_MERGE
            ++a.head;
            ++in.counts.pages;
            in.counts.max_slots_a = std::max<std::uint64_t>(in.counts.max_slots_a, a.occupancy());
        }
        ++in.counts.writes;
        if (was_empty)
            wake_waiter(k, a.rd_wait, WF_SYNC);
    }
    in.phase[W] = Phase::Idle;
}

// ---------------------------------------------------------------------------
// The stressor: tee(), splice() to /dev/null, exercise_tee(), a bogo op.

Step TeeWorkload::teer_step(Kernel& k, Instance& in)
{
    switch (in.phase[T]) {
    case Phase::Teeing:
        apply_tee(k, in);
        in.phase[T] = Phase::Splicing;
        return Step::compute(syscall_ + transfer_);
    case Phase::Splicing:
        apply_splice(k, in);
        in.phase[T] = Phase::Exercising;
        return Step::compute(syscall_ * kExerciseCalls);
    case Phase::Exercising:
        ++in.bogo_ops;
        if (opt_.ops && in.bogo_ops >= opt_.ops) {
            finish(k, in);
            return Step::exit();
        }
        break;
    default:  // Idle; or woken in ipipe_prep() or opipe_prep()
        break;
    }
    return start_tee(in);
}

// do_tee(): ipipe_prep() sleeps while A is empty (pipe_wait_readable),
// then opipe_prep() while B is full (pipe_wait_writable); then the call
// runs: the system call and pipe_transfer for taking both pipe locks and
// duplicating buffer references (no data is copied).
Step TeeWorkload::start_tee(Instance& in)
{
    if (in.a.empty()) {
        in.a.rd_wait = in.teer;
        in.phase[T] = Phase::WaitIn;
        ++in.counts.tee_waits_in;
        return Step::block();
    }
    if (in.b.full()) {
        in.b.wr_wait = in.teer;
        in.phase[T] = Phase::WaitOut;
        ++in.counts.tee_waits_out;
        return Step::block();
    }
    in.phase[T] = Phase::Teeing;
    return Step::compute(syscall_ + transfer_);
}

// link_pipe(): each buffer of A from its tail, while B has a free slot, is
// duplicated into B (a page reference; the copy may not be merged into),
// A keeps its buffers. Data in B wakes B's reader with a plain wakeup
// (wakeup_pipe_readers()).
void TeeWorkload::apply_tee(Kernel& k, Instance& in)
{
    Pipe& a = in.a;
    Pipe& b = in.b;
    std::uint64_t len = 0;
    for (std::uint32_t i = a.tail; i != a.head && !b.full(); ++i) {
        PipeBuf dup = a.at(i);
        dup.can_merge = false;
        b.at(b.head) = dup;
        ++b.head;
        len += dup.len;
    }
    in.tee_len = len;
    ++in.counts.tees;
    in.counts.bytes_teed += len;
    in.counts.max_slots_b = std::max<std::uint64_t>(in.counts.max_slots_b, b.occupancy());
    if (len > 0)
        wake_waiter(k, b.rd_wait, 0);
}

// splice(A, /dev/null, len): splice_write_null() runs __splice_from_pipe()
// with an actor that accepts every byte, so len bytes leave A's tail; each
// buffer emptied is released, and if any was, the writer is woken with a
// plain wakeup (wakeup_pipe_writers()). The bytes are all there (only this
// task takes from A), so the call never waits. Its cost: the system call
// and pipe_transfer for the lock and the buffer releases, no copy.
void TeeWorkload::apply_splice(Kernel& k, Instance& in)
{
    if (in.a.take(in.tee_len).released)
        wake_waiter(k, in.a.wr_wait, 0);
}

// stress-ng's --tee-ops reached: stress_tee() closes the pipes and kills
// both children (stress_kill_pid_wait()); a child asleep in a pipe call is
// woken by the signal, one running exits at its next step.
void TeeWorkload::finish(Kernel& k, Instance& in)
{
    in.finished = true;
    ++finished_;
    in.phase[T] = Phase::Killed;
    wake_waiter(k, in.a.wr_wait, 0);
    wake_waiter(k, in.b.rd_wait, 0);
}

// ---------------------------------------------------------------------------
// The reader: stress_tee_pipe_read() loops read(B, &data, size).

Step TeeWorkload::reader_step(Kernel& k, Instance& in)
{
    if (in.phase[R] == Phase::Reading)
        apply_reads(k, in);
    if (in.finished || in.phase[R] == Phase::Killed) {
        in.phase[R] = Phase::Killed;
        return Step::exit();
    }
    return start_read(k, in);  // Idle, or woken from the wait for data
}

// Inside read(): sleep while B is empty (wait_event_interruptible_exclusive
// on rd_wait). Else pipe_read() copies from B's tail buffer. The reads that
// stay inside that buffer share one step: they change nothing another task
// looks at (tee() and the wakeups look at B's slots, not at the offset in
// its tail page), and the last of them, the one that empties the buffer,
// ends the step. A read of more than the buffer holds continues into the
// next buffers (pipe_read()'s "more to do?") and is a step alone.
Step TeeWorkload::start_read(Kernel& k, Instance& in)
{
    Pipe& b = in.b;
    if (b.empty()) {
        b.rd_wait = in.reader;
        in.phase[R] = Phase::WaitIn;
        ++in.counts.reader_waits;
        return Step::block();
    }
    const PipeBuf& tail = b.at(b.tail);
    std::uint64_t bytes = 0;
    if (tail.len >= opt_.size) {
        in.reads_in_step = tail.len / opt_.size;
        bytes = std::uint64_t{in.reads_in_step} * opt_.size;
        // The reader copies what the writer wrote into this page.
        k.note_data_read(bytes, tail.written_on);
    } else {
        in.reads_in_step = 1;
        for (std::uint32_t i = b.tail; i != b.head && bytes < opt_.size; ++i) {
            const std::uint64_t take = std::min<std::uint64_t>(b.at(i).len, opt_.size - bytes);
            k.note_data_read(take, b.at(i).written_on);
            bytes += take;
        }
    }
    in.read_bytes_in_step = bytes;
    in.phase[R] = Phase::Reading;
    return Step::compute(call_cost(in.reads_in_step, bytes));
}

// The step's reads land. A buffer read empty frees its slot; if B was full
// when it did (pipe_read()'s was-full test), the writer waiting for room,
// here the stressor in opipe_prep(), is woken with WF_SYNC
// (wake_up_interruptible_sync_poll). The wakeup pipe_read() gives the next
// reader after a sleep finds no one: this reader is B's only one.
void TeeWorkload::apply_reads(Kernel& k, Instance& in)
{
    const bool wake_writer = in.b.take(in.read_bytes_in_step).released_full;
    in.counts.reads += in.reads_in_step;
    in.counts.bytes_read += in.read_bytes_in_step;
    in.phase[R] = Phase::Idle;
    if (wake_writer)
        wake_waiter(k, in.b.wr_wait, WF_SYNC);
}

// ---------------------------------------------------------------------------
// Results.

double TeeWorkload::ops() const
{
    std::uint64_t sum = 0;
    for (const Instance& in : inst_)
        sum += in.bogo_ops;
    return static_cast<double>(sum);
}

TeeWorkload::Counts TeeWorkload::counts() const
{
    Counts sum;
    for (const Instance& in : inst_) {
        const Counts& c = in.counts;
        sum.writes += c.writes;
        sum.reads += c.reads;
        sum.bytes_read += c.bytes_read;
        sum.tees += c.tees;
        sum.bytes_teed += c.bytes_teed;
        sum.pages += c.pages;
        sum.writer_waits += c.writer_waits;
        sum.tee_waits_in += c.tee_waits_in;
        sum.tee_waits_out += c.tee_waits_out;
        sum.reader_waits += c.reader_waits;
        sum.max_slots_a = std::max(sum.max_slots_a, c.max_slots_a);
        sum.max_slots_b = std::max(sum.max_slots_b, c.max_slots_b);
    }
    return sum;
}

Headline TeeWorkload::headline(Time elapsed) const
{
    const double secs = elapsed.to_seconds();
    return {"bogo ops/s", secs > 0 ? ops() / secs : 0.0, "ops/s", false};
}

// stress-ng's metrics table. All the modelled work is in system calls, so
// it is sys time; usr time (the three loops' own instructions) is not
// modelled and shows as 0.
std::string TeeWorkload::report(Time elapsed) const
{
    const double real = elapsed.to_seconds();
    const double sys = cpu_time_.to_seconds();
    const double rate_real = real > 0 ? ops() / real : 0.0;
    const double rate_cpu = sys > 0 ? ops() / sys : 0.0;
    const char* p = "stress-ng: info:  [1]";
    char buf[1024];
    std::snprintf(buf, sizeof buf,
                  "%s dispatching hogs: %zu tee\n"
                  "%s %-13s %9.9s %9.9s %9.9s %9.9s %12s %14s\n"
                  "%s %-13s %9.9s %9.9s %9.9s %9.9s %12s %14s\n"
                  "%s %-13s %9.0f %9.2f %9.2f %9.2f %12.2f %14.2f\n"
                  "%s successful run completed in %.2f secs\n",
                  p, inst_.size(), p, "stressor", "bogo ops", "real time", "usr time", "sys time", "bogo ops/s",
                  "bogo ops/s", p, "", "", "(secs) ", "(secs) ", "(secs) ", "(real time)", "(usr+sys time)", p, "tee",
                  ops(), real, 0.0, sys, rate_real, rate_cpu, p, real);
    return buf;
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "workload/hackbench.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/kernel.h"
#include "io/input_error.h"
#include "topology/sd_flags.h"

namespace wb {

HackbenchWorkload::HackbenchWorkload(HackbenchOptions options) : opt_(std::move(options))
{
    if (opt_.pipe) {
        limit_ = std::max<std::uint64_t>(1, kPipeCapacityBytes / std::max<std::uint64_t>(1, opt_.datasize));
        charge_ = 1;
    } else {
        limit_ = opt_.sndbuf;
        charge_ = unix_skb::unix_stream_write_truesize(opt_.datasize, opt_.sndbuf);
    }
}

std::uint64_t HackbenchWorkload::channel_capacity() const
{
    return opt_.pipe ? limit_ : (limit_ + charge_ - 1) / charge_;
}

void HackbenchWorkload::setup(Kernel& k)
{
    const Machine& m = k.machine();
    // One read or write: the system call, plus pipe_transfer (the cost of a
    // small pipe copy with its locking) once for the bookkeeping and once per
    // 4 KiB page copied. A unix socket pays a second pipe_transfer for the
    // skb it allocates (write) or frees (read) and the socket lock:
    //   pipe:   syscall + pipe_transfer * (1 + datasize / 4096)
    //   socket: syscall + pipe_transfer * (2 + datasize / 4096)
    const double pages = static_cast<double>(opt_.datasize) / 4096.0;
    const double fixed = opt_.pipe ? 1.0 : 2.0;
    op_cost_ = Time::ns(std::llround(m.costs[Cost::syscall] + m.costs[Cost::pipe_transfer] * (fixed + pages)));

    CpuMask allowed = m.all_cpus();
    if (!opt_.cpus.empty()) {
        CpulistParse parsed = parse_cpulist(opt_.cpus, m.nr_cpus());
        if (!parsed.ok() || parsed.mask.empty())
            throw InputError(Diagnostic{
                "hackbench workload", 0, static_cast<int>(parsed.column), "",
                "cpus=" + opt_.cpus + ": " + (parsed.ok() ? std::string("expected at least one CPU") : parsed.error)});
        allowed = parsed.mask;
    }

    channels_.assign(opt_.groups * opt_.fds, Channel{});
    // hackbench's main task forks every group's receivers, then its senders;
    // it sits on the first allowed CPU, where the fork placement starts.
    const CpuId parent = allowed.first();
    std::vector<TaskId> created;
    for (std::size_t g = 0; g < opt_.groups; ++g) {
        for (int role = 0; role < 2; ++role) {
            const bool sender = role == 1;
            for (std::size_t i = 0; i < opt_.fds; ++i) {
                TaskSpec spec;
                spec.name = "hackbench-g" + std::to_string(g) + (sender ? "-s" : "-r") + std::to_string(i);
                spec.group = static_cast<int>(g);
                spec.cpus_allowed = allowed;
                Actor a;
                a.task = k.create_task(spec);
                a.sender = sender;
                a.group = g;
                a.channel = g * opt_.fds + i;
                if (static_cast<std::size_t>(a.task) >= actor_of_.size())
                    actor_of_.resize(static_cast<std::size_t>(a.task) + 1, SIZE_MAX);
                actor_of_[static_cast<std::size_t>(a.task)] = actors_.size();
                actors_.push_back(a);
                created.push_back(a.task);
            }
        }
    }
    for (TaskId t : created)
        k.wake_up_new_task(t, parent);
}

[[gnu::hot]] Step HackbenchWorkload::next_step(Kernel& k, TaskId t)
{
    Actor& a = actors_[actor_of_[static_cast<std::size_t>(t)]];
    return a.sender ? sender_step(k, a) : receiver_step(k, a);
}

// A sender writes message n to receiver n % fds of its group, as hackbench's
// loop over loops, then fds, does.
Step HackbenchWorkload::sender_step(Kernel& k, Actor& a)
{
    if (a.copying) {
        a.copying = false;
        Channel& ch = channels_[a.channel];
        ++ch.queued;
        ch.written_on.push_back(k.task_cpu(a.task));
        ++a.done;
        if (ch.reader_waiting != kNoTask) {
            const TaskId reader = ch.reader_waiting;
            ch.reader_waiting = kNoTask;
            k.wake_up(reader, WF_SYNC);
        }
        // pipe_write() passes the wakeup on to the next waiting writer while
        // room is left, since a reader only wakes one.
        if (opt_.pipe && !ch.writers_waiting.empty() && ch.used < limit_) {
            const TaskId next = ch.writers_waiting.front();
            ch.writers_waiting.pop_front();
            k.wake_up(next, WF_SYNC);
        }
    }
    if (a.done == opt_.loops * opt_.fds) {
        ++exited_;
        return Step::exit();
    }
    a.channel = a.group * opt_.fds + a.done % opt_.fds;
    Channel& ch = channels_[a.channel];
    // pipe_write() waits for a free slot; sock_alloc_send_pskb() waits
    // while sk_wmem_alloc >= sk_sndbuf, so the write that crosses the limit
    // still goes through. Either way the room is taken before the copy.
    if (ch.used >= limit_) {
        ch.writers_waiting.push_back(a.task);
        return Step::block();
    }
    ch.used += charge_;
    a.copying = true;
    return Step::compute(op_cost_);
}

Step HackbenchWorkload::receiver_step(Kernel& k, Actor& a)
{
    Channel& ch = channels_[a.channel];
    if (a.copying) {
        a.copying = false;
        ++a.done;
        ++delivered_;
        // unix_stream_read_generic() frees the skb once it is copied out:
        // consume_skb() -> sock_wfree() returns its truesize to the writer.
        if (!opt_.pipe)
            ch.used -= charge_;
        wake_writers(k, ch, a.freed_full);
    }
    if (a.done == opt_.loops * opt_.fds) {
        ++exited_;
        return Step::exit();
    }
    if (ch.queued == 0) {
        ch.reader_waiting = a.task;
        return Step::block();
    }
    a.freed_full = ch.used >= limit_;
    --ch.queued;
    // hackbench's receiver reads one message of datasize bytes into its
    // buffer: the bytes its sender wrote, from where the sender ran.
    k.note_data_read(opt_.datasize, ch.written_on.front());
    ch.written_on.pop_front();
    // A pipe slot is free for writers as soon as the read takes it.
    if (opt_.pipe)
        --ch.used;
    a.copying = true;
    return Step::compute(op_cost_);
}

// After a read made room. pipe_read() wakes one exclusive writer, and only
// if the pipe was full. For a socket, sock_wfree() calls unix_write_space()
// on every freed skb; it wakes the writers sleeping in sock_wait_for_wmem()
// (non-exclusive waits, so all of them) once unix_writable() holds:
// refcount(sk_wmem_alloc) << 2 <= sk_sndbuf. That refcount is the truesize
// in flight plus 2: the socket's own reference (sk_alloc() starts it at 1)
// and the one sock_wfree() keeps across the call. Both use the sync wakeup.
void HackbenchWorkload::wake_writers(Kernel& k, Channel& ch, bool freed_full)
{
    if (ch.writers_waiting.empty())
        return;
    if (opt_.pipe) {
        if (!freed_full)
            return;
        const TaskId w = ch.writers_waiting.front();
        ch.writers_waiting.pop_front();
        k.wake_up(w, WF_SYNC);
        return;
    }
    if ((ch.used + 2) * 4 > limit_)
        return;
    std::deque<TaskId> writers;
    writers.swap(ch.writers_waiting);
    for (TaskId w : writers)
        k.wake_up(w, WF_SYNC);
}

Headline HackbenchWorkload::headline(Time elapsed) const
{
    return {"Time", elapsed.to_seconds(), "s", true};
}

std::string HackbenchWorkload::report(Time elapsed) const
{
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "Running in %s mode with %llu groups using %llu file descriptors each (== %llu tasks)\n"
                  "Each sender will pass %llu messages of %llu bytes\n"
                  "Time: %.3f\n",
                  opt_.threads ? "threaded" : "process", static_cast<unsigned long long>(opt_.groups),
                  static_cast<unsigned long long>(2 * opt_.fds),
                  static_cast<unsigned long long>(2 * opt_.fds * opt_.groups),
                  static_cast<unsigned long long>(opt_.loops), static_cast<unsigned long long>(opt_.datasize),
                  elapsed.to_seconds());
    return buf;
}

}  // namespace wb

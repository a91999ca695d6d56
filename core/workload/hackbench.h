// SPDX-License-Identifier: Apache-2.0
//
// The hackbench workload (rt-tests src/hackbench/hackbench.c; perf's
// tools/perf/bench/sched-messaging.c is the same program). group() makes one
// pipe or socketpair(AF_UNIX, SOCK_STREAM) per receiver: the receiver reads
// fds[0] and every sender of the group writes fds[1]. sender() writes
// `loops` rounds of one `datasize` message to each receiver in turn;
// receiver() reads until it has fds * loops of them. Reads and writes wake
// the other side with WF_SYNC, as pipe_write()/pipe_read() and
// sock_def_readable()/unix_write_space() do. Its headline is hackbench's
// "Time:" in seconds.
//
// What blocks a sender:
// - pipe: the pipe's 16 slots (PIPE_DEF_BUFFERS) of a page, counted here as
//   64 KiB / datasize messages; pipe_read() wakes one writer when it frees a
//   slot of a full pipe, and pipe_write() passes the wakeup on.
// - socket: the writing socket's sk_wmem_alloc, the truesize of the skbs in
//   flight to the reader (unix_skb.h: 768 bytes for a 100-byte message),
//   against its sk_sndbuf. sock_alloc_send_pskb() (net/core/sock.c) lets a
//   write allocate while sk_wmem_alloc < sk_sndbuf and otherwise sleeps in
//   sock_wait_for_wmem(); the reader's consume_skb() -> sock_wfree() calls
//   unix_write_space(), which wakes every sleeping writer once
//   unix_writable() holds: sk_wmem_alloc << 2 <= sk_sndbuf. All of a group's
//   senders share one receiver's fds[1], so they share its budget.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "workload/unix_skb.h"
#include "workload/workload.h"

namespace wb {

struct HackbenchOptions {
    std::uint64_t groups = 10;     // -g
    std::uint64_t fds = 20;        // -f: senders and receivers per group
    std::uint64_t loops = 100;     // -l: messages from each sender to each receiver
    std::uint64_t datasize = 100;  // -s: bytes per message
    bool pipe = false;             // -p: pipes instead of socketpair(AF_UNIX, SOCK_STREAM)
    bool threads = false;          // -T: threads of one process instead of processes (-P)
    std::string cpus;              // taskset-style cpulist every task is pinned to; "" = all CPUs
    // sk_sndbuf of the writing socket: net.core.wmem_default, SK_WMEM_MAX by default.
    std::uint64_t sndbuf = unix_skb::kSkWmemMax;
};

// Bytes a pipe holds before its writers block: 16 pages.
inline constexpr std::uint64_t kPipeCapacityBytes = 64 * 1024;

class HackbenchWorkload final : public Workload {
public:
    explicit HackbenchWorkload(HackbenchOptions options);

    void setup(Kernel& k) override;
    Step next_step(Kernel& k, TaskId t) override;
    bool done() const override { return exited_ == actors_.size() && !actors_.empty(); }
    double ops() const override { return static_cast<double>(delivered_); }
    // Each sender writes `loops` messages to each receiver of its group.
    double progress(Time) const override
    {
        return static_cast<double>(delivered_) / static_cast<double>(opt_.groups * opt_.fds * opt_.fds * opt_.loops);
    }
    Headline headline(Time elapsed) const override;
    std::string report(Time elapsed) const override;

    // Messages one receiver's channel takes before the next write blocks:
    // a pipe's capacity / datasize (at least one); for a socket, writes
    // allocate while sk_wmem_alloc < sk_sndbuf, so ceil(sndbuf / truesize).
    std::uint64_t channel_capacity() const;
    // What one message charges: a pipe slot's share (1 message) or the
    // socket's truesize in bytes.
    std::uint64_t message_charge() const { return charge_; }
    // The nominal CPU work of one write or read (system call and copy).
    Time write_cost() const { return op_cost_; }
    Time read_cost() const { return op_cost_; }

private:
    // A receiver's pipe or socket. `used` is in limit_'s unit: messages for
    // a pipe (readable plus reserved by writers still copying), bytes of
    // truesize for a socket (sk_wmem_alloc: allocated by a write until the
    // read that consumes the skb ends).
    struct Channel {
        std::uint64_t queued = 0;  // readable messages
        std::uint64_t used = 0;
        TaskId reader_waiting = kNoTask;
        std::deque<TaskId> writers_waiting;
        std::deque<CpuId> written_on;  // per readable message, where its sender wrote it
    };

    struct Actor {
        TaskId task = kNoTask;
        bool sender = false;
        std::size_t group = 0;
        std::uint64_t done = 0;   // messages written or read
        bool copying = false;     // a write or read step is in progress
        bool freed_full = false;  // the read in progress emptied a slot of a full channel
        std::size_t channel = 0;  // the channel of the step in progress
    };

    Step sender_step(Kernel& k, Actor& a);
    Step receiver_step(Kernel& k, Actor& a);
    void wake_writers(Kernel& k, Channel& ch, bool freed_full);

    HackbenchOptions opt_;
    std::uint64_t limit_ = 1;   // pipe: messages; socket: sk_sndbuf bytes
    std::uint64_t charge_ = 1;  // what one message adds to Channel::used
    Time op_cost_;
    std::vector<Channel> channels_;  // group * fds + receiver
    std::vector<Actor> actors_;
    std::vector<std::size_t> actor_of_;  // TaskId -> index in actors_
    std::uint64_t delivered_ = 0;
    std::size_t exited_ = 0;
};

}  // namespace wb

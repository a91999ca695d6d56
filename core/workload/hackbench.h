// SPDX-License-Identifier: Apache-2.0
//
// The hackbench workload (rt-tests hackbench): groups of senders and
// receivers. Every receiver owns one pipe or AF_UNIX stream socket; each of
// a group's senders writes `loops` messages to each of the group's
// receivers, which read until they have every message meant for them. The
// channels have a bounded capacity, so a full one blocks its writers and a
// read that makes room wakes them; reads and writes wake the other side with
// WF_SYNC, as pipe_write()/pipe_read() and unix stream sendmsg/recvmsg do.
// Its headline is hackbench's "Time:" in seconds.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

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
};

// Bytes a channel holds before its writers block: a pipe's 16 pages, a unix
// socket's default sk_sndbuf (net.core.wmem_default).
inline constexpr std::uint64_t kPipeCapacityBytes = 64 * 1024;
inline constexpr std::uint64_t kSocketCapacityBytes = 212992;

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

    // Messages one channel holds: capacity / datasize, at least one.
    std::uint64_t channel_capacity() const { return capacity_; }
    // The nominal CPU work of one write or read (system call and copy).
    Time write_cost() const { return op_cost_; }
    Time read_cost() const { return op_cost_; }

private:
    // A receiver's pipe or socket, in whole messages.
    struct Channel {
        std::uint64_t queued = 0;     // readable
        std::uint64_t in_flight = 0;  // room reserved by writers still copying
        TaskId reader_waiting = kNoTask;
        std::deque<TaskId> writers_waiting;
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
    std::uint64_t used(const Channel& ch) const { return ch.queued + ch.in_flight; }

    HackbenchOptions opt_;
    std::uint64_t capacity_ = 1;
    Time op_cost_;
    std::vector<Channel> channels_;  // group * fds + receiver
    std::vector<Actor> actors_;
    std::vector<std::size_t> actor_of_;  // TaskId -> index in actors_
    std::uint64_t delivered_ = 0;
    std::size_t exited_ = 0;
};

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// The tee workload, modelled on stress-ng's tee stressor: per instance,
// three processes and two pipes. A writer child fills pipe A with `size`
// byte writes; the stressor tee()s what A holds into pipe B, then splice()s
// the same bytes from A to /dev/null (one bogo op); a reader child drains B
// with `size` byte reads. pipe_read()/pipe_write() wake the other end with
// WF_SYNC; tee() and splice() wake with a plain wakeup (wakeup_pipe_readers
// and wakeup_pipe_writers in fs/splice.c). Its headline is bogo ops/s.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "workload/workload.h"

namespace wb {

struct TeeOptions {
    std::uint64_t instances = 0;  // --tee N; 0: one per CPU
    std::uint64_t size = 65536;   // bytes per write and per read (stress-ng's TEE_IO_SIZE)
    std::uint64_t ops = 0;        // --tee-ops, per instance; 0: until the timeout
    Time timeout = Time::s(1);    // --timeout
};

inline constexpr std::uint64_t kTeePipeBytes = 64 * 1024;

class TeeWorkload final : public Workload {
public:
    explicit TeeWorkload(TeeOptions options) : opt_(options) {}

    void setup(Kernel& k) override;
    Step next_step(Kernel& k, TaskId t) override;
    void on_timer(Kernel& k, std::int64_t token) override;
    bool done() const override { return timed_out_ || (!inst_.empty() && finished_ == inst_.size()); }
    double ops() const override;
    // --tee-ops ends each instance after that many; else the timeout ends all.
    double progress(Time now) const override
    {
        if (opt_.ops == 0 || inst_.empty())
            return time_progress(now, opt_.timeout);
        return std::max(time_progress(now, opt_.timeout), ops() / static_cast<double>(opt_.ops * inst_.size()));
    }
    Headline headline(Time elapsed) const override;
    std::string report(Time elapsed) const override;

    std::size_t instances() const { return inst_.size(); }
    // Bytes the readers have received, all instances.
    std::uint64_t bytes_read() const;

private:
    enum class Role { Writer, Teer, Reader };
    // Where a task is: before its next call, or inside one (the call's step
    // is running, its effects apply when it ends), or blocked in one.
    enum class Phase { Idle, Writing, Teeing, Splicing, Reading, Blocked };

    struct Pipe {
        std::uint64_t bytes = 0;
        TaskId reader_waiting = kNoTask;
        TaskId writer_waiting = kNoTask;
    };

    struct Instance {
        TaskId writer = kNoTask, teer = kNoTask, reader = kNoTask;
        Pipe a, b;                           // writer -> a -> tee -> b -> reader
        std::uint64_t write_left = 0;        // of the writer's current write()
        std::uint64_t chunk[3] = {0, 0, 0};  // per role: bytes its call in progress moves
        std::uint64_t tee_len = 0;           // bytes the last tee() duplicated, for the splice
        std::uint64_t bogo_ops = 0;
        std::uint64_t read_bytes = 0;
        Phase phase[3] = {Phase::Idle, Phase::Idle, Phase::Idle};
        bool finished = false;
    };

    Step writer_step(Kernel& k, Instance& in);
    Step teer_step(Kernel& k, Instance& in);
    Step reader_step(Kernel& k, Instance& in);
    Time copy_cost(std::uint64_t bytes) const;

    TeeOptions opt_;
    Time syscall_, transfer_;
    std::vector<Instance> inst_;
    struct Owner {
        std::size_t instance = 0;
        Role role = Role::Writer;
    };
    std::vector<Owner> owner_;  // TaskId -> its instance and role
    std::size_t finished_ = 0;
    bool timed_out_ = false;
    Time cpu_time_;  // nominal CPU work handed out, all system calls: stress-ng's sys time
};

}  // namespace wb

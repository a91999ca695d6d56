// SPDX-License-Identifier: Apache-2.0
//
// The tee workload, modelled on stress-ng's stress-tee.c. Per instance three
// processes and two pipes (stress_tee()): a writer child loops write(A, 16)
// (stress_tee_pipe_write, 16 = sizeof(stress_tee_t)); a reader child loops
// read(B, 16) (stress_tee_pipe_read); the stressor loops
//   len = tee(A, B, INT_MAX, 0); splice(A, /dev/null, len, SPLICE_F_MOVE);
//   exercise_tee(): three tee() calls that fail or return 0 at once;
//   one bogo op.
// The pipes are the kernel's: 16 slots (PIPE_DEF_BUFFERS) of 4096-byte pages.
// pipe_write() merges a small write into the last buffer's page while it
// fits; tee() (link_pipe()) duplicates buffer references of A into free
// slots of B, no data copied; the splice to /dev/null (splice_write_null())
// drops len bytes from A. The wakeups follow fs/pipe.c and fs/splice.c:
// pipe_write() and pipe_read() wake with WF_SYNC, tee() and splice() with a
// plain wake_up (wakeup_pipe_readers/_writers). docs/workloads.md ("tee")
// says what each call costs and what the model leaves out.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "workload/workload.h"

namespace wb {

inline constexpr std::uint32_t kTeePageSize = 4096;  // PAGE_SIZE: one pipe buffer's page
inline constexpr std::uint32_t kTeePipeSlots = 16;   // PIPE_DEF_BUFFERS: a new pipe's max_usage

struct TeeOptions {
    std::uint64_t instances = 0;  // --tee N; 0: one per CPU
    std::uint32_t size = 16;      // bytes per write() and per read(): sizeof(stress_tee_t)
    std::uint64_t ops = 0;        // --tee-ops, per instance; 0: until the timeout
    Time timeout = Time::s(1);    // --timeout
    // How the simulation runs the writer, not a property of the program:
    // true lets one step carry the writes that merge into one page while no
    // other task can see the page's length (see TeeWorkload::merge_batch());
    // false gives every write its own step. Tests compare the two.
    bool batch_merges = true;
};

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

    // What the tests look at, all instances summed.
    struct Counts {
        std::uint64_t writes = 0;         // write() calls completed
        std::uint64_t reads = 0;          // read() calls completed
        std::uint64_t bytes_read = 0;     // bytes the readers received
        std::uint64_t tees = 0;           // tee() calls that duplicated data
        std::uint64_t bytes_teed = 0;     // their total length
        std::uint64_t pages = 0;          // pipe buffers (pages) the writers started
        std::uint64_t writer_waits = 0;   // pipe_write() slept: A held 16 buffers
        std::uint64_t tee_waits_in = 0;   // tee() slept in ipipe_prep(): A empty
        std::uint64_t tee_waits_out = 0;  // tee() slept in opipe_prep(): B full
        std::uint64_t reader_waits = 0;   // pipe_read() slept: B empty
        std::uint64_t max_slots_a = 0;    // most buffers A held
        std::uint64_t max_slots_b = 0;    // most buffers B held
    };
    Counts counts() const;
    std::size_t instances() const { return inst_.size(); }

private:
    enum class Role { Writer, Teer, Reader };
    // Where a task is: about to make its next call, inside one (the call's
    // step is running; its effects apply when it ends), or asleep in one.
    enum class Phase { Idle, Writing, Teeing, Splicing, Exercising, Reading, WaitIn, WaitOut, Killed };

    // struct pipe_buffer, reduced to what the model needs.
    struct PipeBuf {
        std::uint32_t offset = 0, len = 0;
        bool can_merge = false;     // PIPE_BUF_FLAG_CAN_MERGE
        CpuId written_on = kNoCpu;  // the CPU the writer last wrote this page's bytes on
    };
    // struct pipe_inode_info: a ring of kTeePipeSlots buffers, head and tail
    // unmasked as the kernel keeps them, and the one task of this workload
    // that can sleep on each wait queue.
    struct Pipe {
        std::array<PipeBuf, kTeePipeSlots> bufs{};
        std::uint32_t head = 0, tail = 0;
        TaskId rd_wait = kNoTask, wr_wait = kNoTask;

        std::uint32_t occupancy() const { return head - tail; }
        bool empty() const { return head == tail; }
        bool full() const { return occupancy() >= kTeePipeSlots; }
        PipeBuf& at(std::uint32_t i) { return bufs[i % kTeePipeSlots]; }
        const PipeBuf& at(std::uint32_t i) const { return bufs[i % kTeePipeSlots]; }
        // Takes `bytes` (all present) off the tail, as pipe_read() and
        // __splice_from_pipe() do, releasing each buffer emptied.
        struct Taken {
            bool released = false;       // a buffer was emptied and its slot freed
            bool released_full = false;  // one was, while the pipe was full (pipe_read()'s was_full)
        };
        Taken take(std::uint64_t bytes);
    };

    struct Instance {
        TaskId writer = kNoTask, teer = kNoTask, reader = kNoTask;
        Pipe a, b;  // writer -> A -> tee -> B -> reader; splice A -> /dev/null
        Phase phase[3] = {Phase::Idle, Phase::Idle, Phase::Idle};
        std::uint32_t writes_in_step = 0;  // write() calls the writer's running step makes
        std::uint32_t reads_in_step = 0;   // read() calls the reader's running step makes
        std::uint64_t read_bytes_in_step = 0;
        std::uint64_t tee_len = 0;  // what the last tee() returned: the splice's len
        std::uint64_t bogo_ops = 0;
        bool finished = false;
        Counts counts;
    };

    Step writer_step(Kernel& k, Instance& in);
    Step teer_step(Kernel& k, Instance& in);
    Step reader_step(Kernel& k, Instance& in);
    Step start_write(Instance& in);
    Step start_tee(Instance& in);
    Step start_read(Kernel& k, Instance& in);
    void apply_writes(Kernel& k, Instance& in);
    void apply_tee(Kernel& k, Instance& in);
    void apply_splice(Kernel& k, Instance& in);
    void apply_reads(Kernel& k, Instance& in);
    bool write_merges(const Instance& in) const;
    std::uint32_t merge_batch(const Instance& in) const;
    void finish(Kernel& k, Instance& in);
    Time call_cost(std::uint64_t calls, std::uint64_t bytes) const;

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

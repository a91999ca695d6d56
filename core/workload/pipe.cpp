// SPDX-License-Identifier: Apache-2.0
#include "workload/pipe.h"

#include <cstdio>

#include "engine/kernel.h"
#include "io/input_error.h"
#include "topology/sd_flags.h"
#include "workload/workload_params.h"

namespace wb {

namespace {

// sched-pipe.c worker_thread(): each loop writes and reads one int.
constexpr std::uint64_t kMessageBytes = sizeof(int);

// What a worker keeps warm between two runs: the loop's stack and its two
// file descriptors in user space; in the kernel the two pipe_inode_infos
// (mutex, head and tail, the wait queues), their pipe_buffers and pages,
// the struct files and the kernel stack of the read and write paths. About
// 64 lines; an estimate from the path, not a measurement.
constexpr std::uint64_t kWorkingSetBytes = 4096;

}  // namespace

void PipeWorkload::setup(Kernel& k)
{
    const Machine& m = k.machine();
    syscall_ = Time::ns(static_cast<std::int64_t>(m.costs[Cost::syscall]));
    transfer_ = Time::ns(static_cast<std::int64_t>(m.costs[Cost::pipe_transfer]));

    CpuMask allowed = m.all_cpus();
    if (!opt_.cpus.empty()) {
        CpulistParse parsed = parse_cpulist(opt_.cpus, m.nr_cpus());
        if (!parsed.ok() || parsed.mask.empty())
            throw InputError(Diagnostic{
                "pipe workload", 0, static_cast<int>(parsed.column), "",
                "cpus=" + opt_.cpus + ": " + (parsed.ok() ? std::string("expected at least one CPU") : parsed.error)});
        allowed = parsed.mask;
    }
    // perf forks the two workers from its main task; we let that task sit on
    // the first allowed CPU, so the fork placement starts from there.
    const CpuId parent = allowed.first();
    const char* kind = opt_.threads ? "thread" : "process";
    for (int i = 0; i < 2; ++i) {
        TaskSpec spec;
        spec.name = std::string("pipe-") + kind + "-" + std::to_string(i);
        spec.group = i;
        spec.cpus_allowed = allowed;
        spec.process = opt_.threads ? 0 : -1;  // -T: two threads of one process
        spec.working_set_bytes = kWorkingSetBytes;
        side_[i].task = k.create_task(spec);
        side_[i].in = i == 0 ? 1 : 0;
        side_[i].out = i == 0 ? 0 : 1;
        side_[i].phase = i == 0 ? Phase::Write : Phase::Read;
    }
    for (const Side& s : side_)
        k.wake_up_new_task(s.task, parent);
}

[[gnu::hot]] Step PipeWorkload::next_step(Kernel& k, TaskId t)
{
    // Chosen between two addresses, not indexed: fewer instructions.
    Side& side = t == side_[0].task ? side_[0] : side_[1];
    // Tested in order of frequency, not as a switch (a compare tree): each
    // task checks its pipe twice a round trip, writes once, and starts
    // reading once a run.
    if (side.phase == Phase::ReadCheck)
        return read(k, side);
    if (side.phase == Phase::Write) {
        side.phase = Phase::Wrote;
        return Step::compute(syscall_ + transfer_);
    }
    if (side.phase == Phase::Wrote)
        return write_done(k, side);
    side.phase = Phase::ReadCheck;  // Phase::Read
    return Step::compute(syscall_);
}

// The write's copy is done: the byte is in the pipe, and a reader sleeping
// on it is woken with WF_SYNC (pipe_write uses the _sync wake-up: the writer
// is expected to sleep soon).
Step PipeWorkload::write_done(Kernel& k, Side& side)
{
    ++tokens_[side.out];
    written_on_[side.out] = k.task_cpu(side.task);
    if (TaskId reader = waiting_[side.out]; reader != kNoTask) {
        waiting_[side.out] = kNoTask;
        k.wake_up(reader, WF_SYNC);
    }
    if (&side == &side_[1] && done())
        return Step::exit();
    side.phase = Phase::ReadCheck;
    return Step::compute(syscall_);
}

// Inside read(): take the int if one is there (the copy, from wherever the
// writer left it), else sleep on the pipe; once woken the int is there.
Step PipeWorkload::read(Kernel& k, Side& side)
{
    if (tokens_[side.in] == 0) {
        waiting_[side.in] = side.task;
        return Step::block();
    }
    --tokens_[side.in];
    k.note_data_read(kMessageBytes, written_on_[side.in]);
    if (&side == &side_[0])
        ++loops_done_;
    side.phase = Phase::Write;
    if (&side == &side_[0] && done())
        return Step::exit();
    return Step::compute(transfer_);
}

Headline PipeWorkload::headline(Time elapsed) const
{
    const double us_per_op = loops_done_ ? elapsed.to_us() / static_cast<double>(loops_done_) : 0.0;
    return {"usecs/op", us_per_op, "us", true};
}

std::string PipeWorkload::report(Time elapsed) const
{
    const double secs = elapsed.to_seconds();
    const double us_per_op = loops_done_ ? elapsed.to_us() / static_cast<double>(loops_done_) : 0.0;
    const double ops_per_sec = secs > 0 ? static_cast<double>(loops_done_) / secs : 0.0;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "# Running 'sched/pipe' benchmark:\n"
                  "# Executed %llu pipe operations between two %s\n\n"
                  "     Total time: %.3f [sec]\n\n"
                  "%15.6f usecs/op\n"
                  "%15llu ops/sec\n",
                  static_cast<unsigned long long>(loops_done_), opt_.threads ? "threads" : "processes", secs, us_per_op,
                  static_cast<unsigned long long>(ops_per_sec));
    return buf;
}

void add_pipe_workloads(std::vector<WorkloadEntry>& catalog)
{
    catalog.push_back({{"pipe",
                        "perf bench sched pipe: two tasks ping-pong a token over a pair of pipes (sync wakeups)",
                        {{"loops", "1000000", "round trips (perf's -l)"},
                         {"threads", "0", "1: two threads of one process (perf's -T); 0: two processes"},
                         {"cpus", "", "cpulist both tasks are pinned to, as taskset -c (empty: all CPUs)"}}},
                       [](const WorkloadParams& p) -> std::unique_ptr<Workload> {
                           PipeOptions o;
                           o.loops = p.count("loops", 1, 1'000'000'000'000ULL);
                           o.threads = p.flag("threads");
                           o.cpus = p.text("cpus");
                           return std::make_unique<PipeWorkload>(o);
                       }});
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// The json workload: an rt-app-like generic workload read from a file
// (docs/workload-json.md). Each task template starts `instances` tasks
// that loop through its phases `loop` times: run, sleep, timer, wait,
// signal, yield, barrier, fork. Its headline is loops per second, summed
// over every task: the rate at which the described work gets done.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "io/workload_json.h"
#include "metrics/histogram.h"
#include "workload/workload.h"

namespace wb {

class JsonWorkload final : public Workload {
public:
    // `max_tasks`: the most tasks the run may start (kMaxJsonWorkloadTasks;
    // lower only in tests).
    explicit JsonWorkload(WorkloadFile file, std::uint64_t max_tasks = kMaxJsonWorkloadTasks)
        : file_(std::move(file)), max_tasks_(max_tasks)
    {
    }

    void setup(Kernel& k) override;
    Step next_step(Kernel& k, TaskId t) override;
    bool done() const override { return started_ > 0 && exited_ == started_; }
    double ops() const override { return static_cast<double>(loops_); }
    Headline headline(Time elapsed) const override;
    std::string report(Time elapsed) const override;

    // Latencies in Histogram's buckets, keeping only the buckets used: a
    // full Histogram is 59 KB, and a file may hold many thousand templates,
    // each waiting at a handful of latencies.
    class Latency {
    public:
        void record(std::int64_t ns);
        std::uint64_t count() const { return count_; }
        std::int64_t max() const { return max_; }
        // As Histogram::percentile(): the bucket's upper bound, at most max().
        std::int64_t percentile(double q) const;

    private:
        std::vector<std::pair<int, std::uint64_t>> buckets_;  // (bucket, samples), by bucket
        std::uint64_t count_ = 0;
        std::int64_t max_ = 0;
    };

    // Per template: loops completed, and the latency from when a sleeping
    // instance was due (timer expiry, signal, barrier release) to when it ran.
    struct TemplateStats {
        std::uint64_t tasks = 0;
        std::uint64_t loops = 0;
        std::uint64_t runs = 0;  // run phases completed
        Latency latency;         // ns
    };
    const TemplateStats& stats(std::size_t template_index) const { return stats_[template_index]; }

private:
    struct Instance {
        std::size_t tmpl = 0;
        TaskId task = kNoTask;
        std::size_t phase = 0;   // the next phase to start
        std::uint64_t loop = 0;  // loops completed
        Time start;              // for timer periods
        Time due;                // when the task was due to run again; Time::max() while not waiting
    };
    struct Event {
        std::uint64_t count = 0;  // signals no one waited for yet
        std::deque<std::size_t> waiters;
    };
    struct Barrier {
        std::size_t parties = 0;
        std::vector<std::size_t> waiting;
    };

    void spawn(Kernel& k, std::size_t tmpl, CpuId parent_cpu);
    Step begin_phase(Kernel& k, std::size_t self);
    // What a lap of phases costs when it passed without running, sleeping or
    // blocking: one system call per phase, so that simulated time moves.
    static Step zero_time_lap(const Kernel& k, const JsonTask& t);

    WorkloadFile file_;
    std::uint64_t max_tasks_;
    std::vector<CpuMask> allowed_;  // per template
    std::map<std::string, std::size_t> by_name_;
    std::vector<Instance> instances_;
    std::vector<std::size_t> instance_of_;  // by TaskId
    std::map<std::string, Event> events_;
    std::map<std::string, Barrier> barriers_;
    std::vector<TemplateStats> stats_;
    std::size_t started_ = 0, exited_ = 0;
    std::uint64_t loops_ = 0;
};

}  // namespace wb

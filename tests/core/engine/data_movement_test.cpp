// SPDX-License-Identifier: Apache-2.0
//
// Data on the move: reading bytes another CPU wrote costs latency plus
// bytes over bandwidth of the distance class, charged to the reader; a task
// that runs elsewhere than its data moves its working set the same way; and
// the workloads declare every payload they read.
#include <gtest/gtest.h>

#include <memory>
#include <numeric>

#include "engine/data_movement.h"
#include "engine/kernel.h"
#include "engine/simulator.h"
#include "io/topology_json.h"
#include "quiet_machine.h"
#include "topology/sd_flags.h"
#include "workload/workload_spec.h"

namespace wb {
namespace {

using test::quiet_machine;

// The first CPU at distance `d` from CPU 0 on `m`.
CpuId cpu_at(const Machine& m, DistanceClass d)
{
    for (CpuId c = 0; c < m.nr_cpus(); ++c)
        if (distance_class(m, 0, c) == d)
            return c;
    return kNoCpu;
}

CostModel costs_with(DistanceClass d, double latency_ns, double gb_per_s)
{
    CostModel c;
    c.at(kLinePath[static_cast<std::size_t>(d)].latency).value = latency_ns;
    c.at(kLinePath[static_cast<std::size_t>(d)].bandwidth).value = gb_per_s;
    return c;
}

TEST(DataMovement, DataOnTheSameCpuCostNothingExtra)
{
    const CostModel c;
    EXPECT_EQ(data_move_time(c, DistanceClass::SameCpu, 1 << 20), Time());
    EXPECT_EQ(data_move_time(c, DistanceClass::OtherNode, 0), Time());
}

TEST(DataMovement, TheFirstLinePaysTheLatencyAndTheRestStreamAtTheBandwidth)
{
    // 90 ns and 24 GB/s (24 bytes a ns): 4 bytes cost the latency, 24 KiB
    // another 1024 ns.
    const CostModel c = costs_with(DistanceClass::Llc, 90, 24);
    EXPECT_EQ(data_move_time(c, DistanceClass::Llc, 4), Time::ns(90));
    EXPECT_EQ(data_move_time(c, DistanceClass::Llc, 24 * 1024), Time::ns(90 + 1024));
}

TEST(DataMovement, EachClassUsesItsOwnParameters)
{
    CostModel c;
    double latency = 10;
    for (std::size_t d = 1; d < kDistanceClassCount; ++d, latency *= 2) {
        c.at(kLinePath[d].latency).value = latency;
        c.at(kLinePath[d].bandwidth).value = 1000;  // 1 byte is 0.001 ns
    }
    latency = 10;
    for (std::size_t d = 1; d < kDistanceClassCount; ++d, latency *= 2) {
        EXPECT_EQ(data_move_time(c, static_cast<DistanceClass>(d), 1), Time::ns(static_cast<std::int64_t>(latency)))
            << distance_class_name(static_cast<DistanceClass>(d));
    }
}

TEST(DataMovement, FartherIsDearer)
{
    // quiet_machine has the generic defaults: siblings, one LLC, another LLC.
    const Machine m = quiet_machine();
    const CpuId sib = cpu_at(m, DistanceClass::SmtSibling);
    const CpuId llc = cpu_at(m, DistanceClass::Llc);
    const CpuId far = cpu_at(m, DistanceClass::OtherLlc);
    ASSERT_NE(sib, kNoCpu);
    ASSERT_NE(llc, kNoCpu);
    ASSERT_NE(far, kNoCpu);
    for (std::uint64_t bytes : {std::uint64_t{4}, std::uint64_t{32 * 1024}}) {
        EXPECT_LT(data_move_time(m, sib, 0, bytes), data_move_time(m, llc, 0, bytes)) << bytes;
        EXPECT_LT(data_move_time(m, llc, 0, bytes), data_move_time(m, far, 0, bytes)) << bytes;
    }
}

// One task pinned to CPU 0 that reads `bytes` written on `writer` before
// each of `rounds` steps of 1 us.
class Reader final : public Workload {
public:
    Reader(std::uint64_t bytes, CpuId writer, int rounds) : bytes_(bytes), writer_(writer), rounds_(rounds) {}
    void setup(Kernel& k) override
    {
        TaskSpec spec;
        spec.name = "reader";
        spec.cpus_allowed = CpuMask::of(k.machine().nr_cpus(), {0});
        k.wake_up_new_task(k.create_task(spec), 0);
    }
    Step next_step(Kernel& k, TaskId) override
    {
        if (done_ == rounds_) {
            finished_ = true;
            return Step::exit();
        }
        ++done_;
        k.note_data_read(bytes_, writer_);
        return Step::compute(Time::us(1));
    }
    bool done() const override { return finished_; }
    double ops() const override { return done_; }
    Headline headline(Time elapsed) const override { return {"elapsed", elapsed.to_us(), "us", true}; }
    std::string report(Time) const override { return {}; }

private:
    std::uint64_t bytes_;
    CpuId writer_;
    int rounds_;
    int done_ = 0;
    bool finished_ = false;
};

Time reader_elapsed(const Machine& m, std::uint64_t bytes, CpuId writer)
{
    Simulator sim(m, std::make_unique<Reader>(bytes, writer, 10), SimOptions{});
    EXPECT_TRUE(sim.run());
    return sim.elapsed();
}

TEST(DataMovement, TheReaderPaysForWhatItReadsFromAfar)
{
    const Machine m = quiet_machine();
    const CpuId far = cpu_at(m, DistanceClass::OtherLlc);
    const Time local = reader_elapsed(m, 4096, 0);
    const Time remote = reader_elapsed(m, 4096, far);
    EXPECT_EQ(remote - local, Time::ns(10 * data_move_time(m, far, 0, 4096).ns()));
    // 120 ns + 4096 B / 20 GB/s = 325 ns a read with the generic costs.
    EXPECT_EQ(data_move_time(m, far, 0, 4096), Time::ns(325));
}

// A task that runs on CPU `from`, sleeps, and is woken onto CPU `to`
// (WF_CURRENT_CPU from a waker pinned there): one migration.
class Mover final : public Workload {
public:
    Mover(CpuId from, CpuId to, std::uint64_t working_set) : from_(from), to_(to), working_set_(working_set) {}
    void setup(Kernel& k) override
    {
        const int nr = k.machine().nr_cpus();
        TaskSpec a{"waker-a", 0, CpuMask::of(nr, {from_}), 0, SchedPolicy::Normal, false};
        TaskSpec b{"waker-b", 0, CpuMask::of(nr, {to_}), 0, SchedPolicy::Normal, false};
        TaskSpec moved;
        moved.name = "moved";
        moved.working_set_bytes = working_set_;
        waker_a_ = k.create_task(a);
        waker_b_ = k.create_task(b);
        moved_ = k.create_task(moved);
        k.wake_up_new_task(waker_a_, from_);
    }
    Step next_step(Kernel& k, TaskId t) override
    {
        if (t == waker_b_ && !waker_b_waited_) {
            // Past the moved task's switch into idle: a wakeup inside it
            // would take the on_cpu path and queue the task where it is.
            waker_b_waited_ = true;
            return Step::compute(Time::us(5));
        }
        if (t == waker_a_ || t == waker_b_) {
            k.wake_up(moved_, WF_CURRENT_CPU);
            return Step::exit();
        }
        switch (phase_++) {
        case 0:
            return Step::compute(Time::us(10));
        case 1:
            k.wake_up_new_task(waker_b_, to_);
            return Step::block();
        case 2:
            return Step::compute(Time::us(10));
        default:
            finished_ = true;
            return Step::exit();
        }
    }
    bool done() const override { return finished_; }
    double ops() const override { return 1; }
    Headline headline(Time elapsed) const override { return {"elapsed", elapsed.to_us(), "us", true}; }
    std::string report(Time) const override { return {}; }

private:
    CpuId from_, to_;
    std::uint64_t working_set_;
    TaskId waker_a_ = kNoTask, waker_b_ = kNoTask, moved_ = kNoTask;
    int phase_ = 0;
    bool waker_b_waited_ = false;
    bool finished_ = false;
};

TEST(DataMovement, AMigratedTaskMovesItsDeclaredWorkingSet)
{
    const Machine m = quiet_machine();
    for (DistanceClass d : {DistanceClass::SmtSibling, DistanceClass::Llc, DistanceClass::OtherLlc}) {
        const CpuId to = cpu_at(m, d);
        auto run = [&](std::uint64_t ws) {
            Simulator sim(m, std::make_unique<Mover>(0, to, ws), SimOptions{});
            EXPECT_TRUE(sim.run());
            EXPECT_EQ(sim.metrics().migrations[static_cast<std::size_t>(d)], 1u) << distance_class_name(d);
            return sim.elapsed();
        };
        const Time small = run(64);
        const Time big = run(1 << 20);
        EXPECT_EQ(big - small, data_move_time(m.costs, d, 1 << 20) - data_move_time(m.costs, d, 64))
            << distance_class_name(d);
        EXPECT_GT(big - small, Time::us(10)) << "a MiB from anywhere but the same CPU takes over 10 us";
    }
}

TEST(DataMovement, TheDefaultWorkingSetIsAnL1dWorth)
{
    EXPECT_EQ(TaskSpec{}.working_set_bytes, 32u * 1024u);
}

std::uint64_t total(const std::array<std::uint64_t, kDistanceClassCount>& a)
{
    return std::accumulate(a.begin(), a.end(), std::uint64_t{0});
}

TEST(DataMovement, PipeDeclaresTheIntOfEveryRead)
{
    // sched-pipe.c reads one int a side per loop: 2 x 4 bytes a round trip,
    // all on the same CPU when both are pinned to one.
    Simulator pinned(quiet_machine(), make_workload("pipe:loops=100,cpus=3"), SimOptions{});
    ASSERT_TRUE(pinned.run());
    EXPECT_EQ(pinned.metrics().bytes_read[0], 100u * 2 * 4);
    EXPECT_EQ(total(pinned.metrics().bytes_read), 100u * 2 * 4);
    Simulator free(quiet_machine(), make_workload("pipe:loops=100"), SimOptions{});
    ASSERT_TRUE(free.run());
    EXPECT_EQ(total(free.metrics().bytes_read), 100u * 2 * 4);
}

TEST(DataMovement, HackbenchReceiversReadEverySendersMessage)
{
    // One group of 2 senders and 2 receivers, 3 loops: each sender writes
    // 3 x 2 messages of 100 bytes.
    Simulator sim(quiet_machine(), make_workload("hackbench:groups=1,fds=2,loops=3"), SimOptions{});
    ASSERT_TRUE(sim.run());
    EXPECT_EQ(total(sim.metrics().bytes_read), 2u * 3 * 2 * 100);
}

// A machine file around `costs`.
std::string machine_with_costs(std::string_view costs)
{
    return std::string("{\n  \"schema_version\": 1,\n  \"name\": \"m\",\n  \"description\": \"test\",\n"
                       "  \"source\": \"\",\n  \"nodes\": "
                       "[{\"packages\": [{\"llcs\": [{\"cores\": [{\"repeat\": 2, \"threads\": 2}]}]}]}],\n"
                       "  \"costs\": ") +
           std::string(costs) + "\n}\n";
}

TEST(DataMovement, MachineFilesGiveBandwidthsInGbOrMbPerSecond)
{
    const Machine m = parse_machine_json(
        machine_with_costs(R"({"line_bandwidth_llc": {"value": 24, "unit": "GB/s"},
            "line_bandwidth_other_llc": {"value": 9500, "unit": "MB/s"}})"),
        "m.json");
    EXPECT_DOUBLE_EQ(m.costs[Cost::line_bandwidth_llc], 24.0);
    EXPECT_DOUBLE_EQ(m.costs[Cost::line_bandwidth_other_llc], 9.5);
    EXPECT_ANY_THROW(parse_machine_json(machine_with_costs(R"({"line_bandwidth_llc": {"value": 0, "unit": "GB/s"}})"),
                                        "m.json"));
}

TEST(DataMovement, AFileWithTheRetiredRefillCostsSaysWhatReplacedThem)
{
    try {
        parse_machine_json(machine_with_costs(R"({"cache_refill_llc": {"value": 2.5, "unit": "us"}})"), "m.json");
        FAIL() << "cache_refill_llc was accepted";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("no longer exists"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("line_latency_"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// Load balancing end to end in the engine: CPU-bound tasks started stacked
// on one CPU spread out, SIS_UTIL's scan budget follows the load, a misfit
// on a little CPU is pushed to a big one, a CPU going idle pulls a waiting
// task, and all of it is reproducible from the seed.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "engine/simulator.h"
#include "topology/synthetic.h"
#include "workload/workload.h"

namespace wb {
namespace {

// N tasks that compute in 1 ms chunks until each has done `total`. With
// `stacked`, a parent pinned to `home` wakes them all onto its own CPU
// (WF_CURRENT_CPU), so only the load balancer can spread them; otherwise
// they are forked there and the fork path places them. An optional blocker
// pinned to another CPU keeps that CPU busy for a while, then exits.
class Spinners final : public Workload {
public:
    Spinners(int n, CpuId home, Time total, bool stacked) : n_(n), home_(home), total_(total), stacked_(stacked) {}

    void add_blocker(CpuId cpu, Time busy)
    {
        blocker_cpu_ = cpu;
        blocker_busy_ = busy;
    }

    void setup(Kernel& k) override
    {
        const int nr = k.machine().nr_cpus();
        TaskSpec parent;
        parent.name = "parent";
        parent.cpus_allowed = CpuMask::of(nr, {home_});
        parent_ = k.create_task(parent);
        for (int i = 0; i < n_; ++i) {
            TaskSpec spec;
            spec.name = "spin-" + std::to_string(i);
            spec.group = 1;
            children_.push_back(k.create_task(spec));
        }
        done_.assign(static_cast<std::size_t>(n_), Time());
        if (blocker_cpu_ != kNoCpu) {
            TaskSpec spec;
            spec.name = "blocker";
            spec.cpus_allowed = CpuMask::of(nr, {blocker_cpu_});
            blocker_ = k.create_task(spec);
            k.wake_up_new_task(blocker_, blocker_cpu_);
        }
        if (stacked_) {
            k.wake_up_new_task(parent_, home_);
        } else {
            for (TaskId c : children_)
                k.wake_up_new_task(c, home_);
        }
    }

    Step next_step(Kernel& k, TaskId t) override
    {
        if (t == parent_) {
            for (TaskId c : children_)
                k.wake_up(c, WF_CURRENT_CPU);
            return Step::exit();
        }
        if (t == blocker_) {
            if (blocker_started_)
                return Step::exit();
            blocker_started_ = true;
            return Step::compute(blocker_busy_);
        }
        const auto i = static_cast<std::size_t>(t - children_.front());
        if (done_[i] >= total_) {
            ++finished_;
            return Step::exit();
        }
        const Time chunk = std::min(Time::ms(1), total_ - done_[i]);
        done_[i] += chunk;
        return Step::compute(chunk);
    }

    bool done() const override { return finished_ == n_; }
    double ops() const override { return finished_; }
    Headline headline(Time elapsed) const override { return {"elapsed", elapsed.to_seconds(), "s", true}; }
    std::string report(Time elapsed) const override { return "spinners: " + std::to_string(elapsed.to_seconds()); }

private:
    int n_;
    CpuId home_;
    Time total_;
    bool stacked_;
    TaskId parent_ = kNoTask;
    std::vector<TaskId> children_;
    std::vector<Time> done_;
    int finished_ = 0;
    CpuId blocker_cpu_ = kNoCpu;
    Time blocker_busy_;
    TaskId blocker_ = kNoTask;
    bool blocker_started_ = false;
};

std::unique_ptr<Simulator> make_sim(const std::string& machine, std::unique_ptr<Spinners> w, std::uint64_t seed = 1,
                                    const std::string& features = "")
{
    SimOptions opt;
    opt.seed = seed;
    EXPECT_EQ(opt.features.apply(features), "");
    return std::make_unique<Simulator>(parse_synthetic(machine), std::move(w), opt);
}

// How many fair tasks each CPU has queued (running included).
std::vector<unsigned> per_cpu_tasks(const Simulator& sim)
{
    std::vector<unsigned> out;
    for (const Rq& rq : sim.state().rqs)
        out.push_back(rq.cfs.h_nr_queued);
    return out;
}

TEST(LoadBalanceEngine, StackedCpuBoundTasksSpreadOnePerCpu)
{
    auto sim = make_sim("core=4", std::make_unique<Spinners>(4, 0, Time::ms(200), true));
    // Right after the parent has woken them all, everything sits on CPU 0.
    sim->run_until(Time::us(20));
    EXPECT_EQ(per_cpu_tasks(*sim), (std::vector<unsigned>{4, 0, 0, 0}));
    // CPU 0's ticks kick an idle CPU, which pulls for every idle CPU; a
    // task CPU 0 has just preempted is cache hot and waits for a later pass.
    sim->run_until(Time::ms(20));
    EXPECT_EQ(per_cpu_tasks(*sim), (std::vector<unsigned>{1, 1, 1, 1}));
    const LbCounters spread = sim->load_balance().counters;
    EXPECT_GE(spread.tasks_moved, 3u);
    EXPECT_GE(spread.ilb_kicks, 1u);
    // And it stays that way: nothing moves on a balanced machine.
    ASSERT_TRUE(sim->run());
    EXPECT_EQ(sim->load_balance().counters.tasks_moved, spread.tasks_moved);
    // 200 ms of work each on its own CPU, after a few ms stacked.
    EXPECT_LT(sim->elapsed(), Time::ms(215));
    EXPECT_LT(sim->metrics().idle_while_waiting, Time::ms(15));
    // Only a task that had run on CPU 0 before it moved counts as migrated.
    EXPECT_GE(sim->metrics().migrations[static_cast<std::size_t>(DistanceClass::Llc)], 1u);
}

TEST(LoadBalanceEngine, OnOneCpuStackedTasksTakeTheirSum)
{
    // The control for the test above: with nowhere to go, four tasks of
    // 50 ms take 200 ms, and the balancer moves nothing.
    auto sim = make_sim("core=1", std::make_unique<Spinners>(4, 0, Time::ms(50), true));
    ASSERT_TRUE(sim->run());
    EXPECT_GT(sim->elapsed(), Time::ms(199));
    EXPECT_EQ(sim->load_balance().counters.tasks_moved, 0u);
}

TEST(LoadBalanceEngine, SisUtilBudgetFollowsTheLlcUtilisation)
{
    const std::string machine = "core=8";
    auto idle_scan = [](const Simulator& sim) {
        const int llc = sim.state().domains->shortcuts(0).sd_llc;
        return sim.state().shared[static_cast<std::size_t>(llc)].nr_idle_scan;
    };
    // A freshly idle machine scans the whole LLC.
    auto two = make_sim(machine, std::make_unique<Spinners>(2, 0, Time::s(2), false));
    two->run_until(Time());
    EXPECT_EQ(idle_scan(*two), 8);
    // Two busy CPUs of eight: average utilisation ~256, and
    // 8 x (1 - (256 x 1.17 / 1024)^2) = 7.3 CPUs to scan.
    two->run_until(Time::ms(600));
    const std::vector<unsigned> tasks = per_cpu_tasks(*two);
    EXPECT_EQ(std::count(tasks.begin(), tasks.end(), 1u), 2);
    EXPECT_EQ(idle_scan(*two), 7);
    // All eight busy: past 100/117 of capacity, no scan at all.
    auto eight = make_sim(machine, std::make_unique<Spinners>(8, 0, Time::s(2), false));
    eight->run_until(Time::ms(600));
    EXPECT_EQ(per_cpu_tasks(*eight), std::vector<unsigned>(8, 1));
    EXPECT_EQ(idle_scan(*eight), 0);
}

TEST(LoadBalanceEngine, MisfitOnALittleCpuIsPushedToABigOne)
{
    // CPUs 0-1 at capacity 512, 2-3 at 1024.
    auto sim = make_sim("core=4,capacity=512x2/1024x2", std::make_unique<Spinners>(1, 0, Time::ms(400), true));
    const TaskId p = 1;  // the only child
    sim->run_until(Time::ms(20));
    EXPECT_EQ(sim->state().task(p).cpu, 0);
    // Its utilisation passes 80 % of 512 after ~75 ms; the next tick marks
    // it misfit, the kicked balancer asks CPU 0's stopper to push it.
    sim->run_until(Time::ms(150));
    const CpuId now_on = sim->state().task(p).cpu;
    EXPECT_TRUE(now_on == 2 || now_on == 3) << "on cpu " << now_on;
    EXPECT_EQ(sim->load_balance().counters.active_pushes, 1u);
    EXPECT_EQ(sim->metrics().migrations[static_cast<std::size_t>(DistanceClass::Llc)], 1u);
    // It fits on the big CPU: it stays there.
    ASSERT_TRUE(sim->run());
    EXPECT_EQ(sim->state().task(p).cpu, now_on);
    EXPECT_EQ(sim->load_balance().counters.active_pushes, 1u);
}

TEST(LoadBalanceEngine, ACpuGoingIdlePullsAWaitingTask)
{
    // Three tasks stacked on CPU 0 while a pinned task keeps CPU 1 busy for
    // 1 ms: no CPU is idle to balance for them, until CPU 1's task exits
    // and CPU 1 pulls one of the waiting tasks before it would idle.
    auto w = std::make_unique<Spinners>(3, 0, Time::ms(50), true);
    w->add_blocker(1, Time::ms(1));
    auto sim = make_sim("core=2", std::move(w), 1, "NO_NI_RANDOM");
    sim->run_until(Time::us(500));
    EXPECT_EQ(per_cpu_tasks(*sim), (std::vector<unsigned>{3, 1}));
    EXPECT_EQ(sim->load_balance().counters.newidle_pulls, 0u);
    sim->run_until(Time::us(1500));
    EXPECT_EQ(per_cpu_tasks(*sim), (std::vector<unsigned>{2, 1}));
    EXPECT_EQ(sim->load_balance().counters.newidle_pulls, 1u);
    EXPECT_EQ(sim->load_balance().counters.tasks_moved, 1u);
    // It runs there at once: the pull happened in CPU 1's schedule().
    EXPECT_NE(sim->state().rq(1).curr, kNoTask);
    // 150 ms of work on two CPUs, with nobody waiting long behind another.
    ASSERT_TRUE(sim->run());
    EXPECT_LT(sim->elapsed(), Time::ms(85));
}

TEST(LoadBalanceEngine, SameSeedSameBalancing)
{
    auto run = [](std::uint64_t seed) {
        auto sim = make_sim("llc=2,core=2,smt=2", std::make_unique<Spinners>(12, 1, Time::ms(60), true), seed);
        EXPECT_TRUE(sim->run());
        std::vector<std::int64_t> out{sim->elapsed().ns(),
                                      static_cast<std::int64_t>(sim->metrics().events),
                                      static_cast<std::int64_t>(sim->load_balance().counters.tasks_moved),
                                      static_cast<std::int64_t>(sim->load_balance().counters.newidle_attempts),
                                      static_cast<std::int64_t>(sim->load_balance().counters.active_pushes),
                                      sim->metrics().idle_while_waiting.ns()};
        for (const Task& t : sim->state().tasks)
            out.push_back(t.cpu);
        return out;
    };
    const std::vector<std::int64_t> a = run(5);
    EXPECT_EQ(a, run(5));
    EXPECT_EQ(run(9), run(9));
    // Newly-idle balancing ran, so NI_RANDOM's dice were thrown.
    EXPECT_GT(a[3], 0);
}

}  // namespace
}  // namespace wb

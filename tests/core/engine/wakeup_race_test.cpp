// SPDX-License-Identifier: Apache-2.0
//
// Concurrent wakeups (docs/model.md, Concurrent wakeups): a selection reads
// the other CPUs as they were when it began, and what it chose shows only
// when it ends, so two wakers on different CPUs whose selections overlap can
// pick the same idle CPU, or two threads of one idle core. And p->on_cpu: a
// wakee still switching out on its CPU is queued there without a selection.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <vector>

#include "engine/kernel.h"
#include "engine/simulator.h"
#include "policies/asym_stable_core.h"
#include "topology/synthetic.h"

namespace wb {
namespace {

// Two wakers, each pinned to its CPU, compute 50 us and then wake their own
// sleeper (WF_SYNC, as a pipe write before a read), the second `gap` after
// the first; the sleepers block at once when first run, where the fork put
// them, which becomes their prev. With `busy_prevs`, a task pinned to each
// sleeper's prev keeps it busy from 10 us, so that neither wakeup can
// simply return to its prev.
class TwoWakers : public Workload {
public:
    struct Spec {
        CpuId waker_cpu[2];
        CpuMask sleeper_cpus;  // empty: every CPU
        Time gap;
        bool busy_prevs = false;
    };
    explicit TwoWakers(Spec spec) : spec_(std::move(spec)) {}

    void setup(Kernel& k) override
    {
        const int n = k.machine().nr_cpus();
        for (int i = 0; i < 2; ++i) {
            sleeper_[i] = k.create_task({"sleeper", i, spec_.sleeper_cpus, 0, SchedPolicy::Normal, false});
            waker_[i] =
                k.create_task({"waker", i, CpuMask::of(n, {spec_.waker_cpu[i]}), 0, SchedPolicy::Normal, false});
        }
        for (int i = 0; i < 2; ++i)
            k.wake_up_new_task(sleeper_[i], spec_.waker_cpu[i]);
        for (int i = 0; i < 2; ++i)
            k.wake_up_new_task(waker_[i], spec_.waker_cpu[i]);
        if (spec_.busy_prevs)
            k.start_timer(Time::us(10), 0);
    }

    void on_timer(Kernel& k, std::int64_t) override
    {
        for (int i = 0; i < 2; ++i) {
            const CpuId cpu = first_cpu_[i];
            hog_[i] = k.create_task({"hog", 2 + i, CpuMask::of(k.machine().nr_cpus(), {cpu}), 0,
                                     SchedPolicy::Normal, false});
            k.wake_up_new_task(hog_[i], cpu);
        }
    }

    Step next_step(Kernel& k, TaskId t) override
    {
        int& step = steps_[t];
        ++step;
        for (int i = 0; i < 2; ++i) {
            if (t == hog_[i]) {
                if (step == 1)
                    return Step::compute(Time::us(200));
                ++exited_;
                return Step::exit();
            }
            if (t == sleeper_[i]) {
                if (step == 1) {
                    first_cpu_[i] = k.task_cpu(t);
                    return Step::block();
                }
                if (step == 2) {
                    woken_on_[i] = k.task_cpu(t);
                    return Step::compute(Time::us(1));
                }
                ++exited_;
                return Step::exit();
            }
            if (t == waker_[i]) {
                if (step == 1)
                    return Step::compute(Time::us(50) + (i == 1 ? spec_.gap : Time()));
                if (step == 2) {
                    k.wake_up(sleeper_[i], WF_SYNC);
                    return Step::compute(Time::us(20));
                }
                ++exited_;
                return Step::exit();
            }
        }
        return Step::exit();
    }
    bool done() const override { return exited_ == (spec_.busy_prevs ? 6 : 4); }
    double ops() const override { return 2; }
    Headline headline(Time elapsed) const override { return {"elapsed", elapsed.to_us(), "us", true}; }
    std::string report(Time) const override { return {}; }

    TaskId sleeper(int i) const { return sleeper_[i]; }
    CpuId first_cpu(int i) const { return first_cpu_[i]; }
    CpuId woken_on(int i) const { return woken_on_[i]; }

private:
    Spec spec_;
    TaskId sleeper_[2] = {kNoTask, kNoTask};
    TaskId waker_[2] = {kNoTask, kNoTask};
    TaskId hog_[2] = {kNoTask, kNoTask};
    CpuId first_cpu_[2] = {kNoCpu, kNoCpu};
    CpuId woken_on_[2] = {kNoCpu, kNoCpu};
    std::map<TaskId, int> steps_;
    int exited_ = 0;
};

struct RaceOutcome {
    CpuId prev[2] = {kNoCpu, kNoCpu};
    CpuId chosen[2] = {kNoCpu, kNoCpu};
    WakePath path[2] = {WakePath::Count, WakePath::Count};
    CpuId ran_on[2] = {kNoCpu, kNoCpu};
    std::uint64_t overlapping = 0;
};

RaceOutcome run_race(Machine m, TwoWakers::Spec spec, SimOptions opt = {})
{
    auto w = std::make_unique<TwoWakers>(std::move(spec));
    TwoWakers* work = w.get();
    Simulator sim(std::move(m), std::move(w), opt);
    RaceOutcome out;
    sim.set_record_sink([&](const DecisionRecord& r) {
        if (r.wake_flags & WF_FORK)
            return;
        for (int i = 0; i < 2; ++i)
            if (r.wakee == work->sleeper(i)) {
                out.chosen[i] = r.chosen;
                out.path[i] = r.path;
            }
    });
    EXPECT_TRUE(sim.run());
    for (int i = 0; i < 2; ++i) {
        out.prev[i] = work->first_cpu(i);
        out.ran_on[i] = work->woken_on(i);
    }
    out.overlapping = sim.metrics().overlapping_selections;
    return out;
}

// One LLC of five CPUs without SMT; SIS_UTIL off so that the LLC scan runs
// from the start (its budget is 0 until the first balance).
Machine five_cpus()
{
    return parse_synthetic("llc=1,core=5");
}

SimOptions no_sis_util()
{
    SimOptions opt;
    opt.features.set(Feat::SIS_UTIL, false);
    return opt;
}

TEST(WakeupRace, SimultaneousWakersPickTheSameIdleCpu)
{
    // Wakers on CPUs 0 and 1; the sleepers may use 2-4 only, so neither
    // wakeup is affine, and their prevs are busy: each scans the LLC. Both
    // selections begin at the same instant and find the one idle CPU left;
    // neither sees the other's ttwu_pending.
    TwoWakers::Spec spec{{0, 1}, CpuMask::of(5, {2, 3, 4}), Time(), true};
    const RaceOutcome r = run_race(five_cpus(), spec, no_sis_util());
    ASSERT_NE(r.chosen[0], kNoCpu);
    EXPECT_EQ(r.chosen[0], r.chosen[1]);
    EXPECT_EQ(r.overlapping, 1u);
    // One of them waits behind the other on that CPU.
    EXPECT_EQ(r.ran_on[0], r.ran_on[1]);
}

TEST(WakeupRace, AWakerAfterTheWindowSeesThePendingWakeup)
{
    // The same wakeups 1 us apart: the first selection (a few hundred ns)
    // has ended and its ttwu_pending shows; the second avoids that CPU.
    TwoWakers::Spec spec{{0, 1}, CpuMask::of(5, {2, 3, 4}), Time::us(1), true};
    const RaceOutcome r = run_race(five_cpus(), spec, no_sis_util());
    ASSERT_NE(r.chosen[0], kNoCpu);
    EXPECT_NE(r.chosen[0], r.chosen[1]);
    EXPECT_EQ(r.overlapping, 0u);
}

// Three cores of two threads, numbered thread-major (core c is CPUs c and
// c + 3), two big cores and a small one: asymmetric capacity with SMT, so
// select_idle_capacity() searches. Wakers on CPU 0 (core 0) and CPU 4
// (core 1) leave core 2 (CPUs 2 and 5) the only whole idle core.
Machine asym_smt()
{
    return parse_synthetic("llc=1,core=3,smt=2,numbering=thread-major,capacity=1024x2/512x1");
}

TEST(WakeupRace, SimultaneousWakersTakeTwoThreadsOfOneIdleCoreUnderMainline)
{
    // Each sync wakeup is affine to its waker's CPU, and select_idle_capacity()
    // scans from there: from 0 it meets CPU 2 first, from 4 CPU 5. Decided
    // at the same instant, the two wakees land on both threads of core 2.
    TwoWakers::Spec spec{{0, 4}, CpuMask(), Time(), true};
    const RaceOutcome r = run_race(asym_smt(), spec);
    EXPECT_EQ(r.path[0], WakePath::AsymCapacity);
    EXPECT_EQ(r.path[1], WakePath::AsymCapacity);
    EXPECT_EQ(r.chosen[0], 2);
    EXPECT_EQ(r.chosen[1], 5);
    EXPECT_EQ(r.overlapping, 1u);
}

TEST(WakeupRace, AsymStableCorePutsSimultaneousWakeesOnOneRunqueue)
{
    // The patch's point: both returns redirected to the idle core's first
    // thread, so the two wakeups pick the same runqueue.
    const AsymStableCore policy({true, true, true});
    SimOptions opt;
    opt.policy = &policy;
    TwoWakers::Spec spec{{0, 4}, CpuMask(), Time(), true};
    const RaceOutcome r = run_race(asym_smt(), spec, opt);
    EXPECT_EQ(r.chosen[0], 2);
    EXPECT_EQ(r.chosen[1], 2);
    EXPECT_EQ(r.path[1], WakePath::Policy);
}

TEST(WakeupRace, WithoutOverlapTheSecondWakerSeesTheCoreTaken)
{
    // 1 us apart, the second selection sees CPU 2's ttwu_pending: core 2 is
    // no longer idle, and it takes CPU 5 as the best thread left or another.
    TwoWakers::Spec spec{{0, 4}, CpuMask(), Time::us(1), true};
    const RaceOutcome r = run_race(asym_smt(), spec);
    EXPECT_EQ(r.chosen[0], 2);
    EXPECT_NE(r.chosen[1], 2);
    EXPECT_EQ(r.overlapping, 0u);
}

// A sleeper that computes 10 us and blocks; an interrupt on another CPU
// wakes it `delay` after it blocked.
class WakeWhileSwitchingOut : public Workload {
public:
    explicit WakeWhileSwitchingOut(Time delay) : delay_(delay) {}
    void setup(Kernel& k) override
    {
        task_ = k.create_task({"sleeper", 0, {}, 0, SchedPolicy::Normal, false});
        k.wake_up_new_task(task_, 0);
    }
    Step next_step(Kernel& k, TaskId) override
    {
        ++step_;
        if (step_ == 1)
            return Step::compute(Time::us(10));
        if (step_ == 2) {
            blocked_on_ = k.task_cpu(task_);
            blocked_at_ = k.now();
            k.start_timer(k.now() + delay_, 0);
            return Step::block();
        }
        if (step_ == 3) {
            woken_on_ = k.task_cpu(task_);
            running_at_ = k.now();
            return Step::compute(Time::us(1));
        }
        done_ = true;
        return Step::exit();
    }
    void on_timer(Kernel& k, std::int64_t) override
    {
        k.wake_up_from_irq(task_, (blocked_on_ + 1) % k.machine().nr_cpus(), 0);
    }
    bool done() const override { return done_; }
    double ops() const override { return 1; }
    Headline headline(Time elapsed) const override { return {"elapsed", elapsed.to_us(), "us", true}; }
    std::string report(Time) const override { return {}; }

    Time delay_, blocked_at_, running_at_;
    TaskId task_ = kNoTask;
    CpuId blocked_on_ = kNoCpu, woken_on_ = kNoCpu;
    int step_ = 0;
    bool done_ = false;
};

struct OnCpuOutcome {
    std::uint64_t on_cpu_wakeups = 0;
    WakePath path = WakePath::Count;
    CpuId blocked_on = kNoCpu, woken_on = kNoCpu;
    Time blocked_to_running;
};

OnCpuOutcome run_on_cpu(Machine m, Time delay)
{
    auto w = std::make_unique<WakeWhileSwitchingOut>(delay);
    WakeWhileSwitchingOut* work = w.get();
    Simulator sim(std::move(m), std::move(w), SimOptions{});
    OnCpuOutcome out;
    sim.set_record_sink([&](const DecisionRecord& r) {
        if (!(r.wake_flags & WF_FORK))
            out.path = r.path;
    });
    EXPECT_TRUE(sim.run());
    out.on_cpu_wakeups = sim.metrics().on_cpu_wakeups;
    out.blocked_on = work->blocked_on_;
    out.woken_on = work->woken_on_;
    out.blocked_to_running = work->running_at_ - work->blocked_at_;
    return out;
}

// The engine tests' machine without SMT: one LLC of four cores, C1 (2 us exit).
Machine four_cores()
{
    Machine m = parse_synthetic("llc=1,core=4");
    m.idle_states = {{"C1", 2000, 4000}};
    return m;
}

TEST(WakeupOnCpu, AWakeeStillSwitchingOutIsQueuedOnItsCpuWithoutASelection)
{
    // 100 ns after the block its CPU is still in switch_to_idle (200 ns on
    // a synthetic machine): ttwu_queue_cond() holds (same LLC, nothing left
    // on that runqueue), so the interrupt queues it on that CPU's wake list
    // with no select_task_rq().
    const OnCpuOutcome r = run_on_cpu(four_cores(), Time::ns(100));
    EXPECT_EQ(r.on_cpu_wakeups, 1u);
    EXPECT_EQ(r.path, WakePath::NotSelected);
    EXPECT_EQ(r.woken_on, r.blocked_on);
    // The interrupt at 100 ns, its wakeup_local (600 ns) and the IPI's
    // flight (1.5 us) end after the switch: the CPU had entered C1 and
    // leaves it (2 us).
    EXPECT_EQ(r.blocked_to_running, Time::ns(100 + 600 + 1500 + 2000));
}

TEST(WakeupOnCpu, AfterTheSwitchTheWakeupSelectsAsUsual)
{
    const OnCpuOutcome r = run_on_cpu(four_cores(), Time::us(1));
    EXPECT_EQ(r.on_cpu_wakeups, 0u);
    EXPECT_EQ(r.path, WakePath::TargetIdle);  // its idle prev, through select_idle_sibling()
    EXPECT_EQ(r.woken_on, r.blocked_on);
    EXPECT_EQ(r.blocked_to_running, Time::ns(1000 + 600 + 1500 + 2000));
}

TEST(WakeupOnCpu, AnIpiThatLandsDuringTheSwitchIsTakenAtItsEnd)
{
    // A switch into idle longer than the IPI's flight: the interrupt waits
    // for finish_task_switch(), and the CPU never entered C1.
    Machine m = four_cores();
    m.costs.at(Cost::switch_to_idle).value = 5000;
    const OnCpuOutcome r = run_on_cpu(std::move(m), Time::ns(100));
    EXPECT_EQ(r.on_cpu_wakeups, 1u);
    EXPECT_EQ(r.blocked_to_running, Time::ns(5000));
}

TEST(WakeupRace, LoneWakeupsDecideAsAnInstantSelectionWould)
{
    // A pipe pair never has two selections open at once: with the window's
    // costs at zero (an instant selection, the engine before the window)
    // every decision is the same.
    auto records_of = [](Machine m) {
        std::vector<std::pair<CpuId, WakePath>> out;
        std::uint64_t overlapping = 0;
        {
            Simulator sim(std::move(m), std::make_unique<TwoWakers>(TwoWakers::Spec{{0, 1}, CpuMask(), Time::us(3)}),
                          SimOptions{});
            sim.set_record_sink([&](const DecisionRecord& r) { out.emplace_back(r.chosen, r.path); });
            EXPECT_TRUE(sim.run());
            overlapping = sim.metrics().overlapping_selections;
        }
        EXPECT_EQ(overlapping, 0u);
        return out;
    };
    Machine instant = parse_synthetic("llc=2,core=2,smt=2");
    instant.costs.at(Cost::select_step).value = 0;
    instant.costs.at(Cost::select_cpu_examined).value = 0;
    const auto with_window = records_of(parse_synthetic("llc=2,core=2,smt=2"));
    EXPECT_EQ(with_window, records_of(instant));
    EXPECT_EQ(with_window.size(), 6u);  // four forks and two wakeups
}

}  // namespace
}  // namespace wb

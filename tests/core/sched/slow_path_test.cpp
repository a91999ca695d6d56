// SPDX-License-Identifier: Apache-2.0
#include "sched/slow_path.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "topology/synthetic.h"

#include "sched_world.h"

namespace wb {
namespace {

// The shared world, with running tasks that load their CPU fully, idle
// stamps and domains looked up by name.
struct World : test::SchedWorld {
    using SchedWorld::SchedWorld;

    // A running task on `cpu` keeping it fully used: util, runnable and
    // load of an always-running nice-0 task.
    TaskId run_on(CpuId cpu, unsigned long load = 1024)
    {
        const TaskId id = SchedWorld::run_on(cpu);
        Rq& rq = s.rq(cpu);
        rq.cfs.avg.load_avg += load;
        rq.cfs.avg.util_avg = 1000;
        rq.cfs.avg.runnable_avg += 1000;
        return id;
    }

    void idle_since(CpuId cpu, std::int64_t ns, int state = -1)
    {
        s.rq(cpu).idle_stamp = Time::ns(ns);
        s.rq(cpu).idle_state = state;
    }

    // The domain of `cpu` with this name, and its group holding `member`.
    int domain(CpuId cpu, std::string_view name) const
    {
        for (int id : d.domains_of(cpu))
            if (d.domain(id).name == name)
                return id;
        return -1;
    }
    int group(int domain_id, CpuId member) const { return d.group_of(domain_id, member); }
};

// --- sched_balance_find_dst_group_cpu ------------------------------------------------

Machine with_idle_states(std::string_view spec)
{
    Machine m = parse_synthetic(spec);
    m.idle_states = {{"C1", 2000, 4000}, {"C6", 100000, 400000}};
    return m;
}

TEST(FindDstGroupCpu, ShallowestIdleStateThenMostRecentlyIdle)
{
    World w(with_idle_states("llc=2,core=4"));
    const TaskId p = w.add_task(0);
    w.idle_since(4, 300, 1);  // deep C6, idled last
    w.idle_since(5, 50, 0);
    w.idle_since(6, 80, 0);  // C1 and more recent than 5
    w.run_on(7);
    const int g = w.group(w.domain(0, "PKG"), 4);
    DecisionRecord rec;
    EXPECT_EQ(sched_balance_find_dst_group_cpu(w.s, g, p, 0, &rec), 6);
    EXPECT_EQ(rec.scanned, (std::vector<CpuId>{4, 5, 6, 7}));
    EXPECT_EQ(rec.steps.back().detail, "cpu 6 in C1, idle since 80 ns");
}

TEST(FindDstGroupCpu, SchedIdleCpuIsTakenAtOnceByNormalTasks)
{
    World w(with_idle_states("llc=2,core=4"));
    const TaskId p = w.add_task(0);
    w.idle_since(4, 300, 0);
    const TaskId background = w.run_on(6);
    w.s.task(background).policy = SchedPolicy::Idle;
    w.s.rq(6).cfs.h_nr_idle = 1;
    const int g = w.group(w.domain(0, "PKG"), 4);
    EXPECT_EQ(sched_balance_find_dst_group_cpu(w.s, g, p, 0, nullptr), 6);

    w.s.task(p).policy = SchedPolicy::Idle;
    EXPECT_EQ(sched_balance_find_dst_group_cpu(w.s, g, p, 0, nullptr), 4);
}

TEST(FindDstGroupCpu, WithoutIdleStatesTheLatestStampWins)
{
    World w("llc=2,core=4");
    const TaskId p = w.add_task(0);
    w.idle_since(4, 10);
    w.idle_since(5, 30);
    w.idle_since(6, 20);
    const int g = w.group(w.domain(0, "PKG"), 4);
    EXPECT_EQ(sched_balance_find_dst_group_cpu(w.s, g, p, 0, nullptr), 5);

    // A run begins on a machine up and idle for a while: every idle CPU went
    // idle through a newidle balance, which stamped it, at the run's time 0
    // at the latest. A stamp of 0 counts, and among equal stamps the first
    // idle CPU is taken, not this_cpu in another group (the kernel's
    // `idle_stamp > latest` from 0 works because its clock is never 0 then).
    World z("llc=2,core=4");
    const TaskId q = z.add_task(0);
    z.run_on(7, 300);
    DecisionRecord rec;
    EXPECT_EQ(sched_balance_find_dst_group_cpu(z.s, g, q, 0, &rec), 4);
    EXPECT_EQ(rec.steps.back().detail, "cpu 4 idle since 0 ns");
}

TEST(FindDstGroupCpu, LeastLoadedWhenNothingIsIdle)
{
    World w("llc=2,core=4");
    const TaskId p = w.add_task(0);
    w.run_on(4, 300);
    w.run_on(5, 100);
    w.run_on(6, 200);
    w.run_on(7, 100);
    const int g = w.group(w.domain(0, "PKG"), 4);
    EXPECT_EQ(sched_balance_find_dst_group_cpu(w.s, g, p, 0, nullptr), 5);

    w.s.task(p).cpus_allowed.reset(5);
    EXPECT_EQ(sched_balance_find_dst_group_cpu(w.s, g, p, 0, nullptr), 7);
}

// --- Group statistics and sched_balance_find_dst_group ------------------------------

TEST(UpdateSgWakeupStats, ClassifiesAndAveragesWithoutP)
{
    World w("llc=2,core=4");
    const int pkg = w.domain(0, "PKG");
    for (CpuId c = 0; c < 4; ++c)
        w.run_on(c);
    const TaskId p = w.add_task(0);
    const int local = w.group(pkg, 0);
    WakeupGroupStats st = update_sg_wakeup_stats(w.s, pkg, local, p, w.s.task(p).se.avg);
    EXPECT_EQ(st.group_type, GroupType::FullyBusy);  // 4 tasks on 4 CPUs at util 1000
    EXPECT_EQ(st.sum_nr_running, 4u);
    EXPECT_EQ(st.idle_cpus, 0u);
    EXPECT_EQ(st.group_capacity, 4096u);
    EXPECT_EQ(st.avg_load, 1024u);

    // One more runnable task: overloaded.
    w.s.rq(0).nr_running = 2;
    w.s.rq(0).cfs.avg.runnable_avg = 2000;
    st = update_sg_wakeup_stats(w.s, pkg, local, p, w.s.task(p).se.avg);
    EXPECT_EQ(st.group_type, GroupType::Overloaded);

    // The exec'ing task itself does not count against its own CPU.
    World x("llc=2,core=4");
    const TaskId self = x.run_on(0);
    x.s.task(self).se.avg.last_update_time = 1000;
    x.s.rq(0).cfs.avg.last_update_time = 1000;
    x.s.task(self).se.avg.load_avg = 1024;
    const WakeupGroupStats own = update_sg_wakeup_stats(x.s, pkg, local, self, x.s.task(self).se.avg);
    EXPECT_EQ(own.idle_cpus, 4u);
    EXPECT_EQ(own.sum_nr_running, 0u);
    EXPECT_EQ(own.group_load, 0u);
    EXPECT_EQ(own.group_type, GroupType::HasSpare);
}

TEST(FindDstGroup, LowerGroupTypeWins)
{
    World w("llc=2,core=4");
    const int pkg = w.domain(0, "PKG");
    for (CpuId c = 0; c < 4; ++c)
        w.run_on(c);
    w.run_on(4);
    const TaskId p = w.add_task(0);
    DecisionRecord rec;
    EXPECT_EQ(sched_balance_find_dst_group(w.s, pkg, p, w.s.task(p).se.avg, 0, &rec), w.group(pkg, 4));
    EXPECT_EQ(rec.steps.back().branch, "idlest less busy");

    // Seen from the other side: the local group has spare, stay.
    EXPECT_EQ(sched_balance_find_dst_group(w.s, pkg, p, w.s.task(p).se.avg, 4, nullptr), -1);
}

TEST(FindDstGroup, HasSpareGoesWhereMoreCpusAreIdle)
{
    World w("llc=2,core=4");
    const int pkg = w.domain(0, "PKG");
    w.run_on(0);
    w.run_on(1);
    w.run_on(4);
    const TaskId p = w.add_task(0);
    EXPECT_EQ(sched_balance_find_dst_group(w.s, pkg, p, w.s.task(p).se.avg, 0, nullptr), w.group(pkg, 4));
    w.run_on(5);
    EXPECT_EQ(sched_balance_find_dst_group(w.s, pkg, p, w.s.task(p).se.avg, 0, nullptr), -1);
}

TEST(FindDstGroup, FullyBusyNeedsMoreThanTheImbalanceMargin)
{
    World w("llc=2,core=4");
    const int pkg = w.domain(0, "PKG");
    for (CpuId c = 0; c < 4; ++c)
        w.run_on(c, 1024);
    for (CpuId c = 4; c < 8; ++c)
        w.run_on(c, 800);
    const TaskId p = w.add_task(0);
    // avg_load 1024 vs 800: 100 * 1024 > 117 * 800, and 800 + 170 < 1024.
    EXPECT_EQ(sched_balance_find_dst_group(w.s, pkg, p, w.s.task(p).se.avg, 0, nullptr), w.group(pkg, 4));
    for (CpuId c = 4; c < 8; ++c)
        w.s.rq(c).cfs.avg.load_avg = 900;  // 100 * 1024 <= 117 * 900: stay
    DecisionRecord rec;
    EXPECT_EQ(sched_balance_find_dst_group(w.s, pkg, p, w.s.task(p).se.avg, 0, &rec), -1);
    EXPECT_EQ(rec.steps.back().branch, "local within imbalance_pct");
}

TEST(FindDstGroup, NumaAllowsASmallImbalanceToStayNearTheWaker)
{
    World w("node=2,llc=4,core=8");
    const int numa = w.domain(0, "NUMA");
    ASSERT_GE(numa, 0);
    ASSERT_TRUE(w.d.domain(numa).flags & SD_BALANCE_FORK);
    ASSERT_EQ(w.d.domain(numa).imb_numa_nr, 4);
    w.run_on(0);
    const TaskId p = w.add_task(0);
    const SchedAvg& avg = w.s.task(p).se.avg;
    // Local node: 1 running (+1 for p) <= 4 and idle CPUs differ by 1: stay.
    DecisionRecord rec;
    EXPECT_EQ(sched_balance_find_dst_group(w.s, numa, p, avg, 0, &rec), -1);
    EXPECT_EQ(rec.steps.back().branch, "numa imbalance allowed");

    // p may use only one CPU of the local node: the allowance shrinks to 1.
    w.s.task(p).cpus_allowed = CpuMask::range(64, 32, 63);
    w.s.task(p).cpus_allowed.set(0);
    w.s.task(p).nr_cpus_allowed = 33;
    EXPECT_EQ(sched_balance_find_dst_group(w.s, numa, p, w.s.task(p).se.avg, 0, nullptr), w.group(numa, 32));

    // Busier local node: 4 running + 1 is above 4, spread.
    World v("node=2,llc=4,core=8");
    for (CpuId c = 0; c < 4; ++c)
        v.run_on(c);
    const TaskId q = v.add_task(0);
    EXPECT_EQ(sched_balance_find_dst_group(v.s, numa, q, v.s.task(q).se.avg, 0, nullptr), v.group(numa, 32));
}

// adjust_numa_imbalance() allows the imbalance unless dst_running >
// imb_numa_nr: a local node running imb_numa_nr - 1 tasks takes p as its
// imb_numa_nr-th and keeps it (a strict "<" sent it to the other node).
TEST(FindDstGroup, NumaAllowanceCountsTheLimitItself)
{
    World w("node=2,llc=4,core=8");
    const int numa = w.domain(0, "NUMA");
    ASSERT_GE(numa, 0);
    const int imb_numa_nr = w.d.domain(numa).imb_numa_nr;
    ASSERT_EQ(imb_numa_nr, 4);
    // Local node 0-31 runs imb_numa_nr - 1 = 3 tasks, the remote node 1:
    // 29 against 31 idle CPUs, a difference of 2 (NUMA_IMBALANCE_MIN).
    for (CpuId c = 0; c < imb_numa_nr - 1; ++c)
        w.run_on(c);
    w.run_on(32);
    const TaskId p = w.add_task(0);
    const SchedAvg& avg = w.s.task(p).se.avg;
    ASSERT_EQ(update_sg_wakeup_stats(w.s, numa, w.group(numa, 0), p, avg).sum_nr_running, 3u);
    DecisionRecord rec;
    EXPECT_EQ(sched_balance_find_dst_group(w.s, numa, p, avg, 0, &rec), -1);
    ASSERT_FALSE(rec.steps.empty());
    EXPECT_EQ(rec.steps.back().branch, "numa imbalance allowed");
    EXPECT_EQ(rec.steps.back().detail, "NUMA: local nr_running+1 4 <= imb_numa_nr 4, idle difference 2 <= 2");

    // The whole fork stays on the local node too.
    EXPECT_LT(sched_balance_find_dst_cpu(w.s, w.domain(0, "NUMA"), p, 0, 0, SD_BALANCE_FORK, nullptr), 32);

    // One more local task puts p past the limit: the node with more idle
    // CPUs gets it.
    w.run_on(imb_numa_nr - 1);
    EXPECT_EQ(sched_balance_find_dst_group(w.s, numa, p, w.s.task(p).se.avg, 0, nullptr), w.group(numa, 32));
}

TEST(FindDstGroup, MisfitGroupLosesToAGroupWhereTheTaskFits)
{
    World w("cluster=2,core=4,capacity=446x4/1024x4");
    const int mc = w.domain(0, "MC");
    ASSERT_TRUE(w.d.domain(mc).flags & SD_ASYM_CPUCAPACITY);
    const TaskId p = w.add_task(0);
    w.s.task(p).se.avg.util_avg = 600;  // fits 1024 only
    const SchedAvg& avg = w.s.task(p).se.avg;
    EXPECT_EQ(update_sg_wakeup_stats(w.s, mc, w.group(mc, 0), p, avg).group_type, GroupType::MisfitTask);
    EXPECT_EQ(update_sg_wakeup_stats(w.s, mc, w.group(mc, 4), p, avg).group_type, GroupType::HasSpare);
    EXPECT_EQ(sched_balance_find_dst_group(w.s, mc, p, avg, 0, nullptr), w.group(mc, 4));
}

// --- sched_balance_find_dst_cpu ----------------------------------------------------------

TEST(FindDstCpu, ForkDescendsToTheIdlestCpu)
{
    World w("llc=2,core=4,smt=2");
    w.run_on(0);
    w.run_on(1);
    for (CpuId c = 2; c < 16; ++c)
        w.idle_since(c, 100 + c);
    w.idle_since(12, 500);  // idled most recently
    const TaskId child = w.add_task(0);
    DecisionRecord rec;
    EXPECT_EQ(sched_balance_find_dst_cpu(w.s, w.domain(0, "PKG"), child, 0, 0, SD_BALANCE_FORK, &rec), 12);
    EXPECT_EQ(rec.steps.back().result, 12);
}

TEST(FindDstCpu, ExecDiscountsTheExecingTaskAndMayStay)
{
    World w("llc=2,core=4");
    const TaskId self = w.run_on(0);
    w.run_on(1);
    w.run_on(2);
    w.run_on(4);
    w.run_on(5);
    for (CpuId c : {3, 6, 7})
        w.idle_since(c, 100 + c);
    w.s.task(self).se.avg.last_update_time = 1000;
    w.s.rq(0).cfs.avg.last_update_time = 1000;
    // Without itself CPU 0 is idle: both LLCs have two idle CPUs, stay.
    EXPECT_EQ(sched_balance_find_dst_cpu(w.s, w.domain(0, "PKG"), self, 0, 0, SD_BALANCE_EXEC, nullptr), 0);

    // A new task counts the parent's CPU as busy: the other LLC has more idle.
    const TaskId child = w.add_task(0);
    EXPECT_EQ(sched_balance_find_dst_cpu(w.s, w.domain(0, "PKG"), child, 0, 0, SD_BALANCE_FORK, nullptr), 7);
}

TEST(FindDstCpu, NoAllowedCpuInTheDomainReturnsPrev)
{
    World w("llc=2,core=4");
    const TaskId p = w.add_task(2);
    w.s.task(p).cpus_allowed = CpuMask::of(8, {6});
    w.s.task(p).nr_cpus_allowed = 1;
    EXPECT_EQ(sched_balance_find_dst_cpu(w.s, w.domain(0, "MC"), p, 0, 2, SD_BALANCE_FORK, nullptr), 2);
}

}  // namespace
}  // namespace wb

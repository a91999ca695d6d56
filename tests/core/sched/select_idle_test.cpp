// SPDX-License-Identifier: Apache-2.0
#include "sched/select_idle.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "sched/fair_util.h"
#include "topology/synthetic.h"

#include "sched_world.h"

namespace wb {
namespace {

// The shared world, with new tasks' recent_used_cpu their CPU.
struct World : test::SchedWorld {
    explicit World(std::string_view spec, const FeatureSet& feats = FeatureSet()) : SchedWorld(spec, feats)
    {
        recent_used_is_prev = true;
    }
};

// --- SMT siblings and the wrap cursor -------------------------------------------

TEST(SmtSiblings, MatchTheMachineMaskOnEveryNumbering)
{
    for (const char* spec : {"llc=2,core=4,smt=2", "llc=1,core=4,smt=2,numbering=thread-major", "core=4",
                             "core=4,smt=2,capacity=800x2/1024x2"}) {
        World w(spec);
        for (CpuId c = 0; c < w.m.nr_cpus(); ++c) {
            std::vector<CpuId> got;
            for (CpuId s : SmtSiblings(w.s, c))
                got.push_back(s);
            EXPECT_EQ(got, w.m.smt_mask(c).to_vector()) << spec << " cpu " << c;
        }
    }
}

TEST(WrapCursor, SkipsCpusRemovedWhileIterating)
{
    CpuMask mask = CpuMask::range(8, 0, 7);
    WrapCursor it(mask, 5);
    std::vector<CpuId> seen;
    for (CpuId c = it.next(); c != kNoCpu; c = it.next()) {
        seen.push_back(c);
        if (c == 6)
            mask.reset(1);  // removed before it is reached
    }
    EXPECT_EQ(seen, (std::vector<CpuId>{5, 6, 7, 0, 2, 3, 4}));

    // Starting past the last CPU (target + 1 == nr_cpus) visits all from 0.
    const CpuMask all = CpuMask::range(4, 0, 3);
    WrapCursor from_end(all, 4);
    std::vector<CpuId> order;
    for (CpuId c = from_end.next(); c != kNoCpu; c = from_end.next())
        order.push_back(c);
    EXPECT_EQ(order, (std::vector<CpuId>{0, 1, 2, 3}));
}

// --- select_idle_cpu ----------------------------------------------------------------

// The text of decision records: literals, strings and numbers joined, the
// numbers written as std::to_string writes them (records are compared byte
// for byte across builds).
TEST(RecordText, CatJoinsLiteralsStringsAndNumbers)
{
    const std::string name = "MC";
    const char* tail = ": waker is prev";
    EXPECT_EQ(cat(name, " (", std::string_view("0-79"), ") cpu ", -1, " of ", 80u, tail),
              "MC (0-79) cpu -1 of 80: waker is prev");
    EXPECT_EQ(cat(std::numeric_limits<std::int64_t>::min(), " ", std::numeric_limits<std::uint64_t>::max()),
              std::to_string(std::numeric_limits<std::int64_t>::min()) + " " +
                  std::to_string(std::numeric_limits<std::uint64_t>::max()));
    EXPECT_EQ(cat("", 0, ""), "0");
}

TEST(SelectIdleCpu, ScanStartsAfterTargetAndWraps)
{
    World w("llc=2,core=4,smt=2");
    w.run_on_all_but({2, 4});
    const TaskId p = w.add_task(5);
    update_idle_cpu_scan(w.s, w.llc(5), 0);  // idle LLC: scan all 8
    ASSERT_EQ(w.shared(w.llc(5)).nr_idle_scan, 8);

    DecisionRecord rec;
    EXPECT_EQ(select_idle_cpu(w.s, p, w.llc(5), false, 5, &rec), 2);
    EXPECT_EQ(rec.scanned, (std::vector<CpuId>{6, 7, 0, 1, 2}));
}

TEST(SelectIdleCpu, BudgetZeroMeansNoScanEvenInIdleCoreModeAndKeepsTheHint)
{
    World w("llc=2,core=4,smt=2");
    w.run_on_all_but({6, 7});  // a whole idle core
    const TaskId p = w.add_task(0);
    const int llc = w.llc(0);
    w.shared(llc).nr_idle_scan = 0;
    w.shared(llc).has_idle_cores = true;

    DecisionRecord rec;
    EXPECT_EQ(select_idle_cpu(w.s, p, llc, true, 0, &rec), kNoCpu);
    EXPECT_TRUE(rec.scanned.empty());
    EXPECT_TRUE(w.shared(llc).has_idle_cores);
    ASSERT_FALSE(rec.steps.empty());
    EXPECT_EQ(rec.steps.back().branch, "no scan budget");
}

TEST(SelectIdleCpu, BudgetKExaminesAtMostKCpus)
{
    World w("llc=2,core=4,smt=2");
    w.run_on_all_but({7});
    const TaskId p = w.add_task(0);
    const int llc = w.llc(0);

    w.shared(llc).nr_idle_scan = 3;
    DecisionRecord rec;
    EXPECT_EQ(select_idle_cpu(w.s, p, llc, false, 0, &rec), kNoCpu);
    EXPECT_EQ(rec.scanned, (std::vector<CpuId>{1, 2, 3}));

    w.shared(llc).nr_idle_scan = 7;
    DecisionRecord rec7;
    EXPECT_EQ(select_idle_cpu(w.s, p, llc, false, 0, &rec7), 7);
    EXPECT_EQ(rec7.scanned.size(), 7u);
}

TEST(SelectIdleCpu, NoSisUtilScansUnbounded)
{
    FeatureSet f;
    ASSERT_EQ(f.apply("NO_SIS_UTIL"), "");
    World w("llc=2,core=4,smt=2", f);
    w.run_on_all_but({7});
    const TaskId p = w.add_task(0);
    w.shared(w.llc(0)).nr_idle_scan = 0;  // would forbid the scan under SIS_UTIL
    EXPECT_EQ(select_idle_cpu(w.s, p, w.llc(0), false, 0, nullptr), 7);
}

TEST(SelectIdleCpu, IdleCoreModeReturnsTheScannedCpuOfAWholeIdleCore)
{
    // Thread-major: cores {0,4} {1,5} {2,6} {3,7}. From target 4 the scan
    // reaches 5 first, and 5's whole core is idle: 5 is returned, not 1.
    World w("llc=1,core=4,smt=2,numbering=thread-major");
    w.run_on(0);
    w.run_on(4);
    w.run_on(2);
    const TaskId p = w.add_task(4);
    const int llc = w.llc(4);
    w.shared(llc).nr_idle_scan = 1;  // idle-core mode ignores the budget
    w.shared(llc).has_idle_cores = true;

    DecisionRecord rec;
    EXPECT_EQ(select_idle_cpu(w.s, p, llc, true, 4, &rec), 5);
    EXPECT_EQ(rec.scanned, (std::vector<CpuId>{1, 5}));
    EXPECT_TRUE(w.shared(llc).has_idle_cores);
}

TEST(SelectIdleCpu, FailedIdleCoreScanClearsHintAndReturnsFirstIdleThread)
{
    World w("llc=2,core=4,smt=2");
    // Every core of LLC 0 has a busy thread; idle threads 3 and 5.
    w.run_on_all_but({3, 5});
    const TaskId p = w.add_task(0);
    const int llc = w.llc(0);
    w.shared(llc).nr_idle_scan = 8;
    w.shared(llc).has_idle_cores = true;

    DecisionRecord rec;
    EXPECT_EQ(select_idle_cpu(w.s, p, llc, true, 0, &rec), 3);
    EXPECT_FALSE(w.shared(llc).has_idle_cores);
    // Each core is visited once (its siblings leave the scan mask together),
    // and once a fallback thread is known a busy sibling ends the core.
    EXPECT_EQ(rec.scanned, (std::vector<CpuId>{0, 1, 2, 3, 4, 6}));
}

TEST(SelectIdleCpu, SchedIdleThreadIsAnIdleCoreFallbackForNormalTasksOnly)
{
    World w("llc=2,core=4,smt=2");
    w.run_on_all_but({});
    // CPU 2 runs only a SCHED_IDLE task (replace its normal one).
    Rq& rq2 = w.s.rq(2);
    w.s.task(rq2.curr).policy = SchedPolicy::Idle;
    rq2.cfs.h_nr_idle = 1;
    const int llc = w.llc(0);
    w.shared(llc).nr_idle_scan = 8;

    const TaskId normal = w.add_task(0);
    w.shared(llc).has_idle_cores = true;
    EXPECT_EQ(select_idle_cpu(w.s, normal, llc, true, 0, nullptr), 2);

    const TaskId idle_policy = w.add_task(0);
    w.s.task(idle_policy).policy = SchedPolicy::Idle;
    w.shared(llc).has_idle_cores = true;
    EXPECT_EQ(select_idle_cpu(w.s, idle_policy, llc, true, 0, nullptr), kNoCpu);
    EXPECT_EQ(select_idle_cpu(w.s, idle_policy, llc, false, 0, nullptr), kNoCpu);
    EXPECT_EQ(select_idle_cpu(w.s, normal, llc, false, 0, nullptr), 2);
}

TEST(SelectIdleCpu, ScanIsLimitedToTheAffinity)
{
    World w("llc=2,core=4,smt=2");
    w.run_on_all_but({1, 6});
    const TaskId p = w.add_task(0);
    w.s.task(p).cpus_allowed = CpuMask::of(16, {0, 5, 6, 9});
    w.s.task(p).nr_cpus_allowed = 4;
    w.shared(w.llc(0)).nr_idle_scan = 8;
    DecisionRecord rec;
    EXPECT_EQ(select_idle_cpu(w.s, p, w.llc(0), false, 0, &rec), 6);
    EXPECT_EQ(rec.scanned, (std::vector<CpuId>{5, 6}));
}

TEST(SelectIdleCpu, ClusterFirstPassThenTheRestOfTheLlc)
{
    // One LLC of two 4-CPU clusters, no SMT: {0-3} {4-7}.
    World w("llc=1,cluster=2,core=4");
    ASSERT_TRUE(w.d.sched_cluster_active());
    w.run_on_all_but({0, 5});
    const TaskId p = w.add_task(6);
    w.shared(w.llc(6)).nr_idle_scan = 8;

    // From target 2 the plain wrap order reaches 5 first (3, 4, 5); the
    // cluster pass scans target's own cluster first (3, then 0).
    DecisionRecord rec;
    EXPECT_EQ(select_idle_cpu(w.s, p, w.llc(2), false, 2, &rec), 0);
    EXPECT_EQ(rec.scanned, (std::vector<CpuId>{3, 0}));

    // The cluster pass and the main loop share one budget.
    w.run_on(0);
    w.shared(w.llc(2)).nr_idle_scan = 5;
    DecisionRecord rec5;
    EXPECT_EQ(select_idle_cpu(w.s, p, w.llc(2), false, 2, &rec5), kNoCpu);
    EXPECT_EQ(rec5.scanned, (std::vector<CpuId>{3, 0, 1, 2, 4}));
}

// --- select_idle_smt, select_idle_core ------------------------------------------------

TEST(SelectIdleSmt, LooksOnlyAtAllowedSiblingsOfPrev)
{
    World w("llc=2,core=4,smt=2");
    w.run_on_all_but({3, 5});
    const TaskId p = w.add_task(2);
    DecisionRecord rec;
    EXPECT_EQ(select_idle_smt(w.s, p, w.llc(2), 2, &rec), 3);
    EXPECT_EQ(rec.scanned, (std::vector<CpuId>{3}));
    EXPECT_EQ(select_idle_smt(w.s, p, w.llc(2), 4, nullptr), 5);
    EXPECT_EQ(select_idle_smt(w.s, p, w.llc(2), 0, nullptr), kNoCpu);

    w.s.task(p).cpus_allowed.reset(3);
    EXPECT_EQ(select_idle_smt(w.s, p, w.llc(2), 2, nullptr), kNoCpu);
}

TEST(SelectIdleCore, BusySiblingRemovesTheWholeCoreAndRemembersAnIdleThread)
{
    World w("llc=2,core=4,smt=2");
    w.run_on(2);
    const TaskId p = w.add_task(0);
    CpuMask cpus = CpuMask::range(16, 0, 7);
    CpuId idle_cpu = kNoCpu;
    EXPECT_EQ(select_idle_core(w.s, p, 3, cpus, &idle_cpu, nullptr), kNoCpu);
    EXPECT_EQ(idle_cpu, 3);
    EXPECT_FALSE(cpus.test(2));
    EXPECT_FALSE(cpus.test(3));
    EXPECT_TRUE(cpus.test(4));

    EXPECT_EQ(select_idle_core(w.s, p, 5, cpus, &idle_cpu, nullptr), 5);
    EXPECT_EQ(idle_cpu, 3);  // the first one seen stays
}

// --- Idle-cores hint and nr_idle_scan -------------------------------------------------

TEST(UpdateIdleCore, SetsTheHintOnlyWhenEveryOtherSiblingIsIdle)
{
    World w("llc=2,core=4,smt=2");
    const int llc = w.llc(0);
    w.run_on(1);
    update_idle_core(w.s, 0);
    EXPECT_FALSE(w.shared(llc).has_idle_cores);
    EXPECT_FALSE(test_idle_cores(w.s, 0));

    // A pending wakeup on the sibling also blocks it.
    World v("llc=2,core=4,smt=2");
    v.s.rq(1).ttwu_pending = 1;
    update_idle_core(v.s, 0);
    EXPECT_FALSE(v.shared(v.llc(0)).has_idle_cores);

    World u("llc=2,core=4,smt=2");
    u.run_on(3);  // another core busy does not matter
    update_idle_core(u.s, 0);
    EXPECT_TRUE(u.shared(u.llc(0)).has_idle_cores);
    EXPECT_TRUE(test_idle_cores(u.s, 7));
    EXPECT_FALSE(test_idle_cores(u.s, 8));  // the other LLC's hint
}

TEST(UpdateIdleCore, NeverSetWithoutSmt)
{
    World w("llc=2,core=4");
    update_idle_core(w.s, 0);
    EXPECT_FALSE(test_idle_cores(w.s, 0));
}

TEST(UpdateIdleCpuScan, FollowsTheSisUtilFormula)
{
    World w("core=16");
    const int llc = w.llc(0);
    ASSERT_EQ(w.d.domain(llc).span_weight, 16);
    ASSERT_EQ(w.d.domain(llc).imbalance_pct, 117);
    const struct {
        unsigned long avg_util;
        int nr_idle_scan;
    } cases[] = {{0, 16}, {256, 14}, {512, 10}, {768, 3}, {847, 1}, {848, 0}, {1024, 0}};
    for (const auto& c : cases) {
        update_idle_cpu_scan(w.s, llc, c.avg_util * 16);
        EXPECT_EQ(w.shared(llc).nr_idle_scan, c.nr_idle_scan) << "avg util " << c.avg_util;
    }
}

TEST(UpdateIdleCpuScan, IgnoresDomainsWithoutSharedStateAndNoSisUtil)
{
    World w("llc=2,core=4");
    const std::vector<int>& chain = w.d.domains_of(0);
    const int pkg = chain.back();
    ASSERT_FALSE(w.d.domain(pkg).has_shared);
    update_idle_cpu_scan(w.s, pkg, 0);
    EXPECT_EQ(w.shared(pkg).nr_idle_scan, 0);

    FeatureSet f;
    ASSERT_EQ(f.apply("NO_SIS_UTIL"), "");
    World v("llc=2,core=4", f);
    v.shared(v.llc(0)).nr_idle_scan = 3;
    update_idle_cpu_scan(v.s, v.llc(0), 0);
    EXPECT_EQ(v.shared(v.llc(0)).nr_idle_scan, 3);
}

// --- Capacity fit ------------------------------------------------------------------------

TEST(UtilFitsCpu, EightyPercentMargin)
{
    World w("cluster=2,core=4,capacity=446x4/1024x4");
    EXPECT_EQ(util_fits_cpu(w.s, 819, 0, 1024, 4), 1);  // 819 * 1280 < 1024 * 1024
    EXPECT_EQ(util_fits_cpu(w.s, 820, 0, 1024, 4), 0);
    EXPECT_EQ(util_fits_cpu(w.s, 356, 0, 1024, 0), 1);  // capacity 446
    EXPECT_EQ(util_fits_cpu(w.s, 357, 0, 1024, 0), 0);

    // capacity_of, not the original capacity, is what must fit.
    w.s.rq(4).cpu_capacity = 700;
    EXPECT_EQ(util_fits_cpu(w.s, 600, 0, 1024, 4), 0);
}

TEST(UtilFitsCpu, UclampRules)
{
    World w("cluster=2,core=4,capacity=446x4/1024x4");
    w.s.uclamp_used = true;
    // A uclamp_max the little CPU covers makes anything fit there...
    EXPECT_EQ(util_fits_cpu(w.s, 1000, 0, 300, 0), 1);
    // ...but an uncapped task on the biggest CPU still needs the margin.
    EXPECT_EQ(util_fits_cpu(w.s, 1000, 0, 1024, 4), 0);
    // Fits by util, but asks for more than the CPU can give: -1.
    EXPECT_EQ(util_fits_cpu(w.s, 100, 500, 1024, 0), -1);
    EXPECT_EQ(util_fits_cpu(w.s, 100, 500, 1024, 4), 1);
}

TEST(AsymFitsCpu, TrueOnSymmetricMachinesAndNeedsAnIdleCoreWithSmt)
{
    World sym("llc=2,core=4,smt=2");
    EXPECT_TRUE(asym_fits_cpu(sym.s, 5000, 0, 1024, 0));

    World w("core=4,smt=2,capacity=800x2/1024x2");
    ASSERT_TRUE(w.d.sched_asym_cpucapacity());
    EXPECT_TRUE(asym_fits_cpu(w.s, 500, 0, 1024, 4));
    w.run_on(5);
    EXPECT_FALSE(asym_fits_cpu(w.s, 500, 0, 1024, 4));  // sibling busy: not a fit in [NEW]
    EXPECT_FALSE(asym_fits_cpu(w.s, 900, 0, 1024, 6));  // does not fit 1024 with margin
}

// --- select_idle_capacity ----------------------------------------------------------------

TEST(SelectIdleCapacity, FirstFittingIdleCpuFromTarget)
{
    World w("cluster=2,core=4,capacity=446x4/1024x4");
    const int sd = w.d.shortcuts(0).sd_asym_cpucapacity;
    ASSERT_GE(sd, 0);
    w.shared(sd).nr_idle_scan = 8;
    const TaskId p = w.add_task(0);
    w.s.task(p).se.avg.util_avg = 400;  // fits 1024 only

    DecisionRecord rec;
    EXPECT_EQ(select_idle_capacity(w.s, p, sd, 0, &rec), 4);
    EXPECT_EQ(rec.scanned, (std::vector<CpuId>{0, 1, 2, 3, 4}));  // from target itself

    w.run_on(4);
    EXPECT_EQ(select_idle_capacity(w.s, p, sd, 0, nullptr), 5);
    // A small task fits the little target at once.
    w.s.task(p).se.avg.util_avg = 100;
    EXPECT_EQ(select_idle_capacity(w.s, p, sd, 2, nullptr), 2);
}

TEST(SelectIdleCapacity, MisfitsRankByCapacityAndTheBudgetStopsTheScan)
{
    World w("cluster=2,core=4,capacity=446x4/1024x4");
    const int sd = w.d.shortcuts(0).sd_asym_cpucapacity;
    const TaskId p = w.add_task(0);
    w.s.task(p).se.avg.util_avg = 900;  // fits nowhere
    w.shared(sd).nr_idle_scan = 8;
    EXPECT_EQ(select_idle_capacity(w.s, p, sd, 0, nullptr), 4);  // biggest idle, first seen

    // Budget 5 covers 0-4; budget 4 stops before 4: best is the little 0.
    w.shared(sd).nr_idle_scan = 4;
    DecisionRecord rec;
    EXPECT_EQ(select_idle_capacity(w.s, p, sd, 0, &rec), 0);
    EXPECT_EQ(rec.scanned, (std::vector<CpuId>{0, 1, 2, 3}));

    w.shared(sd).nr_idle_scan = 0;
    EXPECT_EQ(select_idle_capacity(w.s, p, sd, 0, nullptr), kNoCpu);
}

TEST(SelectIdleCapacity, UsesTaskUtilEst)
{
    World w("cluster=2,core=4,capacity=446x4/1024x4");
    const int sd = w.d.shortcuts(0).sd_asym_cpucapacity;
    w.shared(sd).nr_idle_scan = 8;
    const TaskId p = w.add_task(0);
    w.s.task(p).se.avg.util_avg = 100;
    w.s.task(p).se.avg.util_est = 500;  // the estimate does not fit a little CPU
    EXPECT_EQ(select_idle_capacity(w.s, p, sd, 0, nullptr), 4);
}

TEST(SelectIdleCapacity, SmtAwareIdleCoreBeatsAFittingThreadOfABusyCore)
{
    // Cores {0,1} {2,3} at 800, {4,5} {6,7} at 1024.
    World w("core=4,smt=2,capacity=800x2/1024x2");
    const int sd = w.d.shortcuts(0).sd_asym_cpucapacity;
    ASSERT_GE(sd, 0);
    ASSERT_EQ(w.d.shortcuts(0).sd_balance_shared, sd);
    w.shared(sd).nr_idle_scan = 8;
    w.run_on(0);
    const TaskId p = w.add_task(0);
    w.s.task(p).se.avg.util_avg = 500;  // fits 800 and 1024

    // Hint clear: every CPU is preferred, the first fitting idle one wins.
    EXPECT_EQ(select_idle_capacity(w.s, p, sd, 0, nullptr), 1);

    // Hint set: 1 sits on a busy core (rank -2); 2 is on a whole idle core.
    w.shared(sd).has_idle_cores = true;
    EXPECT_EQ(select_idle_capacity(w.s, p, sd, 0, nullptr), 2);
    EXPECT_TRUE(w.shared(sd).has_idle_cores);
}

TEST(SelectIdleCapacity, StaleHintIsClearedWhenNoCandidateIsOnAnIdleCore)
{
    World w("core=4,smt=2,capacity=800x2/1024x2");
    const int sd = w.d.shortcuts(0).sd_asym_cpucapacity;
    w.shared(sd).nr_idle_scan = 8;
    w.run_on_all_but({1});
    const TaskId p = w.add_task(0);
    w.s.task(p).se.avg.util_avg = 500;
    w.shared(sd).has_idle_cores = true;
    EXPECT_EQ(select_idle_capacity(w.s, p, sd, 0, nullptr), 1);
    EXPECT_FALSE(w.shared(sd).has_idle_cores);
}

TEST(SelectIdleCapacity, MisfitOnIdleCoreBeatsFitOnBusyCore)
{
    World w("core=4,smt=2,capacity=800x2/1024x2");
    const int sd = w.d.shortcuts(0).sd_asym_cpucapacity;
    w.shared(sd).nr_idle_scan = 8;
    // 700 fits 1024 (896 > 700) but not 800 (640 < 700).
    const TaskId p = w.add_task(0);
    w.s.task(p).se.avg.util_avg = 700;
    w.run_on(4);  // core {4,5} busy: 5 fits but on a busy core (-2)
    w.run_on(6);  // core {6,7} busy too
    w.shared(sd).has_idle_cores = true;
    // Core {2,3} is idle: 2 misfits there (rank -3) and wins over 5 and 7.
    w.run_on(0);
    EXPECT_EQ(select_idle_capacity(w.s, p, sd, 0, nullptr), 2);
    EXPECT_TRUE(w.shared(sd).has_idle_cores);
}

}  // namespace
}  // namespace wb

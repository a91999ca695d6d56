// SPDX-License-Identifier: Apache-2.0
#include "host/measured_costs.h"

#include <gtest/gtest.h>

#include <optional>

namespace wb::host {
namespace {

// Round figures, so each expected value can be checked by hand.
HostFigures figures()
{
    HostFigures f;
    f.host = "box";
    f.date = "2026-12-02";
    f.cpu = 0;
    f.null_syscall_ns = 100;
    f.pipe_write_read_ns = 700;             // 2 x (100 + 250)
    f.pinned_process_round_trip_ns = 4000;  // handoff 2000
    f.pinned_thread_round_trip_ns = 3600;   // 200 a switch less
    PairFigures p;
    p.distance = Distance::Llc;
    p.cpu_a = 0;
    p.cpu_b = 1;
    p.pipe_round_trip_ns = 10000;  // handoff 5000
    p.line_round_trip_ns = 180;
    p.ipis_per_round_trip = 2.0;
    f.pairs.push_back(p);
    return f;
}

std::optional<MeasuredCost> find(const CostMapping& m, Cost c)
{
    for (const MeasuredCost& x : m.costs)
        if (x.cost == c)
            return x;
    return std::nullopt;
}

double value(const CostMapping& m, Cost c)
{
    auto x = find(m, c);
    return x ? x->value : -1;
}

TEST(MeasuredCosts, DirectAndSplitParametersFollowTheHandoffFormula)
{
    const CostMapping m = map_host_figures(figures(), CostModel{}, {});
    EXPECT_EQ(value(m, Cost::syscall), 100);
    EXPECT_EQ(value(m, Cost::pipe_transfer), 250);         // 700 / 2 - 100
    EXPECT_EQ(value(m, Cost::address_space_switch), 200);  // (4000 - 3600) / 2
    // 2000 - 2 x 100 - 2 x 250 - 200 = 1100, split 1050 : 1600.
    EXPECT_EQ(value(m, Cost::wakeup_local), 436);
    EXPECT_EQ(value(m, Cost::context_switch), 664);
    EXPECT_EQ(value(m, Cost::remote_rq_access), 180);  // two transfers = one line round trip
    EXPECT_EQ(value(m, Cost::switch_from_idle), 299);  // 45% of 664
    // 5000 - 299 - 2 x 250 - 100 - 436 = 3665: the wakee switches in from idle.
    EXPECT_EQ(value(m, Cost::wakeup_ipi), 3665);
    EXPECT_TRUE(m.notes.empty());
}

TEST(MeasuredCosts, TheFivePartsAddUpToTheMeasuredHandoff)
{
    HostFigures f = figures();
    f.pinned_process_round_trip_ns = 5123;
    const CostMapping m = map_host_figures(f, CostModel{}, {});
    const double sum = 2 * value(m, Cost::syscall) + 2 * value(m, Cost::pipe_transfer) + value(m, Cost::wakeup_local) +
                       value(m, Cost::context_switch) + value(m, Cost::address_space_switch);
    EXPECT_NEAR(sum, 5123 / 2.0, 0.5);
}

TEST(MeasuredCosts, SourcesNameHostDateAndBenchmark)
{
    const CostMapping m = map_host_figures(figures(), CostModel{}, {});
    for (const MeasuredCost& c : m.costs)
        EXPECT_EQ(c.source.rfind("measured on box 2026-12-02 by ", 0), 0u) << c.source;
    EXPECT_NE(find(m, Cost::context_switch)->source.find("split from a sum"), std::string::npos);
    EXPECT_NE(find(m, Cost::syscall)->source.find("directly"), std::string::npos);
}

TEST(MeasuredCosts, AThreadPairNotFasterKeepsTheCurrentAddressSpaceSwitch)
{
    HostFigures f = figures();
    f.pinned_thread_round_trip_ns = 4100;  // noise: threads slower than processes
    CostModel current;
    current.at(Cost::address_space_switch).value = 150;
    const CostMapping m = map_host_figures(f, current, {});
    EXPECT_FALSE(find(m, Cost::address_space_switch));
    ASSERT_EQ(m.notes.size(), 1u);
    EXPECT_NE(m.notes[0].find("address_space_switch not measured"), std::string::npos);
    // The remainder is taken against the value the file keeps: 2000 - 200 - 500 - 150 = 1150.
    EXPECT_EQ(value(m, Cost::wakeup_local) + value(m, Cost::context_switch), 1150);
}

TEST(MeasuredCosts, AWakeupWithoutIpisIsNotTakenForWakeupIpi)
{
    HostFigures f = figures();
    f.pairs[0].ipis_per_round_trip = 0.05;  // the idle CPU polled
    const CostMapping m = map_host_figures(f, CostModel{}, {});
    EXPECT_FALSE(find(m, Cost::wakeup_ipi));
    EXPECT_TRUE(find(m, Cost::remote_rq_access));
    ASSERT_FALSE(m.notes.empty());
    EXPECT_NE(m.notes.back().find("needed no IPI"), std::string::npos);
}

TEST(MeasuredCosts, TheExitLatencyOfTheStateTheGapAllowsIsTakenOut)
{
    // A 5 us handoff fits C1 (residency 2 us) but not C6 (residency 100 us).
    const std::vector<IdleState> states{{"C1", 1000, 2000, false}, {"C6", 50000, 100000, false}};
    const CostMapping m = map_host_figures(figures(), CostModel{}, states);
    EXPECT_EQ(value(m, Cost::wakeup_ipi), 3665 - 1000);
    EXPECT_NE(find(m, Cost::wakeup_ipi)->source.find("exit latency of C1"), std::string::npos);
}

TEST(MeasuredCosts, SmtSiblingsAloneGiveNoCrossCpuParameters)
{
    HostFigures f = figures();
    f.pairs[0].distance = Distance::Smt;
    const CostMapping m = map_host_figures(f, CostModel{}, {});
    EXPECT_FALSE(find(m, Cost::wakeup_ipi));
    EXPECT_FALSE(find(m, Cost::remote_rq_access));
    EXPECT_EQ(typical_pair(f), nullptr);
}

TEST(MeasuredCosts, TheTypicalPairIsTheClosestNonSiblingOfTheNode)
{
    HostFigures f = figures();
    f.pairs.clear();
    for (Distance d : {Distance::Smt, Distance::Llc, Distance::OtherLlc, Distance::OtherNode}) {
        PairFigures p;
        p.distance = d;
        f.pairs.push_back(p);
    }
    ASSERT_NE(typical_pair(f), nullptr);
    EXPECT_EQ(typical_pair(f)->distance, Distance::Llc);
    f.pairs.erase(f.pairs.begin() + 1);
    EXPECT_EQ(typical_pair(f)->distance, Distance::OtherLlc);
}

}  // namespace
}  // namespace wb::host

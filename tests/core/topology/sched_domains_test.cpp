// SPDX-License-Identifier: Apache-2.0
//
// The sched domains of small machines whose kernel result is known by hand
// (wakeup-path.md §9, kernel/sched/topology.c). Shipped machines are checked
// in shipped_machines_test.cpp.
#include "topology/sched_domains.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "topology/machine.h"
#include "topology/synthetic.h"

namespace wb {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::Not;

std::vector<std::string> level_names(const SchedDomains& d, CpuId cpu)
{
    std::vector<std::string> names;
    for (int id : d.domains_of(cpu))
        names.push_back(d.domain(id).name);
    return names;
}

const SchedDomain& level(const SchedDomains& d, CpuId cpu, std::size_t i)
{
    return d.domain(d.domains_of(cpu).at(i));
}

std::vector<std::string> group_spans(const SchedDomains& d, CpuId cpu, std::size_t i)
{
    std::vector<std::string> spans;
    for (int g : level(d, cpu, i).groups)
        spans.push_back(d.group(g).span.to_cpulist());
    return spans;
}

std::vector<std::string_view> flags(const SchedDomains& d, CpuId cpu, std::size_t i)
{
    return sd_flag_names(level(d, cpu, i).flags);
}

TEST(SchedDomains, TeachingMachineHasSmtMcPkg)
{
    // 2 LLCs x 2 cores x SMT-2. CLS equals SMT (no clusters) and is dropped
    // as a degenerate parent; PKG spans everything and ends the walk.
    SchedDomains d = SchedDomains::build(parse_synthetic("llc=2,core=2,smt=2"));
    EXPECT_THAT(level_names(d, 5), ElementsAre("SMT", "MC", "PKG"));
    EXPECT_EQ(level(d, 5, 0).span.to_cpulist(), "4-5");
    EXPECT_EQ(level(d, 5, 1).span.to_cpulist(), "4-7");
    EXPECT_EQ(level(d, 5, 2).span.to_cpulist(), "0-7");
    // Levels keep the numbers they had before CLS was dropped.
    EXPECT_EQ(level(d, 5, 1).level, 2);

    EXPECT_EQ(level(d, 5, 0).imbalance_pct, 110);
    EXPECT_EQ(level(d, 5, 0).cache_nice_tries, 0);
    EXPECT_EQ(level(d, 5, 1).imbalance_pct, 117);
    EXPECT_EQ(level(d, 5, 1).cache_nice_tries, 1);
    EXPECT_EQ(level(d, 5, 2).cache_nice_tries, 1);
    EXPECT_EQ(level(d, 5, 2).min_interval, 8);
    EXPECT_EQ(level(d, 5, 2).max_interval, 16);
    EXPECT_EQ(level(d, 5, 2).busy_factor, 16);

    EXPECT_THAT(flags(d, 5, 0),
                ElementsAre("SD_BALANCE_NEWIDLE", "SD_BALANCE_EXEC", "SD_BALANCE_FORK", "SD_WAKE_AFFINE",
                            "SD_SHARE_CPUCAPACITY", "SD_SHARE_LLC", "SD_PREFER_SIBLING"));
    EXPECT_THAT(flags(d, 5, 2), Not(Contains("SD_SHARE_LLC")));

    EXPECT_THAT(group_spans(d, 5, 0), ElementsAre("4", "5"));
    EXPECT_THAT(group_spans(d, 5, 1), ElementsAre("4-5", "6-7"));
    EXPECT_THAT(group_spans(d, 5, 2), ElementsAre("0-3", "4-7"));
    EXPECT_EQ(d.group(d.group_of(d.domains_of(5)[2], 5)).span.to_cpulist(), "4-7");
    EXPECT_EQ(d.group(d.domain(d.domains_of(5)[2]).groups[0]).capacity, 4 * 1024);

    const CpuShortcuts& s = d.shortcuts(5);
    EXPECT_EQ(s.sd_llc, d.domains_of(5)[1]);
    EXPECT_EQ(s.sd_llc_size, 4);
    EXPECT_EQ(s.sd_llc_id, 4);
    EXPECT_EQ(s.sd_share_id, 4);  // no cluster: the LLC id
    EXPECT_EQ(s.sd_numa, -1);
    EXPECT_TRUE(d.sched_smt_active());
    EXPECT_FALSE(d.sched_cluster_active());
    EXPECT_FALSE(d.sched_asym_cpucapacity());
    EXPECT_TRUE(d.cpus_share_cache(4, 7));
    EXPECT_FALSE(d.cpus_share_cache(3, 4));
}

TEST(SchedDomains, MachineWithoutSmtStopsAtTheLevelThatSpansAll)
{
    // One LLC of 4 cores: SMT and CLS span one CPU and degenerate; MC spans
    // every CPU, so PKG is never built.
    SchedDomains d = SchedDomains::build(parse_synthetic("core=4"));
    EXPECT_THAT(level_names(d, 0), ElementsAre("MC"));
    EXPECT_EQ(level(d, 0, 0).level, 2);
    EXPECT_FALSE(d.sched_smt_active());
    EXPECT_EQ(d.shortcuts(3).sd_llc_size, 4);
}

TEST(SchedDomains, ClustersUnderOneLlcLikeAmpereAltra)
{
    SchedDomains d = SchedDomains::build(parse_synthetic("cluster=40,core=2"));
    EXPECT_THAT(level_names(d, 79), ElementsAre("CLS", "MC"));
    EXPECT_EQ(level(d, 79, 0).span.to_cpulist(), "78-79");
    EXPECT_EQ(level(d, 79, 1).span_weight, 80);
    EXPECT_THAT(flags(d, 79, 0), Contains("SD_CLUSTER"));
    EXPECT_EQ(level(d, 79, 1).groups.size(), 40u);
    EXPECT_EQ(d.shortcuts(79).sd_llc_size, 80);
    EXPECT_EQ(d.shortcuts(79).sd_llc_id, 0);
    EXPECT_EQ(d.shortcuts(79).sd_share_id, 78);
    EXPECT_TRUE(d.sched_cluster_active());
    EXPECT_TRUE(d.cpus_share_resources(78, 79));
    EXPECT_FALSE(d.cpus_share_resources(77, 78));
}

TEST(SchedDomains, TwoNodesGetANumaLevelAndImbalanceAllowance)
{
    // One LLC per node: PKG and NODE equal MC and degenerate.
    SchedDomains d = SchedDomains::build(parse_synthetic("node=2,core=8,smt=2,numbering=thread-major,distance=21"));
    EXPECT_THAT(level_names(d, 0), ElementsAre("SMT", "MC", "NUMA"));
    EXPECT_EQ(level(d, 0, 0).span.to_cpulist(), "0,16");
    EXPECT_EQ(level(d, 0, 1).span.to_cpulist(), "0-7,16-23");
    const SchedDomain& numa = level(d, 0, 2);
    EXPECT_EQ(numa.span_weight, 32);
    EXPECT_EQ(numa.cache_nice_tries, 2);
    EXPECT_EQ(numa.numa_distance, 21);
    EXPECT_THAT(flags(d, 0, 2), ElementsAre("SD_BALANCE_NEWIDLE", "SD_BALANCE_EXEC", "SD_BALANCE_FORK",
                                            "SD_WAKE_AFFINE", "SD_SERIALIZE", "SD_NUMA"));
    // imb_numa_nr comes from the first level above the LLC before PKG was
    // dropped: one LLC per node allows 12.5% of the node (16 >> 3).
    EXPECT_EQ(numa.imb_numa_nr, 2);
    EXPECT_EQ(d.shortcuts(0).sd_numa, d.domains_of(0)[2]);
    EXPECT_THAT(group_spans(d, 0, 2), ElementsAre("0-7,16-23", "8-15,24-31"));
}

TEST(SchedDomains, FarNodesLoseWakeAffineAndForkExecBalancing)
{
    SchedDomains d = SchedDomains::build(parse_synthetic("node=2,core=4,distance=40"));
    const SchedDomain& numa = level(d, 0, 1);
    EXPECT_EQ(numa.name, "NUMA");
    EXPECT_THAT(sd_flag_names(numa.flags), ElementsAre("SD_BALANCE_NEWIDLE", "SD_SERIALIZE", "SD_NUMA"));
}

TEST(SchedDomains, SeveralLlcsPerNodeKeepPkgAndCountLlcs)
{
    SchedDomains d = SchedDomains::build(parse_synthetic("node=2,llc=4,core=4,distance=32"));
    EXPECT_THAT(level_names(d, 0), ElementsAre("MC", "PKG", "NUMA"));
    EXPECT_EQ(level(d, 0, 1).imb_numa_nr, 4);  // 4 LLCs under PKG
    // Higher levels scale by their span over the first NUMA level's span: 32 / 32.
    EXPECT_EQ(level(d, 0, 2).imb_numa_nr, 4);
}

TEST(SchedDomains, NumaLadderBuildsOneLevelPerDistanceWithOverlappingGroups)
{
    // Four nodes in a line: distance 10 + 10 * hops.
    Machine m = parse_synthetic("node=4,core=2");
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
            m.node_distance[a][b] = 10 + 10 * std::abs(a - b);
    SchedDomains d = SchedDomains::build(m);
    // CPU 0 (node 0): MC = node, then NUMA at 20, 30 and 40.
    EXPECT_THAT(level_names(d, 0), ElementsAre("MC", "NUMA", "NUMA", "NUMA"));
    EXPECT_EQ(level(d, 0, 1).span.to_cpulist(), "0-3");
    EXPECT_EQ(level(d, 0, 2).span.to_cpulist(), "0-5");
    EXPECT_EQ(level(d, 0, 3).span.to_cpulist(), "0-7");
    EXPECT_THAT(flags(d, 0, 2), Contains("SD_WAKE_AFFINE"));       // 30 is not beyond node_reclaim_distance
    EXPECT_THAT(flags(d, 0, 3), Not(Contains("SD_WAKE_AFFINE")));  // 40 is
    // Node 2's view of distance 20 is {1,2,3}, which sticks out of node 0's
    // distance-30 span {0,1,2}: the kernel descends to node 2 alone.
    EXPECT_THAT(group_spans(d, 0, 2), ElementsAre("0-3", "4-5"));
    // CPU 4 (node 2) sees its own span at distance 20.
    EXPECT_EQ(level(d, 4, 1).span.to_cpulist(), "2-7");
}

TEST(SchedDomains, AsymmetricCapacityIsDetectedPerSpan)
{
    // Two clusters: the first holds capacities 100 and 200, the second 300.
    SchedDomains d = SchedDomains::build(parse_synthetic("cluster=2,core=4,capacity=100x2/200x2/300x4"));
    EXPECT_THAT(level_names(d, 0), ElementsAre("CLS", "MC"));
    EXPECT_THAT(flags(d, 0, 0), Contains("SD_ASYM_CPUCAPACITY"));
    EXPECT_THAT(flags(d, 0, 0), Not(Contains("SD_ASYM_CPUCAPACITY_FULL")));
    EXPECT_THAT(flags(d, 0, 1), Contains("SD_ASYM_CPUCAPACITY_FULL"));
    EXPECT_THAT(flags(d, 4, 0), Not(Contains("SD_ASYM_CPUCAPACITY")));
    // Below an asym level the child does not spread to its siblings.
    EXPECT_THAT(flags(d, 4, 0), Not(Contains("SD_PREFER_SIBLING")));
    EXPECT_EQ(d.shortcuts(0).sd_asym_cpucapacity, d.domains_of(0)[1]);
    EXPECT_EQ(d.shortcuts(0).sd_balance_shared, d.domains_of(0)[1]);
    EXPECT_TRUE(d.sched_asym_cpucapacity());
    const SchedGroup& g = d.group(d.domain(d.domains_of(0)[1]).groups[0]);
    EXPECT_EQ(g.min_capacity, 100);
    EXPECT_EQ(g.max_capacity, 200);
    EXPECT_EQ(g.capacity, 600);
}

TEST(SchedDomains, X86ItmtPutsAsymPackingAboveSmtOnly)
{
    SchedDomains d = SchedDomains::build(parse_synthetic("arch=x86,asym_packing=1,core=4,smt=2"));
    EXPECT_THAT(level_names(d, 0), ElementsAre("SMT", "MC"));
    EXPECT_THAT(flags(d, 0, 0), Not(Contains("SD_ASYM_PACKING")));
    EXPECT_THAT(flags(d, 0, 1), Contains("SD_ASYM_PACKING"));
    EXPECT_EQ(d.shortcuts(0).sd_asym_packing, d.domains_of(0)[1]);
}

TEST(SchedDomains, PowerPcAsymSmtAndCacheLevel)
{
    SchedDomains d = SchedDomains::build(parse_synthetic("arch=powerpc,asym_packing=1,llc=2,core=2,smt=4"));
    EXPECT_THAT(level_names(d, 0), ElementsAre("SMT", "CACHE", "MC"));
    EXPECT_THAT(flags(d, 0, 0), Contains("SD_ASYM_PACKING"));
    EXPECT_EQ(d.shortcuts(0).sd_asym_packing, d.domains_of(0)[0]);
    EXPECT_EQ(d.shortcuts(0).sd_llc_size, 8);
}

TEST(SchedDomains, RelaxDomainLevelTurnsOffNewidleBalancingFromThatLevelUp)
{
    DomainOptions opt;
    opt.relax_domain_level = 2;
    SchedDomains d = SchedDomains::build(parse_synthetic("llc=2,core=2,smt=2"), opt);
    EXPECT_THAT(flags(d, 0, 0), Contains("SD_BALANCE_NEWIDLE"));       // SMT, level 0
    EXPECT_THAT(flags(d, 0, 1), Not(Contains("SD_BALANCE_NEWIDLE")));  // MC, level 2
}

TEST(SchedDomains, SingleCpuMachineHasNoDomains)
{
    SchedDomains d = SchedDomains::build(parse_synthetic("core=1"));
    EXPECT_TRUE(d.domains_of(0).empty());
    EXPECT_EQ(d.shortcuts(0).sd_llc_size, 1);
    EXPECT_EQ(d.shortcuts(0).sd_llc_id, 0);
}

TEST(SchedDomains, HighestFlagDomainStopsAtAMissingSharedChildFlag)
{
    SchedDomains d = SchedDomains::build(parse_synthetic("llc=2,core=2,smt=2"));
    EXPECT_EQ(d.highest_flag_domain(0, SD_SHARE_LLC), d.domains_of(0)[1]);
    EXPECT_EQ(d.highest_flag_domain(0, SD_SHARE_CPUCAPACITY), d.domains_of(0)[0]);
    EXPECT_EQ(d.lowest_flag_domain(0, SD_NUMA), -1);
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "topology/synthetic.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "io/input_error.h"

namespace wb {
namespace {

using ::testing::HasSubstr;

std::string error_of(std::string_view spec)
{
    try {
        parse_synthetic(spec);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

TEST(Synthetic, CountsArePerParent)
{
    Machine m = parse_synthetic("synthetic:node=2,llc=4,core=8,smt=2");
    EXPECT_EQ(m.nr_cpus(), 128);
    EXPECT_EQ(m.nr_nodes(), 2);
    EXPECT_EQ(m.nr_llcs(), 8);
    EXPECT_EQ(m.nr_cores(), 64);
    // core-major by default: siblings adjacent.
    EXPECT_EQ(m.smt_mask(0).to_cpulist(), "0-1");
    EXPECT_EQ(m.llc_mask(17).to_cpulist(), "16-31");
    EXPECT_EQ(m.node_mask(1).to_cpulist(), "64-127");
    EXPECT_EQ(m.node_distance[0][1], 20);
}

TEST(Synthetic, ThreadMajorNumberingPutsSiblingsHalfAMachineApart)
{
    Machine m = parse_synthetic("node=2,core=4,smt=2,numbering=thread-major");
    EXPECT_EQ(m.smt_mask(0).to_cpulist(), "0,8");
    EXPECT_EQ(m.node_mask(0).to_cpulist(), "0-3,8-11");
    EXPECT_EQ(m.cpus[8].thread, 1);
}

TEST(Synthetic, ClustersCapacitiesAndSpeeds)
{
    Machine m = parse_synthetic("cluster=2,core=4,capacity=446x4/1024x4,smt=2,smt_speed=1/0.9");
    EXPECT_EQ(m.nr_clusters(), 2);
    EXPECT_EQ(m.cluster_mask(9).to_cpulist(), "8-15");
    EXPECT_EQ(m.cpus[6].capacity, 446);
    EXPECT_EQ(m.cpus[8].capacity, 1024);
    EXPECT_DOUBLE_EQ(m.cpus[1].speed, 0.9);
    EXPECT_DOUBLE_EQ(m.cpus[2].speed, 1.0);
}

TEST(Synthetic, ErrorsNameTheItemAndColumn)
{
    EXPECT_THAT(error_of("synthetic:node=2,llc=x"),
                HasSubstr("synthetic spec:1:18: llc=x: expected a whole number from 1 to 4096"));
    EXPECT_THAT(error_of("synthetic:nodes=2"), HasSubstr("unknown key 'nodes'; expected node, pkg"));
    EXPECT_THAT(error_of("synthetic:core=4,capacity=512x3"),
                HasSubstr("capacity gives 3 values; expected one per core (4)"));
    EXPECT_THAT(error_of("synthetic:llc=64,core=64,smt=2"),
                HasSubstr("this spec makes 8192 CPUs; a machine has at most 4096"));
    EXPECT_THAT(error_of("synthetic:core=4,capacity=2000x4"), HasSubstr("expected a whole capacity from 1 to 1024"));
    EXPECT_THAT(error_of("synthetic:core=4,core=2"), HasSubstr("core is given twice"));
    EXPECT_THAT(error_of("synthetic:"), HasSubstr("expected key=value items"));
}

TEST(Synthetic, ListValuesAreCheckedAsWrittenAtTheirOwnColumn)
{
    // A capacity is a whole number: 512.7 used to be truncated to 512.
    EXPECT_THAT(error_of("synthetic:core=4,capacity=1024x3/512.7"),
                HasSubstr("synthetic spec:1:34: capacity value '512.7': expected a whole capacity from 1 to 1024"));
    // 1e300 used to be cast to an int (-2147483648).
    EXPECT_THAT(error_of("core=2,smt=2,asym_prio=1e300/1"),
                HasSubstr("synthetic spec:1:24: asym_prio value '1e300': expected a whole priority"));
    // Out-of-range values used to surface from validate(), once per CPU, with
    // no column and "found -2147483648".
    for (const char* bad : {"1e308", "nan", "inf", "0", "-1"}) {
        const std::string e = error_of(std::string("core=4,smt=2,smt_speed=1/") + bad);
        EXPECT_THAT(e, HasSubstr(std::string("synthetic spec:1:26: smt_speed value '") + bad +
                                 "': expected a relative speed above 0 and at most 16"));
        EXPECT_EQ(e.find('\n'), std::string::npos) << e;
        EXPECT_EQ(e.find("-2147483648"), std::string::npos) << e;
    }
    for (const char* bad : {"1e308", "nan", "inf", "2000"})
        EXPECT_THAT(error_of(std::string("core=4,capacity=") + bad + "x4"),
                    HasSubstr(std::string("synthetic spec:1:17: capacity value '") + bad + "'"));
    EXPECT_THAT(error_of("core=4,capacity=512x0"),
                HasSubstr("synthetic spec:1:21: capacity repeat count '0': expected a whole number from 1 to 4096"));
}

TEST(Synthetic, AListLongerThanAMachineIsRefusedBeforeItIsStored)
{
    // 126 KB of "1x4096/" used to allocate 1 GB of values before the count
    // was compared with the cores.
    std::string spec = "core=4,capacity=1x4096";
    for (int i = 0; i < 18000; ++i)
        spec += "/1x4096";
    EXPECT_THAT(error_of(spec),
                HasSubstr("synthetic spec:1:24: capacity gives more than 4096 values; expected one per core"));
    EXPECT_THAT(error_of("core=2,smt=2,smt_speed=1x8/1"),
                HasSubstr("synthetic spec:1:28: smt_speed gives more than 8 values; expected one per SMT thread"));
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "topology/distance.h"

#include <gtest/gtest.h>

#include "topology/synthetic.h"

namespace wb {
namespace {

TEST(Distance, ClassesFromSameCpuToOtherNode)
{
    // 2 nodes x 2 LLCs x 2 clusters x 2 cores x SMT-2 = 32 CPUs, core-major.
    const Machine m = parse_synthetic("node=2,llc=2,cluster=2,core=2,smt=2");
    EXPECT_EQ(distance_class(m, 0, 0), DistanceClass::SameCpu);
    EXPECT_EQ(distance_class(m, 0, 1), DistanceClass::SmtSibling);
    EXPECT_EQ(distance_class(m, 0, 2), DistanceClass::Cluster);
    EXPECT_EQ(distance_class(m, 0, 4), DistanceClass::Llc);
    EXPECT_EQ(distance_class(m, 0, 8), DistanceClass::OtherLlc);
    EXPECT_EQ(distance_class(m, 0, 16), DistanceClass::OtherNode);
    EXPECT_EQ(distance_class_name(DistanceClass::OtherLlc), "other_llc");
}

TEST(Distance, SingleCoreClustersAreNoCluster)
{
    const Machine m = parse_synthetic("core=4");
    EXPECT_EQ(distance_class(m, 0, 1), DistanceClass::Llc);
}

}  // namespace
}  // namespace wb

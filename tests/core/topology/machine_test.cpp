// SPDX-License-Identifier: Apache-2.0
#include "topology/machine.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "io/topology_json.h"
#include "topology/synthetic.h"

namespace wb {
namespace {

using ::testing::HasSubstr;

std::string problems_of(const Machine& m)
{
    std::string out;
    for (const TopologyProblem& p : validate(m))
        out += "cpu " + std::to_string(p.cpu) + " " + p.field + ": " + p.message + "\n";
    return out;
}

TEST(Machine, ValidateReportsEveryProblemWithItsField)
{
    Machine m = parse_synthetic("node=2,core=2,smt=2");
    m.cpus[1].capacity = 0;
    m.cpus[2].speed = -1;
    m.cpus[3].cluster = 0;  // core 1 now straddles clusters 0 and 1
    m.node_distance[0][1] = 25;
    const std::string p = problems_of(m);
    EXPECT_THAT(p, HasSubstr("cpu 1 capacity: expected a capacity from 1 to 1024, found 0"));
    EXPECT_THAT(p, HasSubstr("cpu 2 speed: expected a relative speed above 0"));
    EXPECT_THAT(p, HasSubstr("core 1 has CPU 2 in cluster 1 and CPU 3 in cluster 0"));
    EXPECT_THAT(p, HasSubstr("node_distance/0/1: expected a symmetric matrix"));
}

TEST(Machine, ValidateChecksIdsNodesAndTheCpuLimit)
{
    Machine m = parse_synthetic("core=4");
    m.cpus[2].cpu = 7;
    m.cpus[3].node = 3;
    const std::string p = problems_of(m);
    EXPECT_THAT(p, HasSubstr("expected CPU id 2 at this position, found 7"));
    EXPECT_THAT(p, HasSubstr("node 3 has no row in node_distance"));

    Machine big = parse_synthetic("core=4");
    big.cpus.resize(kMaxCpus + 1);
    EXPECT_THAT(problems_of(big), HasSubstr("a machine has at most 4096 CPUs, this one has 4097"));
}

TEST(Machine, RenumbersContainersDepthFirstSoAnInterleavedMachineCanBeSaved)
{
    // Firmware that hands out CPU ids alternating between sockets: an
    // importer numbering by first appearance gives node 0 cores 0, 2, 4 ...
    Machine m = parse_synthetic("node=2,core=4");
    m.node_distance = {{10, 21}, {21, 10}};
    for (CpuTopo& c : m.cpus) {
        c.node = c.package = c.llc = c.cpu % 2;
        c.cluster = c.core = c.cpu;
    }
    ASSERT_EQ(problems_of(m), "");
    number_containers_depth_first(m);
    EXPECT_EQ(m.cpus[2].core, 1);  // node 0's second core
    EXPECT_EQ(m.cpus[1].core, 4);  // node 1's first core
    EXPECT_EQ(m.node_mask(1).to_cpulist(), "1,3,5,7");
    EXPECT_EQ(m.node_distance[0][1], 21);
    const Machine back = parse_machine_json(machine_to_json(m), "round trip");
    EXPECT_EQ(back, m);
}

TEST(Machine, RenumberingFollowsTheNodesAndKeepsTheirDistances)
{
    // Packages numbered against their nodes' order: node 0 holds package 2.
    Machine m = parse_synthetic("node=3,core=1");
    m.node_distance = {{10, 20, 30}, {20, 10, 25}, {30, 25, 10}};
    m.cpus[0].package = 2;
    m.cpus[2].package = 0;
    number_containers_depth_first(m);
    EXPECT_EQ(m.cpus[0].package, 0);
    EXPECT_EQ(m.cpus[2].package, 2);
    EXPECT_EQ(m.node_distance[0][2], 30);
    EXPECT_EQ(m.node_distance[1][2], 25);
}

}  // namespace
}  // namespace wb

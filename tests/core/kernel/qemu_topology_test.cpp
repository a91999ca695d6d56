// SPDX-License-Identifier: Apache-2.0
#include "kernel/qemu_topology.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "topology/synthetic.h"

namespace wb {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

QemuFit fit(std::string_view spec)
{
    return fit_qemu_topology(parse_synthetic(spec));
}

TEST(QemuTopology, OneLlcOfFourCoresIsOneSocketWithoutNuma)
{
    const QemuFit f = fit("node=1,llc=1,core=4,smt=1");
    ASSERT_TRUE(f.fits()) << f.refusals.front();
    EXPECT_EQ(f.topology.smp(), "sockets=1,dies=1,cores=4,threads=1");
    EXPECT_EQ(f.topology.cpus(), 4);
    EXPECT_EQ(f.topology.nodes(), 0);
}

TEST(QemuTopology, SmtSiblingsAreThreads)
{
    const QemuFit f = fit("node=1,llc=1,core=4,smt=2");
    ASSERT_TRUE(f.fits());
    EXPECT_EQ(f.topology.smp(), "sockets=1,dies=1,cores=4,threads=2");
}

TEST(QemuTopology, EachNodeGetsItsSocketsAndTheDistances)
{
    const QemuFit f = fit("node=2,llc=1,core=2,smt=2,distance=21");
    ASSERT_TRUE(f.fits());
    EXPECT_EQ(f.topology.smp(), "sockets=2,dies=1,cores=2,threads=2");
    EXPECT_THAT(f.topology.node_sockets, ElementsAre(ElementsAre(0), ElementsAre(1)));
    EXPECT_EQ(f.topology.distance[0][1], 21);
    EXPECT_EQ(f.topology.distance[1][1], 10);
}

TEST(QemuTopology, SeveralLlcsOfAPackageAreDies)
{
    const QemuFit f = fit("node=1,llc=2,core=4,smt=2");
    ASSERT_TRUE(f.fits());
    EXPECT_EQ(f.topology.smp(), "sockets=1,dies=2,cores=4,threads=2");
}

TEST(QemuTopology, SeveralPackagesOfANodeAreItsSockets)
{
    const QemuFit f = fit("node=2,pkg=2,core=2");
    ASSERT_TRUE(f.fits());
    EXPECT_EQ(f.topology.sockets, 4);
    EXPECT_THAT(f.topology.node_sockets, ElementsAre(ElementsAre(0, 1), ElementsAre(2, 3)));
}

TEST(QemuTopology, RefusesAsymmetricCapacity)
{
    const QemuFit f = fit("core=4,capacity=446x2/1024x2");
    ASSERT_FALSE(f.fits());
    EXPECT_THAT(f.refusals.front(), HasSubstr("asymmetric CPU capacity (446 and 1024)"));
}

TEST(QemuTopology, RefusesClustersOfSeveralCores)
{
    const QemuFit f = fit("llc=1,cluster=2,core=2");
    ASSERT_FALSE(f.fits());
    EXPECT_THAT(f.refusals.front(), HasSubstr("clusters of 2 cores"));
    EXPECT_THAT(f.refusals.front(), HasSubstr("no CLS domain"));
}

TEST(QemuTopology, RefusesSmt8OnX86)
{
    const QemuFit f = fit("core=2,smt=8");
    ASSERT_FALSE(f.fits());
    EXPECT_THAT(f.refusals.front(), HasSubstr("SMT-8"));
}

TEST(QemuTopology, RefusesAsymPacking)
{
    const QemuFit f = fit("core=4,smt=2,arch=x86,asym_packing=1");
    ASSERT_FALSE(f.fits());
    EXPECT_THAT(f.refusals.front(), HasSubstr("SD_ASYM_PACKING"));
}

TEST(QemuTopology, CoreMajorMachinesKeepTheirNumbers)
{
    const QemuFit f = fit("node=2,core=2,smt=2");
    EXPECT_FALSE(f.topology.renumbered());
    EXPECT_EQ(qemu_numbering(f.topology), "");
}

TEST(QemuTopology, AThreadMajorMachineIsBootedNumberedAsQemuNumbers)
{
    // Thread-major: CPU 4 is CPU 0's sibling; QEMU numbers siblings adjacent.
    const Machine m = parse_synthetic("core=4,smt=2,numbering=thread-major");
    const QemuFit f = fit_qemu_topology(m);
    ASSERT_TRUE(f.fits());
    EXPECT_TRUE(f.topology.renumbered());
    EXPECT_EQ(qemu_numbering(f.topology), "0->0 1->2 2->4 3->6 4->1 5->3 6->5 7->7");
    const Machine guest = numbered_as_qemu(m, f.topology);
    EXPECT_EQ(guest.smt_mask(0).to_cpulist(), "0-1");
    EXPECT_EQ(guest.smt_mask(6).to_cpulist(), "6-7");
    EXPECT_TRUE(validate(guest).empty());
}

TEST(QemuTopology, RefusesMoreVcpusThanTheMachineTypeTakes)
{
    const QemuFit f = fit("node=2,core=128,smt=2");
    ASSERT_FALSE(f.fits());
    EXPECT_THAT(f.refusals.front(), HasSubstr("512 CPUs"));
}

TEST(QemuTopology, ListsEveryReason)
{
    const QemuFit f = fit("llc=1,cluster=2,core=2,capacity=446x2/1024x2");
    EXPECT_EQ(f.refusals.size(), 2u);
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "io/sysfs_import.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include <unistd.h>

namespace wb {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::Contains;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

const std::string kData = WB_TEST_DATA;

std::string fixture(const std::string& name)
{
    return kData + "/sysfs/" + name;
}

CpuMask cpus(int nr, std::initializer_list<CpuId> ids)
{
    return CpuMask::of(nr, ids);
}

CpuMask list(int nr, const char* text)
{
    return parse_cpulist(text, nr).mask;
}

InputError import_error(const std::string& root)
{
    try {
        import_sysfs(root);
    } catch (const InputError& e) {
        return e;
    }
    ADD_FAILURE() << "import_sysfs(" << root << ") did not throw";
    return InputError(Diagnostic{});
}

// A sysfs tree written by the test itself, for rules no shipped fixture shows.
class TempTree {
public:
    explicit TempTree(const std::string& name)
        : root_(fs::temp_directory_path() / ("wb_sysfs_" + name + "_" + std::to_string(::getpid())))
    {
        fs::remove_all(root_);
    }
    ~TempTree() { fs::remove_all(root_); }
    TempTree(const TempTree&) = delete;
    TempTree& operator=(const TempTree&) = delete;

    void put(const std::string& rel, const std::string& text)
    {
        fs::path p = root_ / rel;
        fs::create_directories(p.parent_path());
        std::ofstream(p) << text << '\n';
    }
    // One CPU without SMT: package, siblings, cluster and LLC as given.
    void cpu(int n, int package, const std::string& cluster, const std::string& llc)
    {
        std::string t = "sys/devices/system/cpu/cpu" + std::to_string(n);
        put(t + "/topology/physical_package_id", std::to_string(package));
        put(t + "/topology/core_cpus_list", std::to_string(n));
        put(t + "/topology/cluster_cpus_list", cluster);
        put(t + "/cache/index0/level", "3");
        put(t + "/cache/index0/type", "Unified");
        put(t + "/cache/index0/shared_cpu_list", llc);
    }
    std::string root() const { return root_.string(); }

private:
    fs::path root_;
};

TEST(SysfsImport, TwoSocketX86WithThreadMajorSmt)
{
    ImportResult r = import_sysfs(fixture("x86-2s-smt"));
    const Machine& m = r.machine;

    ASSERT_EQ(m.nr_cpus(), 32);
    EXPECT_THAT(validate(m), IsEmpty());
    EXPECT_EQ(m.arch, Arch::X86);
    EXPECT_EQ(m.numbering, CpuNumbering::ThreadMajor);
    EXPECT_EQ(m.name, "imported-xeon-2s");
    EXPECT_EQ(m.source, "sysfs import of " + fixture("x86-2s-smt"));

    EXPECT_EQ(m.smt_mask(0), cpus(32, {0, 16}));
    EXPECT_EQ(m.smt_mask(25), cpus(32, {9, 25}));
    EXPECT_EQ(m.cpus[0].thread, 0);
    EXPECT_EQ(m.cpus[16].thread, 1);
    EXPECT_EQ(m.cluster_mask(3), cpus(32, {3, 19}));
    EXPECT_EQ(m.llc_mask(0), list(32, "0-7,16-23"));
    EXPECT_EQ(m.llc_mask(24), list(32, "8-15,24-31"));
    EXPECT_EQ(m.package_mask(8), list(32, "8-15,24-31"));
    EXPECT_EQ(m.node_mask(0), list(32, "0-7,16-23"));
    EXPECT_EQ(m.node_mask(1), list(32, "8-15,24-31"));
    EXPECT_EQ(m.node_distance, (std::vector<std::vector<int>>{{10, 21}, {21, 10}}));

    EXPECT_EQ(m.nr_packages(), 2);
    EXPECT_EQ(m.nr_llcs(), 2);
    EXPECT_EQ(m.nr_clusters(), 16);
    EXPECT_EQ(m.nr_cores(), 16);
    // Containers are numbered by first appearance in CPU order.
    EXPECT_EQ(m.cpus[8].core, 8);
    EXPECT_EQ(m.cpus[24].core, 8);
    EXPECT_EQ(m.cpus[8].package, 1);
    EXPECT_EQ(m.cpus[31].capacity, 1024);

    // A complete tree needs no fall-back; only the costs are left to the user.
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_THAT(r.warnings[0], HasSubstr("docs/costs.md"));
}

TEST(SysfsImport, ArmBigLittleReadsCapacitiesAndClusters)
{
    ImportResult r = import_sysfs(fixture("arm-biglittle"));
    const Machine& m = r.machine;

    ASSERT_EQ(m.nr_cpus(), 8);
    EXPECT_THAT(validate(m), IsEmpty());
    EXPECT_EQ(m.arch, Arch::Generic);
    EXPECT_EQ(m.name, "imported");
    EXPECT_FALSE(m.has_smt());
    for (CpuId c = 0; c < 4; ++c)
        EXPECT_EQ(m.cpus[c].capacity, 446) << "CPU " << c;
    for (CpuId c = 4; c < 8; ++c)
        EXPECT_EQ(m.cpus[c].capacity, 1024) << "CPU " << c;
    EXPECT_EQ(m.cluster_mask(1), list(8, "0-3"));
    EXPECT_EQ(m.cluster_mask(6), list(8, "4-7"));
    EXPECT_EQ(m.llc_mask(2), list(8, "0-7"));
    EXPECT_EQ(m.smt_mask(5), cpus(8, {5}));
    // core_id restarts in every device-tree cluster; the sibling lists keep the cores apart.
    EXPECT_EQ(m.nr_cores(), 8);
    EXPECT_EQ(m.nr_clusters(), 2);
    EXPECT_EQ(m.nr_packages(), 1);

    // No node directory: one node, and a warning naming the missing path.
    EXPECT_EQ(m.node_distance, (std::vector<std::vector<int>>{{10}}));
    EXPECT_THAT(r.warnings, Contains(AllOf(HasSubstr(fixture("arm-biglittle") + "/sys/devices/system/node"),
                                           HasSubstr("one NUMA node"))));
    EXPECT_EQ(r.warnings.size(), 2u);  // node and costs
}

TEST(SysfsImport, BareOldTreeTakesEveryFallBackWithAWarning)
{
    const std::string root = fixture("old-kernel-minimal");
    ImportResult r = import_sysfs(root);
    const Machine& m = r.machine;

    ASSERT_EQ(m.nr_cpus(), 4);  // kernel_max and cpuidle/ are not CPUs
    EXPECT_THAT(validate(m), IsEmpty());
    EXPECT_EQ(m.numbering, CpuNumbering::CoreMajor);
    EXPECT_EQ(m.smt_mask(1), cpus(4, {0, 1}));
    EXPECT_EQ(m.cpus[3].thread, 1);
    EXPECT_EQ(m.cluster_mask(2), cpus(4, {2, 3}));
    EXPECT_EQ(m.llc_mask(0), list(4, "0-3"));
    EXPECT_EQ(m.nr_nodes(), 1);
    EXPECT_EQ(m.arch, Arch::Generic);

    const std::string cpu = root + "/sys/devices/system/cpu";
    EXPECT_THAT(r.warnings, Contains(AllOf(HasSubstr(cpu + "/online"), HasSubstr("every cpuN directory"))));
    EXPECT_THAT(r.warnings, Contains(AllOf(HasSubstr(cpu + "/cpu0/topology/cluster_cpus_list"),
                                           HasSubstr("each core is its own cluster"))));
    EXPECT_THAT(r.warnings, Contains(AllOf(HasSubstr(cpu + "/cpu0/cache"), HasSubstr("each package is one LLC"))));
    EXPECT_THAT(r.warnings, Contains(HasSubstr(root + "/sys/devices/system/node")));
    EXPECT_THAT(r.warnings, Contains(AllOf(HasSubstr(root + "/proc/cpuinfo"), HasSubstr("generic"))));
}

TEST(SysfsImport, OfflineCpusAreLeftOutAndTheRestRenumbered)
{
    ImportResult r = import_sysfs(fixture("x86-offline"));
    const Machine& m = r.machine;

    ASSERT_EQ(m.nr_cpus(), 4);
    EXPECT_THAT(validate(m), IsEmpty());
    EXPECT_EQ(m.arch, Arch::X86);
    EXPECT_EQ(m.smt_mask(2), cpus(4, {2, 3}));  // kernel CPUs 4 and 5
    EXPECT_EQ(m.nr_cores(), 2);
    EXPECT_EQ(m.llc_mask(0), list(4, "0-3"));
    EXPECT_THAT(r.warnings,
                Contains(AllOf(HasSubstr("Only CPUs 0-1,4-5 are online"), HasSubstr("kernel CPU 4 is CPU 2"))));
}

TEST(SysfsImport, UnparsableSiblingListNamesFileAndColumn)
{
    InputError e = import_error(fixture("broken-siblings"));
    ASSERT_EQ(e.diagnostics().size(), 1u);
    const Diagnostic& d = e.diagnostics()[0];
    EXPECT_EQ(d.file, fixture("broken-siblings") + "/sys/devices/system/cpu/cpu1/topology/thread_siblings_list");
    EXPECT_EQ(d.line, 1);
    EXPECT_EQ(d.column, 2);
    EXPECT_THAT(d.message, HasSubstr("expected ',' or the end of the list, found ';'"));
    EXPECT_THAT(d.message, HasSubstr("\"0;1\""));
    EXPECT_THAT(e.what(), HasSubstr("cpu1/topology/thread_siblings_list:1:2: "));
}

TEST(SysfsImport, CoreSplitAcrossLlcsIsRejected)
{
    InputError e = import_error(fixture("split-core"));
    ASSERT_EQ(e.diagnostics().size(), 1u);
    const Diagnostic& d = e.diagnostics()[0];
    EXPECT_EQ(d.file, fixture("split-core") + "/sys/devices/system/cpu/cpu1/cache/index0/shared_cpu_list");
    EXPECT_THAT(d.message, HasSubstr("CPU 1 shares a core with CPU 0"));
    EXPECT_THAT(d.message, HasSubstr("cpu0/cache/index0/shared_cpu_list"));
    EXPECT_THAT(d.message, HasSubstr("expected each core inside one LLC"));
}

TEST(SysfsImport, TreeWithoutCpuDirectoriesIsRejected)
{
    TempTree t("nocpus");
    t.put("sys/devices/system/cpu/online", "0-3");
    InputError e = import_error(t.root());
    ASSERT_EQ(e.diagnostics().size(), 1u);
    EXPECT_THAT(e.diagnostics()[0].file, EndsWith("sys/devices/system/cpu"));
    EXPECT_THAT(e.diagnostics()[0].message, HasSubstr("expected cpu0, cpu1 ... directories"));

    InputError missing = import_error(kData + "/no-such-root");
    EXPECT_THAT(missing.what(), HasSubstr("no-such-root/sys/devices/system/cpu: expected the kernel's CPU directory"));
}

TEST(SysfsImport, MasksThatDisagreeNameTheFileOfTheOddCpu)
{
    TempTree t("disagree");
    t.cpu(0, 0, "0-1", "0-1");
    t.cpu(1, 0, "1", "0-1");  // cpu0 says 0-1 share a cluster, cpu1 says it is alone
    InputError e = import_error(t.root());
    ASSERT_EQ(e.diagnostics().size(), 1u);
    EXPECT_THAT(e.diagnostics()[0].file, EndsWith("cpu1/topology/cluster_cpus_list"));
    EXPECT_THAT(e.diagnostics()[0].message, HasSubstr("expected every CPU of a cluster to list the same CPUs"));
}

TEST(SysfsImport, DistanceColumnsFollowTheOnlineNodesNotTheirIds)
{
    TempTree t("nodes02");
    t.cpu(0, 0, "0", "0");
    t.cpu(1, 1, "1", "1");
    t.put("sys/devices/system/node/online", "0,2");
    t.put("sys/devices/system/node/node0/cpulist", "0");
    t.put("sys/devices/system/node/node0/distance", "10 32");
    t.put("sys/devices/system/node/node2/cpulist", "1");
    t.put("sys/devices/system/node/node2/distance", "32 10");
    ImportResult r = import_sysfs(t.root());
    EXPECT_EQ(r.machine.node_distance, (std::vector<std::vector<int>>{{10, 32}, {32, 10}}));
    EXPECT_EQ(r.machine.cpus[1].node, 1);
}

TEST(SysfsImport, AsymmetricOrBadDistancesAreRejectedWithTheirColumn)
{
    TempTree t("baddist");
    t.cpu(0, 0, "0", "0");
    t.cpu(1, 1, "1", "1");
    t.put("sys/devices/system/node/node0/cpulist", "0");
    t.put("sys/devices/system/node/node0/distance", "10 20");
    t.put("sys/devices/system/node/node1/cpulist", "1");
    t.put("sys/devices/system/node/node1/distance", "21 10");
    InputError e = import_error(t.root());
    ASSERT_EQ(e.diagnostics().size(), 1u);
    EXPECT_THAT(e.diagnostics()[0].file, EndsWith("node/node1/distance"));
    EXPECT_THAT(e.diagnostics()[0].message, HasSubstr("expected a symmetric distance table"));

    t.put("sys/devices/system/node/node1/distance", "20 x");
    InputError bad = import_error(t.root());
    ASSERT_EQ(bad.diagnostics().size(), 1u);
    EXPECT_EQ(bad.diagnostics()[0].column, 4);
    EXPECT_THAT(bad.diagnostics()[0].message, HasSubstr("expected a node distance (an integer), found \"x\""));
}

TEST(SysfsImport, PackageSpanningTwoNodesIsSplitPerNode)
{
    // Sub-NUMA clustering: one socket, one L3 in sysfs, two nodes.
    TempTree t("snc");
    for (int n = 0; n < 4; ++n)
        t.cpu(n, 0, std::to_string(n), "0-3");
    t.put("sys/devices/system/node/node0/cpulist", "0-1");
    t.put("sys/devices/system/node/node0/distance", "10 12");
    t.put("sys/devices/system/node/node1/cpulist", "2-3");
    t.put("sys/devices/system/node/node1/distance", "12 10");
    ImportResult r = import_sysfs(t.root());
    EXPECT_THAT(validate(r.machine), IsEmpty());
    EXPECT_EQ(r.machine.nr_packages(), 2);
    EXPECT_EQ(r.machine.llc_mask(3), list(4, "2-3"));
    EXPECT_THAT(r.warnings,
                Contains(AllOf(HasSubstr("package 0 ("), HasSubstr("spans node 0 and node 1"), HasSubstr("sub-NUMA"))));
    EXPECT_THAT(r.warnings, Contains(HasSubstr("the LLC of CPUs 0-3 (")));
}

TEST(SysfsImport, ClusterCoveringItsLlcFallsBackToTheCore)
{
    // cpu_clustergroup_mask(): a cluster no smaller than the LLC is the SMT mask.
    TempTree t("bigcluster");
    t.cpu(0, 0, "0-3", "0-1");
    t.cpu(1, 0, "0-3", "0-1");
    t.cpu(2, 0, "0-3", "2-3");
    t.cpu(3, 0, "0-3", "2-3");
    ImportResult r = import_sysfs(t.root());
    EXPECT_THAT(validate(r.machine), IsEmpty());
    EXPECT_EQ(r.machine.cluster_mask(0), cpus(4, {0}));
    EXPECT_EQ(r.machine.nr_clusters(), 4);
}

TEST(SysfsImport, CapacityOutOfRangeIsRejected)
{
    TempTree t("capacity");
    t.cpu(0, 0, "0", "0");
    t.put("sys/devices/system/cpu/cpu0/cpu_capacity", "2048");
    InputError e = import_error(t.root());
    ASSERT_EQ(e.diagnostics().size(), 1u);
    EXPECT_THAT(e.diagnostics()[0].file, EndsWith("cpu0/cpu_capacity"));
    EXPECT_THAT(e.diagnostics()[0].message, HasSubstr("expected a capacity from 1 to 1024, found 2048"));
}

TEST(SysfsImport, ProblemsInSeveralFilesAreReportedTogether)
{
    TempTree t("several");
    t.cpu(0, 0, "0", "0");
    t.cpu(1, 0, "1", "1");
    t.put("sys/devices/system/cpu/cpu0/topology/cluster_cpus_list", "0-");
    t.put("sys/devices/system/cpu/cpu1/cpu_capacity", "big");
    InputError e = import_error(t.root());
    ASSERT_EQ(e.diagnostics().size(), 2u);
    EXPECT_THAT(e.diagnostics()[0].file, EndsWith("cpu0/topology/cluster_cpus_list"));
    EXPECT_THAT(e.diagnostics()[0].message, HasSubstr("expected the last CPU of the range after '-'"));
    EXPECT_THAT(e.diagnostics()[1].file, EndsWith("cpu1/cpu_capacity"));
    EXPECT_THAT(e.diagnostics()[1].message, HasSubstr("expected an integer, found \"big\""));
}

TEST(SysfsImport, LiveMachineHasAsManyCpusAsTheLibraryReports)
{
    if (!fs::is_directory("/sys/devices/system/cpu"))
        GTEST_SKIP() << "no /sys/devices/system/cpu here";
    ImportResult r = import_sysfs("/");
    EXPECT_THAT(validate(r.machine), IsEmpty());
    EXPECT_EQ(r.machine.nr_cpus(), static_cast<int>(std::thread::hardware_concurrency()));
    EXPECT_EQ(import_sysfs("").machine, r.machine);
}

TEST(SysfsImport, ASymbolicLinkLoopIsAnErrorNotAMissingFile)
{
    // A loop used to read as "is missing": a warning, a fall-back, exit 0.
    TempTree t("loop");
    t.put("sys/devices/system/cpu/online", "0-1");
    t.cpu(0, 0, "0", "0-1");
    t.cpu(1, 0, "1", "0-1");
    const fs::path cluster = fs::path(t.root()) / "sys/devices/system/cpu/cpu1/topology/cluster_cpus_list";
    fs::remove(cluster);
    fs::create_symlink("cluster_cpus_list", cluster);
    InputError e = import_error(t.root());
    ASSERT_EQ(e.diagnostics().size(), 1u);
    EXPECT_EQ(e.diagnostics()[0].file, cluster.string());
    EXPECT_THAT(e.diagnostics()[0].message, HasSubstr("Too many levels of symbolic links"));
}

TEST(SysfsImport, ALoopingDirectoryOrCpuinfoIsAnErrorToo)
{
    TempTree t("loopdir");
    t.put("sys/devices/system/cpu/online", "0");
    t.cpu(0, 0, "0", "0");
    const fs::path node = fs::path(t.root()) / "sys/devices/system/node";
    fs::create_directories(node);
    fs::create_symlink("node0", node / "node0");
    fs::create_directories(fs::path(t.root()) / "proc");
    fs::create_symlink("cpuinfo", fs::path(t.root()) / "proc/cpuinfo");
    InputError e = import_error(t.root());
    ASSERT_EQ(e.diagnostics().size(), 1u);
    EXPECT_EQ(e.diagnostics()[0].file, (node / "node0").string());
    EXPECT_THAT(e.diagnostics()[0].message,
                HasSubstr("cannot be read: Too many levels of symbolic links; expected a directory"));

    fs::remove(node / "node0");
    InputError cpuinfo = import_error(t.root());
    ASSERT_EQ(cpuinfo.diagnostics().size(), 1u);
    EXPECT_EQ(cpuinfo.diagnostics()[0].file, t.root() + "/proc/cpuinfo");
    EXPECT_THAT(cpuinfo.diagnostics()[0].message, HasSubstr("Too many levels of symbolic links"));
}

TEST(SysfsImport, ADirectoryNamedWithASignIsNoCpu)
{
    // "cpu-1" was read as CPU -1.
    TempTree t("sign");
    t.cpu(0, 0, "0", "0");
    fs::create_directories(fs::path(t.root()) / "sys/devices/system/cpu/cpu-1");
    fs::create_directories(fs::path(t.root()) / "sys/devices/system/cpu/cpu+2");
    EXPECT_EQ(import_sysfs(t.root()).machine.nr_cpus(), 1);
}

}  // namespace
}  // namespace wb

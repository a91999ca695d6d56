// SPDX-License-Identifier: Apache-2.0
#include "io/lscpu_import.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "io/sysfs_import.h"

namespace wb {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

const std::string kData = WB_TEST_DATA;

std::string lscpu(const std::string& name)
{
    return kData + "/lscpu/" + name;
}

CpuMask list(int nr, const char* text)
{
    return parse_cpulist(text, nr).mask;
}

InputError import_error(const std::string& path)
{
    try {
        import_lscpu(path);
    } catch (const InputError& e) {
        return e;
    }
    ADD_FAILURE() << "import_lscpu(" << path << ") did not throw";
    return InputError(Diagnostic{});
}

// An lscpu text written by the test, for cases no saved output shows.
class TempText {
public:
    explicit TempText(const std::string& name, const std::string& text)
        : path_(fs::temp_directory_path() / ("wb_lscpu_" + name + "_" + std::to_string(::getpid()) + ".txt"))
    {
        std::ofstream(path_) << text;
    }
    ~TempText() { fs::remove(path_); }
    TempText(const TempText&) = delete;
    TempText& operator=(const TempText&) = delete;
    std::string path() const { return path_.string(); }

private:
    fs::path path_;
};

const char* kHeader =
    "# The following is the parsable format, which can be fed to other\n"
    "# programs. Each different item in every column has an unique ID\n"
    "# starting usually from zero.\n";

TEST(LscpuImport, DefaultFormatOfATwoSocketX86)
{
    ImportResult r = import_lscpu(lscpu("x86-2s-smt.txt"));
    const Machine& m = r.machine;

    ASSERT_EQ(m.nr_cpus(), 32);
    EXPECT_THAT(validate(m), IsEmpty());
    EXPECT_EQ(m.name, "imported-x86-2s-smt");
    EXPECT_EQ(m.numbering, CpuNumbering::ThreadMajor);
    EXPECT_EQ(m.smt_mask(0), CpuMask::of(32, {0, 16}));
    EXPECT_EQ(m.cpus[16].thread, 1);
    EXPECT_EQ(m.cpus[31].thread, 1);
    EXPECT_EQ(m.llc_mask(5), list(32, "0-7,16-23"));
    EXPECT_EQ(m.llc_mask(9), list(32, "8-15,24-31"));
    EXPECT_EQ(m.node_mask(1), list(32, "8-15,24-31"));
    EXPECT_EQ(m.nr_packages(), 2);
    EXPECT_EQ(m.nr_cores(), 16);
    EXPECT_EQ(m.node_distance, (std::vector<std::vector<int>>{{10, 20}, {20, 10}}));

    const std::string path = lscpu("x86-2s-smt.txt");
    EXPECT_THAT(r.warnings, Contains(AllOf(HasSubstr(path), HasSubstr("no node distances"))));
    EXPECT_THAT(r.warnings, Contains(AllOf(HasSubstr(path), HasSubstr("each core is its own cluster"))));
    EXPECT_THAT(r.warnings, Contains(AllOf(HasSubstr(path), HasSubstr("every CPU gets 1024"))));
    EXPECT_THAT(r.warnings, Contains(AllOf(HasSubstr(path), HasSubstr("architecture"))));
    EXPECT_THAT(r.warnings, Contains(HasSubstr("docs/costs.md")));
}

TEST(LscpuImport, ColonCacheColumnGivesTheSameMachine)
{
    ImportResult compat = import_lscpu(lscpu("x86-2s-smt.txt"));
    ImportResult colon = import_lscpu(lscpu("x86-2s-smt-cache-column.txt"));
    EXPECT_EQ(colon.machine.cpus, compat.machine.cpus);
}

TEST(LscpuImport, ArmBoardWithClusterForSocketAndNoNodes)
{
    ImportResult r = import_lscpu(lscpu("arm-biglittle.txt"));
    const Machine& m = r.machine;

    ASSERT_EQ(m.nr_cpus(), 8);
    EXPECT_THAT(validate(m), IsEmpty());
    EXPECT_FALSE(m.has_smt());
    EXPECT_EQ(m.nr_packages(), 1);
    EXPECT_EQ(m.llc_mask(0), list(8, "0-7"));
    EXPECT_EQ(m.nr_nodes(), 1);
    EXPECT_THAT(r.warnings, Contains(HasSubstr("all CPUs are on one node")));
    // One node: no distances to invent, so no warning about them.
    EXPECT_THAT(r.warnings, Not(Contains(HasSubstr("no node distances"))));
}

// lscpu -p digests the same sysfs files, so both imports must give one topology.
TEST(LscpuImport, AgreesWithTheSysfsImportOfTheSameX86)
{
    Machine from_sysfs = import_sysfs(kData + "/sysfs/x86-2s-smt").machine;
    Machine from_lscpu = import_lscpu(lscpu("x86-2s-smt.txt")).machine;
    // Same containers, numbered alike; capacities are 1024 on x86 either way.
    EXPECT_EQ(from_lscpu.cpus, from_sysfs.cpus);
    EXPECT_EQ(from_lscpu.numbering, from_sysfs.numbering);
    EXPECT_EQ(from_lscpu.nr_nodes(), from_sysfs.nr_nodes());
}

TEST(LscpuImport, AgreesWithTheSysfsImportOfTheSameArmExceptWhatLscpuCannotSay)
{
    Machine from_sysfs = import_sysfs(kData + "/sysfs/arm-biglittle").machine;
    Machine from_lscpu = import_lscpu(lscpu("arm-biglittle.txt")).machine;
    ASSERT_EQ(from_lscpu.nr_cpus(), from_sysfs.nr_cpus());
    for (CpuId c = 0; c < from_sysfs.nr_cpus(); ++c) {
        EXPECT_EQ(from_lscpu.smt_mask(c), from_sysfs.smt_mask(c)) << "CPU " << c;
        EXPECT_EQ(from_lscpu.llc_mask(c), from_sysfs.llc_mask(c)) << "CPU " << c;
        EXPECT_EQ(from_lscpu.package_mask(c), from_sysfs.package_mask(c)) << "CPU " << c;
        EXPECT_EQ(from_lscpu.cpus[c].node, from_sysfs.cpus[c].node) << "CPU " << c;
        EXPECT_EQ(from_lscpu.cpus[c].thread, from_sysfs.cpus[c].thread) << "CPU " << c;
    }
    // lscpu shows neither the DynamIQ clusters nor the capacities.
    EXPECT_EQ(from_sysfs.nr_clusters(), 2);
    EXPECT_EQ(from_lscpu.nr_clusters(), 8);
    EXPECT_EQ(from_sysfs.cpus[0].capacity, 446);
    EXPECT_EQ(from_lscpu.cpus[0].capacity, 1024);
}

TEST(LscpuImport, BadFieldsAreAllReportedWithLineAndColumn)
{
    InputError e = import_error(lscpu("bad-field.txt"));
    ASSERT_EQ(e.diagnostics().size(), 2u);
    const Diagnostic& core = e.diagnostics()[0];
    EXPECT_EQ(core.file, lscpu("bad-field.txt"));
    EXPECT_EQ(core.line, 6);
    EXPECT_EQ(core.column, 3);
    EXPECT_THAT(core.message, HasSubstr("expected a core number (a number from 0), found \"x\""));
    const Diagnostic& short_line = e.diagnostics()[1];
    EXPECT_EQ(short_line.line, 7);
    EXPECT_THAT(short_line.message, HasSubstr("expected 9 comma-separated fields, as the header names, found 7"));
}

TEST(LscpuImport, OfflineRowsAreSkippedAndTheRestRenumbered)
{
    TempText t("offline", std::string(kHeader) +
                              "# CPU,Core,Socket,Node,Online\n"
                              "0,0,0,0,Y\n1,0,0,0,Y\n2,1,0,0,N\n3,1,0,0,N\n4,2,0,0,Y\n5,2,0,0,Y\n");
    ImportResult r = import_lscpu(t.path());
    ASSERT_EQ(r.machine.nr_cpus(), 4);
    EXPECT_EQ(r.machine.smt_mask(3), CpuMask::of(4, {2, 3}));
    EXPECT_THAT(r.warnings, Contains(HasSubstr("kernel CPU 4 is CPU 2")));
    EXPECT_THAT(r.warnings, Contains(HasSubstr("each package is one LLC")));
}

TEST(LscpuImport, DataWithoutHeaderOrMissingFileIsRejected)
{
    TempText t("noheader", "0,0,0,0\n1,1,0,0\n");
    InputError e = import_error(t.path());
    ASSERT_EQ(e.diagnostics().size(), 1u);
    EXPECT_EQ(e.diagnostics()[0].line, 1);
    EXPECT_THAT(e.diagnostics()[0].message, HasSubstr("expected a '# CPU,Core,Socket,...' line naming the columns"));

    InputError missing = import_error(kData + "/lscpu/no-such-file.txt");
    EXPECT_THAT(missing.what(), HasSubstr("no-such-file.txt: cannot open: No such file or directory"));
}

TEST(LscpuImport, SiblingsInTwoSocketsAreRejected)
{
    TempText t("split", std::string(kHeader) + "# CPU,Core,Socket,Node\n0,0,0,0\n1,0,1,0\n");
    InputError e = import_error(t.path());
    ASSERT_EQ(e.diagnostics().size(), 1u);
    EXPECT_EQ(e.diagnostics()[0].line, 6);
    EXPECT_EQ(e.diagnostics()[0].column, 5);
    EXPECT_THAT(e.diagnostics()[0].message,
                HasSubstr("CPU 1 shares a core with CPU 0 (core 0), but its package is socket 1"));
}

TEST(LscpuImport, ColonCacheFieldWithTooFewIdsOrARepeatedCpuIsRejected)
{
    TempText t("colon", std::string(kHeader) +
                            "# CPU,Core,Socket,Node,L1d:L1i:L2:L3\n0,0,0,0,0:0:0:0\n"
                            "1,1,0,0,1:1:0\n0,0,0,0,0:0:0:0\n");
    InputError e = import_error(t.path());
    ASSERT_EQ(e.diagnostics().size(), 2u);
    EXPECT_EQ(e.diagnostics()[0].line, 6);
    EXPECT_EQ(e.diagnostics()[0].column, 9);
    EXPECT_THAT(e.diagnostics()[0].message, HasSubstr("expected 4 cache ids (L1d:L1i:L2:L3), found \"1:1:0\""));
    EXPECT_EQ(e.diagnostics()[1].line, 7);
    EXPECT_THAT(e.diagnostics()[1].message,
                HasSubstr("CPU 0 is listed again; expected one line per CPU (first at line 5)"));
}

TEST(LscpuImport, DifferentMaxFrequenciesHintAtBigAndLittleCores)
{
    TempText t("mhz", std::string(kHeader) + "# CPU,Core,Socket,Node,MAXMHZ\n0,0,0,0,1800.0000\n1,1,0,0,2400.0000\n");
    ImportResult r = import_lscpu(t.path());
    EXPECT_THAT(r.warnings, Contains(AllOf(HasSubstr("1800.0000 to 2400.0000 MHz"), HasSubstr("big and little"))));
}

TEST(LscpuImport, AColumnNamedTwiceIsRejectedAtItsSecondName)
{
    // The second Core column used to be read over the first, silently.
    TempText t("twice", std::string(kHeader) + "# CPU,Core,Socket,Core\n0,0,0,1\n1,1,0,0\n");
    InputError e = import_error(t.path());
    ASSERT_EQ(e.diagnostics().size(), 1u);
    EXPECT_EQ(e.diagnostics()[0].line, 4);
    EXPECT_EQ(e.diagnostics()[0].column, 19);
    EXPECT_THAT(e.diagnostics()[0].message, HasSubstr("the column core is named twice (first at column 7)"));

    TempText caches("caches", std::string(kHeader) + "# CPU,Core,L1d:L2,L2\n0,0,0:0,0\n");
    InputError c = import_error(caches.path());
    ASSERT_EQ(c.diagnostics().size(), 1u);
    EXPECT_EQ(c.diagnostics()[0].column, 19);
    EXPECT_THAT(c.diagnostics()[0].message, HasSubstr("the column L2 is named twice (first at column 12)"));
}

TEST(LscpuImport, TextWithNoDataNamesItsLastLine)
{
    try {
        import_lscpu_text(std::string(kHeader) + "# CPU,Core\n", "listing");
        FAIL() << "a listing without data was imported";
    } catch (const InputError& e) {
        EXPECT_EQ(e.diagnostics()[0].to_string(),
                  "listing:4: expected lscpu -p output: data lines, one per CPU, after a '# CPU,Core,...' header; "
                  "found none");
    }
}

TEST(LscpuImport, AnEmptyCacheNameIsRejected)
{
    // Found by the lscpu fuzz target: "L1d:L2:" named a cache "", whose last
    // letter was read past its start.
    try {
        import_lscpu_text("# CPU,Core,L1d:L2:\n0,0,0:0:0\n", "listing");
        FAIL() << "an empty cache name was accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(e.diagnostics()[0].to_string(),
                  "listing:1:12: expected cache names such as L1d, L1i, L2 or L3 joined by ':', found \"L1d:L2:\"");
    }
}

}  // namespace
}  // namespace wb

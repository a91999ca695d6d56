// SPDX-License-Identifier: Apache-2.0
#include "kernel/guest_domains.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "io/trace_input.h"
#include "kernel/guest_bundle.h"
#include "kernel/kernel_check.h"
#include "kernel/kernel_check_error.h"
#include "topology/sched_domains.h"
#include "topology/sd_flags.h"
#include "topology/synthetic.h"

namespace wb {
namespace {

using ::testing::HasSubstr;

// What a real guest sent (tests/data/kernel, `wakesim kernel run --keep`).
GuestBundle sample(const std::string& name)
{
    return parse_guest_bundle(read_trace_file(std::string(WB_TEST_DATA) + "/kernel/" + name));
}

GuestDomains domains_of(const GuestBundle& b, int nr_cpus)
{
    return parse_guest_domains(*b.file("domains"), *b.file("schedstat"), nr_cpus);
}

SchedDomains model_of(std::string_view spec)
{
    return SchedDomains::build(as_x86_guest(parse_synthetic(spec)));
}

TEST(GuestDomains, Debian612OnTwoSmtCoresIsTheModel)
{
    const GuestDomains d = domains_of(sample("pipe-6.12-smt2.bundle.gz"), 4);
    ASSERT_TRUE(d.from_debugfs);
    ASSERT_EQ(d.per_cpu[2].size(), 2u);
    EXPECT_EQ(d.per_cpu[2][0].name, "SMT");
    EXPECT_EQ(d.per_cpu[2][0].span.to_cpulist(), "2-3");
    EXPECT_TRUE(d.per_cpu[2][0].flags & SD_SHARE_CPUCAPACITY);
    EXPECT_EQ(d.per_cpu[2][1].name, "MC");
    EXPECT_EQ(d.per_cpu[2][1].span.to_cpulist(), "0-3");
    EXPECT_TRUE(compare_domains(d, model_of("node=1,llc=1,core=2,smt=2")).empty());
}

TEST(GuestDomains, Debian61SaysDieAndSharePkgResourcesWhichMeanPkgAndShareLlc)
{
    const GuestDomains d = domains_of(sample("pipe-6.1-two-llcs.bundle.gz"), 4);
    ASSERT_EQ(d.per_cpu[0].size(), 2u);
    EXPECT_EQ(d.per_cpu[0][1].kernel_name, "DIE");
    EXPECT_EQ(d.per_cpu[0][1].name, "PKG");
    EXPECT_TRUE(d.per_cpu[0][0].flags & SD_SHARE_LLC);  // SD_SHARE_PKG_RESOURCES
    EXPECT_TRUE(d.per_cpu[0][0].unknown_flags.empty());
    EXPECT_TRUE(compare_domains(d, model_of("node=1,llc=2,core=2")).empty());
}

TEST(GuestDomains, ADifferentMachineIsReportedLevelByLevel)
{
    // The SMT guest against a model without SMT: every CPU's bottom level differs.
    const auto diffs = compare_domains(domains_of(sample("pipe-6.12-smt2.bundle.gz"), 4), model_of("core=4"));
    ASSERT_FALSE(diffs.empty());
    EXPECT_EQ(diffs.front().cpu, 0);
    EXPECT_EQ(diffs.front().what, "guest SMT 0-1, model MC 0-3");
}

TEST(GuestDomains, FlagsAreComparedByMeaning)
{
    GuestDomains d = domains_of(sample("pipe-6.12-smt2.bundle.gz"), 4);
    d.per_cpu[1][1].flags &= ~SD_SHARE_LLC;
    d.per_cpu[1][1].unknown_flags.push_back("SD_FUTURE");
    const auto diffs = compare_domains(d, model_of("node=1,llc=1,core=2,smt=2"));
    ASSERT_EQ(diffs.size(), 1u);
    EXPECT_EQ(diffs[0].cpu, 1);
    EXPECT_EQ(diffs[0].level, 1);
    EXPECT_THAT(diffs[0].what, HasSubstr("the guest lacks SD_SHARE_LLC"));
    EXPECT_THAT(diffs[0].what, HasSubstr("SD_FUTURE, which the model does not know"));
}

TEST(GuestDomains, SchedstatVersion17NamesTheDomain)
{
    const GuestDomains d = parse_guest_domains("",
                                               "version 17\ncpu0 0 0\ndomain0 SMT 3 0 0\ndomain1 PKG f 0 0\n"
                                               "cpu1 0 0\ndomain0 SMT 3 0 0\n",
                                               4);
    EXPECT_FALSE(d.from_debugfs);
    EXPECT_EQ(d.per_cpu[0][1].name, "PKG");
    EXPECT_EQ(d.per_cpu[0][1].span.to_cpulist(), "0-3");
    EXPECT_FALSE(d.per_cpu[0][1].flags_known);
}

TEST(GuestDomains, HexMasksOfThirtyTwoBitGroups)
{
    EXPECT_EQ(parse_hex_cpumask("3", 4).to_cpulist(), "0-1");
    EXPECT_EQ(parse_hex_cpumask("00000001,000000f0", 40).to_cpulist(), "4-7,32");
    EXPECT_THROW(parse_hex_cpumask("10", 4), KernelCheckError);
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "host/ipi_counts.h"

#include <gtest/gtest.h>

namespace wb::host {
namespace {

TEST(IpiCounts, X86SumsReschedulingAndFunctionCallLinesPerCpu)
{
    const char* text =
        "           CPU0       CPU1       \n"
        "  0:         45          0   IO-APIC   2-edge      timer\n"
        "LOC:    1000000     900000   Local timer interrupts\n"
        "RES:     104339      70093   Rescheduling interrupts\n"
        "CAL:     279648     225809   Function call interrupts\n"
        "TLB:        100        200   TLB shootdowns\n";
    const IpiCounts c = parse_ipi_counts(text);
    ASSERT_TRUE(c.found);
    ASSERT_EQ(c.per_cpu.size(), 2u);
    EXPECT_EQ(c.per_cpu[0], 104339u + 279648u);
    EXPECT_EQ(c.per_cpu[1], 70093u + 225809u);
}

TEST(IpiCounts, Arm64IpiLinesAndHolesInCpuNumbers)
{
    const char* text =
        "           CPU0       CPU2\n"
        "IPI0:        10         20       Rescheduling interrupts\n"
        "IPI1:         1          2       Function call interrupts\n"
        "IPI2:         5          5       CPU stop interrupts\n";
    const IpiCounts c = parse_ipi_counts(text);
    ASSERT_TRUE(c.found);
    ASSERT_EQ(c.per_cpu.size(), 3u);
    EXPECT_EQ(c.per_cpu[0], 11u);
    EXPECT_EQ(c.per_cpu[1], 0u);
    EXPECT_EQ(c.per_cpu[2], 22u);
}

TEST(IpiCounts, NoSchedulerLinesIsNotFound)
{
    EXPECT_FALSE(parse_ipi_counts("  CPU0\nLOC: 5 Local timer interrupts\n").found);
}

}  // namespace
}  // namespace wb::host

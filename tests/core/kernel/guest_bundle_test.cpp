// SPDX-License-Identifier: Apache-2.0
#include "kernel/guest_bundle.h"

#include <gtest/gtest.h>

namespace wb {
namespace {

TEST(GuestBundle, FilesKeepTheirBytesWithOrWithoutAFinalNewline)
{
    const GuestBundle b = parse_guest_bundle(
        "@@wakebench-file version\n6.12.118+deb12-amd64\nLinux version 6.12\n\n@@wakebench-end version\n"
        "@@wakebench-file status\n0\n@@wakebench-end status\n"
        "@@wakebench-file empty\n\n@@wakebench-end empty\n"
        "@@wakebench-done\n");
    EXPECT_TRUE(b.complete);
    ASSERT_NE(b.file("version"), nullptr);
    EXPECT_EQ(*b.file("version"), "6.12.118+deb12-amd64\nLinux version 6.12\n");
    EXPECT_EQ(*b.file("status"), "0");
    EXPECT_EQ(*b.file("empty"), "");
    EXPECT_EQ(b.file("trace"), nullptr);
}

TEST(GuestBundle, AnEndMarkerOfAnotherFileInsideContentDoesNotEndIt)
{
    const GuestBundle b =
        parse_guest_bundle("@@wakebench-file a\nx\n@@wakebench-end b\ny\n@@wakebench-end a\n@@wakebench-done\n");
    EXPECT_EQ(*b.file("a"), "x\n@@wakebench-end b\ny");
}

TEST(GuestBundle, AStreamCutShortSaysWhere)
{
    const GuestBundle b = parse_guest_bundle(
        "@@wakebench-file version\n6.1\n@@wakebench-end version\n"
        "@@wakebench-file trace\n# tracer: nop\n   sh-1 [000]");
    EXPECT_FALSE(b.complete);
    EXPECT_EQ(b.cut_in, "trace");
    EXPECT_EQ(*b.file("version"), "6.1");
}

TEST(GuestBundle, NothingAtAllIsIncomplete)
{
    const GuestBundle b = parse_guest_bundle("");
    EXPECT_FALSE(b.complete);
    EXPECT_TRUE(b.cut_in.empty());
}

}  // namespace
}  // namespace wb

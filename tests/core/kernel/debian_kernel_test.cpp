// SPDX-License-Identifier: Apache-2.0
#include "kernel/debian_kernel.h"

#include <gtest/gtest.h>

namespace wb {
namespace {

TEST(DebianKernel, TheNewest612IsTheHighestStableNumberNotTheLastListed)
{
    EXPECT_EQ(newest_debian_612_package("linux-image-6.12.107+deb12-amd64-unsigned - Linux 6.12 for 64-bit PCs\n"
                                        "linux-image-6.12.118+deb12-amd64-unsigned - Linux 6.12 for 64-bit PCs\n"
                                        "linux-image-6.12.99+deb12-amd64-unsigned - Linux 6.12 for 64-bit PCs\n"),
              "linux-image-6.12.118+deb12-amd64-unsigned");
}

TEST(DebianKernel, CloudAndRtFlavoursAreNotTaken)
{
    EXPECT_EQ(
        newest_debian_612_package("linux-image-6.12.120+deb12-cloud-amd64-unsigned - Linux 6.12 for x86-64 cloud\n"
                                  "linux-image-6.12.121+deb12-rt-amd64-unsigned - PREEMPT_RT\n"),
        "");
}

TEST(DebianKernel, The61PackageIsWhatLinuxImageAmd64DependsOn)
{
    EXPECT_EQ(debian_61_package("linux-image-amd64\n  Depends: linux-image-6.1.0-57-amd64\n"),
              "linux-image-6.1.0-57-amd64");
    EXPECT_EQ(debian_61_package("linux-image-amd64\n"), "");
}

TEST(DebianKernel, SecurityArchiveInOneLineAndDeb822Sources)
{
    EXPECT_TRUE(sources_have_security_archive("deb http://deb.debian.org/debian-security bookworm-security main\n"));
    EXPECT_TRUE(
        sources_have_security_archive("Types: deb\nURIs: http://deb.debian.org/debian-security\n"
                                      "Suites: bookworm-security\n"));
    EXPECT_FALSE(
        sources_have_security_archive("deb http://deb.debian.org/debian bookworm main\n"
                                      "# deb http://deb.debian.org/debian-security bookworm-security main\n"));
}

}  // namespace
}  // namespace wb

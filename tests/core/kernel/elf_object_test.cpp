// SPDX-License-Identifier: Apache-2.0
#include "kernel/elf_object.h"

#include <gtest/gtest.h>

#include "kernel/file_bytes.h"
#include "kernel/kernel_check_error.h"

namespace wb {
namespace {

// The test binary itself is a 64-bit little-endian ELF with sections.
std::string self()
{
    return file_bytes("/proc/self/exe");
}

TEST(ElfObject, FindsASectionByItsWholeName)
{
    const std::string elf = self();
    ASSERT_TRUE(elf_section(elf, ".text", "core_tests").has_value());
    EXPECT_GT(elf_section(elf, ".text", "core_tests")->size(), 0u);
    EXPECT_FALSE(elf_section(elf, ".tex", "core_tests").has_value());
    EXPECT_FALSE(elf_section(elf, ".modinfo", "core_tests").has_value());
}

TEST(ElfObject, ADynamicExecutableHasAnInterpreter)
{
    EXPECT_TRUE(elf_is_dynamic(self()));  // the tests link the C library dynamically
    EXPECT_FALSE(elf_is_dynamic("#!/bin/sh\n"));
}

TEST(ElfObject, NotElfIsSaidSo)
{
    EXPECT_THROW(elf_section("#!/bin/sh\n", ".modinfo", "init"), KernelCheckError);
}

}  // namespace
}  // namespace wb

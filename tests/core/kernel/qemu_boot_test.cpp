// SPDX-License-Identifier: Apache-2.0
#include "kernel/qemu_boot.h"

#include <gtest/gtest.h>

namespace wb {
namespace {

TEST(QemuBoot, TheErrorLineIsNotTheWarningBeforeIt)
{
    // QEMU 7.2 under a nested hypervisor whose KVM cannot run the guest.
    EXPECT_EQ(qemu_error_line("qemu-system-x86_64: -accel kvm: warning: Number of SMP cpus requested (4) exceeds "
                              "the recommended cpus supported by KVM (2)\n"
                              "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69\n"
                              "qemu-system-x86_64: ../../target/i386/kvm/kvm.c:3183: kvm_buf_set_msrs: Assertion "
                              "`ret == cpu->kvm_msr_buf->nmsrs' failed.\n"),
              "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69");
    EXPECT_EQ(qemu_error_line("KVM internal error. Suberror: 1\n"), "KVM internal error. Suberror: 1");
    EXPECT_EQ(qemu_error_line("qemu: warning: only this\n"), "");
}

TEST(QemuBoot, LastLinesOfAConsole)
{
    EXPECT_EQ(last_lines("a\nb\nc\n", 2), "b\nc\n");
    EXPECT_EQ(last_lines("a\nb\nc", 2), "b\nc");
    EXPECT_EQ(last_lines("a\nb\n", 5), "a\nb\n");
    EXPECT_EQ(last_lines("", 3), "");
}

}  // namespace
}  // namespace wb

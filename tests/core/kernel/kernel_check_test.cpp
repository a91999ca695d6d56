// SPDX-License-Identifier: Apache-2.0
#include "kernel/kernel_check.h"

#include <filesystem>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "io/input_error.h"
#include "io/trace_input.h"
#include "kernel/kernel_check_error.h"
#include "topology/synthetic.h"

namespace fs = std::filesystem;

namespace wb {
namespace {

using ::testing::HasSubstr;

class ReadBoot : public ::testing::Test {
protected:
    void SetUp() override
    {
        dir_ = fs::temp_directory_path() / ("wb-kernel-check-" + std::to_string(::getpid()));
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    BootResult sample(const std::string& name) const
    {
        BootResult b;
        b.output = read_trace_file(std::string(WB_TEST_DATA) + "/kernel/" + name);
        b.up_s = 5;
        return b;
    }
    KernelBoot read(const BootResult& b, std::string_view spec) const
    {
        return read_boot(b, as_x86_guest(parse_synthetic(spec)), dir_.string(), 60, 32);
    }
    std::string error_of(const BootResult& b) const
    {
        try {
            read(b, "node=1,llc=1,core=2,smt=2");
        } catch (const KernelCheckError& e) {
            return e.what();
        }
        return "no error";
    }
    fs::path dir_;
};

// The guest-side half of a kernel check over what Debian's 6.12 sent back
// for pipe:loops=300 on 2 cores with SMT-2 (tests/data/kernel).
TEST_F(ReadBoot, ACommittedGuestOutputIsReadAsTheCheckReadsIt)
{
    const KernelBoot k = read(sample("pipe-6.12-smt2.bundle.gz"), "node=1,llc=1,core=2,smt=2");
    EXPECT_THAT(k.release, ::testing::StartsWith("6.12."));
    EXPECT_THAT(k.features, HasSubstr("DELAY_DEQUEUE"));
    EXPECT_TRUE(k.domain_differences.empty());
    EXPECT_EQ(k.guest_machine, "4 CPUs, 1 node(s), 1 package(s), 1 LLC(s), 2 cores");
    EXPECT_TRUE(fs::exists(dir_ / "trace.txt"));
    // 300 round trips: two wakeups of the pipe tasks each, less the first
    // write's, which finds its reader not yet asleep.
    EXPECT_GE(k.kernel_wakeups_selected, 590u);
    EXPECT_LE(k.kernel_wakeups_selected, 600u);
    // Every replayed wakeup is one of the pipe tasks', and on a symmetric
    // machine 6.12 decides as the model's path does (docs/model.md).
    EXPECT_GE(k.replayed, 590u);
    EXPECT_GE(static_cast<double>(k.replay.sync_inferred.same_cpu), 0.99 * static_cast<double>(k.replayed));
}

TEST_F(ReadBoot, AStreamCutShortIsAnErrorQuotingTheConsole)
{
    BootResult b = sample("pipe-6.12-smt2.bundle.gz");
    b.output.resize(b.output.size() / 2);
    b.console = "wakebench-guest: up: 6.12\nwakebench-guest: running pipe -l 300\n";
    b.qemu_status = 1;
    const std::string e = error_of(b);
    EXPECT_THAT(e,
                HasSubstr("the guest stopped before sending everything back (QEMU exit status 1, cut inside trace)"));
    EXPECT_THAT(e, HasSubstr("    wakebench-guest: running pipe -l 300"));
}

TEST_F(ReadBoot, APanicAndATimeoutAreSaidSo)
{
    BootResult b;
    b.up_s = 5;
    b.console = "[    3.1] Kernel panic - not syncing: Attempted to kill init!\n";
    EXPECT_THAT(error_of(b), HasSubstr("the guest kernel panicked; the guest console's last lines:"));
    b.console = "wakebench-guest: running pipe -l 300\n";
    b.timed_out = true;
    EXPECT_THAT(error_of(b), HasSubstr("did not finish within 60 s (--timeout) and was stopped"));
}

TEST_F(ReadBoot, TheGuestsOwnErrorIsQuoted)
{
    BootResult b;
    b.console = "wakebench-guest: error: no virtio serial port named wakebench: the kernel needs virtio_pci\n";
    EXPECT_THAT(error_of(b), HasSubstr("the guest gave up: no virtio serial port named wakebench"));
}

TEST_F(ReadBoot, AFeatureTheKernelLacksIsBadInput)
{
    BootResult b;
    b.console = "wakebench-guest: error: the kernel has no sched feature NO_NI_RATE; its features are: PLACE_LAG\n";
    EXPECT_THROW(read(b, "node=1,llc=1,core=2,smt=2"), InputError);
}

TEST_F(ReadBoot, LostEventsFailTheCheck)
{
    BootResult b = sample("pipe-6.12-smt2.bundle.gz");
    const std::size_t at = b.output.find("overrun: 0");
    ASSERT_NE(at, std::string::npos);
    b.output.replace(at, 10, "overrun: 9");
    EXPECT_THAT(error_of(b), HasSubstr("the guest's trace lost 9 events (the ring buffer of cpu0 overflowed)"));
}

}  // namespace
}  // namespace wb

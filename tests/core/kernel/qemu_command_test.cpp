// SPDX-License-Identifier: Apache-2.0
#include "kernel/qemu_command.h"

#include <algorithm>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "topology/synthetic.h"

namespace wb {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

QemuOptions options()
{
    QemuOptions o;
    o.kernel = "/cache/vmlinuz";
    o.initrd = "/cache/guest.cpio";
    o.append = "console=ttyS0 panic=-1";
    o.memory_mb = 512;
    o.console_path = "/run/console.log";
    o.output_path = "/run/out,1";
    return o;
}

std::vector<std::string> command(std::string_view spec, const QemuOptions& o = options())
{
    const QemuFit fit = fit_qemu_topology(parse_synthetic(spec));
    EXPECT_TRUE(fit.fits());
    return qemu_command(fit.topology, o);
}

// The value following `option` (the first occurrence).
std::string after(const std::vector<std::string>& argv, const std::string& option)
{
    auto it = std::find(argv.begin(), argv.end(), option);
    return it == argv.end() || it + 1 == argv.end() ? "" : *(it + 1);
}

std::vector<std::string> all_after(const std::vector<std::string>& argv, const std::string& option)
{
    std::vector<std::string> out;
    for (std::size_t i = 0; i + 1 < argv.size(); ++i)
        if (argv[i] == option)
            out.push_back(argv[i + 1]);
    return out;
}

TEST(QemuCommand, FlatMachineHasNoNumaOptions)
{
    const auto argv = command("node=1,llc=1,core=4,smt=1");
    EXPECT_EQ(after(argv, "-smp"), "cpus=4,sockets=1,dies=1,cores=4,threads=1");
    EXPECT_EQ(after(argv, "-m"), "512M");
    EXPECT_THAT(argv, Not(Contains("-numa")));
    EXPECT_THAT(argv, Not(Contains("-object")));
}

TEST(QemuCommand, SmtMachineGivesThreads)
{
    EXPECT_EQ(after(command("node=1,llc=1,core=4,smt=2"), "-smp"), "cpus=8,sockets=1,dies=1,cores=4,threads=2");
}

TEST(QemuCommand, NumaMachineHasAMemoryBackendPerNodeItsSocketsAndDistances)
{
    const auto argv = command("node=2,llc=1,core=2,smt=2,distance=21");
    EXPECT_THAT(all_after(argv, "-object"),
                ::testing::ElementsAre("memory-backend-ram,id=mem0,size=256M", "memory-backend-ram,id=mem1,size=256M"));
    EXPECT_THAT(
        all_after(argv, "-numa"),
        ::testing::ElementsAre("node,nodeid=0,memdev=mem0", "node,nodeid=1,memdev=mem1", "cpu,node-id=0,socket-id=0",
                               "cpu,node-id=1,socket-id=1", "dist,src=0,dst=1,val=21", "dist,src=1,dst=0,val=21"));
    EXPECT_EQ(after(argv, "-m"), "512M");
}

TEST(QemuCommand, MemoryIsRoundedUpToWholeStepsPerNode)
{
    QemuOptions o = options();
    o.memory_mb = 300;
    const auto argv = command("node=4,core=1", o);
    EXPECT_EQ(after(argv, "-m"), "512M");  // 75 MB a node, rounded up to two 64 MB steps
    EXPECT_THAT(all_after(argv, "-object"), Contains("memory-backend-ram,id=mem3,size=128M"));
}

TEST(QemuCommand, LlcsArePerDie)
{
    EXPECT_EQ(after(command("node=1,llc=2,core=2"), "-smp"), "cpus=4,sockets=1,dies=2,cores=2,threads=1");
}

TEST(QemuCommand, TcgUsesAnIntelVendorAndKvmTheHostCpu)
{
    QemuOptions o = options();
    EXPECT_EQ(after(command("core=2", o), "-cpu"), "max,vendor=GenuineIntel");
    EXPECT_EQ(after(command("core=2", o), "-accel"), "tcg,thread=multi");
    o.accel = Accel::Kvm;
    EXPECT_EQ(after(command("core=2", o), "-cpu"), "host");
    EXPECT_EQ(after(command("core=2", o), "-accel"), "kvm");
}

TEST(QemuCommand, KernelConsoleAndTheWakebenchPort)
{
    const auto argv = command("core=2");
    EXPECT_EQ(after(argv, "-kernel"), "/cache/vmlinuz");
    EXPECT_EQ(after(argv, "-initrd"), "/cache/guest.cpio");
    EXPECT_EQ(after(argv, "-append"), "console=ttyS0 panic=-1");
    EXPECT_EQ(after(argv, "-serial"), "chardev:console");
    // A comma in a path is doubled, as QEMU's option lists take it.
    EXPECT_THAT(all_after(argv, "-chardev"), Contains("file,id=wbout,path=/run/out,,1"));
    EXPECT_THAT(all_after(argv, "-device"), Contains("virtserialport,bus=vser.0,chardev=wbout,name=wakebench"));
    EXPECT_THAT(argv, Contains("-no-reboot"));  // a panic ends QEMU (panic=-1 reboots at once)
}

TEST(QemuCommand, ShellQuoteLeavesPlainWordsAndQuotesTheRest)
{
    EXPECT_EQ(shell_quote({"qemu", "-append", "console=ttyS0 panic=-1", "it's"}),
              "qemu -append 'console=ttyS0 panic=-1' 'it'\\''s'");
}

}  // namespace
}  // namespace wb

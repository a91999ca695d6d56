// SPDX-License-Identifier: Apache-2.0
#include "kernel/kernel_modules.h"

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "kernel/kernel_check_error.h"

namespace fs = std::filesystem;

namespace wb {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

template <typename T>
void put(std::string& bytes, std::size_t at, T v)
{
    if (bytes.size() < at + sizeof v)
        bytes.resize(at + sizeof v);
    std::memcpy(bytes.data() + at, &v, sizeof v);
}

// A 64-bit little-endian ELF object with three sections (null, .modinfo,
// .shstrtab), as a module's .modinfo holds its "key=value\0" strings.
std::string module_elf(const std::string& modinfo)
{
    const std::string names = std::string("\0.modinfo\0.shstrtab\0", 20);
    std::string e(64, '\0');
    e.replace(0, 6,
              "\x7f"
              "ELF\x02\x01");
    const std::size_t info_at = e.size();
    e += modinfo;
    const std::size_t names_at = e.size();
    e += names;
    const std::size_t shoff = (e.size() + 7) / 8 * 8;
    e.resize(shoff + 3 * 64, '\0');
    put<std::uint64_t>(e, 0x28, shoff);
    put<std::uint16_t>(e, 0x3A, 64);
    put<std::uint16_t>(e, 0x3C, 3);
    put<std::uint16_t>(e, 0x3E, 2);
    put<std::uint32_t>(e, shoff + 64, 1);  // ".modinfo"
    put<std::uint64_t>(e, shoff + 64 + 0x18, info_at);
    put<std::uint64_t>(e, shoff + 64 + 0x20, modinfo.size());
    put<std::uint32_t>(e, shoff + 128, 10);  // ".shstrtab"
    put<std::uint64_t>(e, shoff + 128 + 0x18, names_at);
    put<std::uint64_t>(e, shoff + 128 + 0x20, names.size());
    return e;
}

std::string info(const std::string& depends)
{
    return std::string("license=GPL\0", 12) + "depends=" + depends + std::string("\0intree=Y\0", 10);
}

TEST(KernelModules, DependsAreReadFromModinfo)
{
    EXPECT_THAT(module_depends(module_elf(info("virtio_ring,virtio_pci_modern_dev,virtio")), "x.ko"),
                ElementsAre("virtio_ring", "virtio_pci_modern_dev", "virtio"));
    EXPECT_TRUE(module_depends(module_elf(info("")), "x.ko").empty());
}

TEST(KernelModules, NotAModuleIsSaidSo)
{
    try {
        module_depends("#!/bin/sh\n", "bogus.ko");
        FAIL();
    } catch (const KernelCheckError& e) {
        EXPECT_THAT(e.what(), HasSubstr("bogus.ko: not a 64-bit little-endian ELF object"));
    }
}

class ModuleTree : public ::testing::Test {
protected:
    void SetUp() override
    {
        root_ = fs::temp_directory_path() / ("wb-modules-" + std::to_string(::getpid()));
        fs::create_directories(root_ / "kernel/drivers/virtio");
        fs::create_directories(root_ / "kernel/drivers/char");
    }
    void TearDown() override { fs::remove_all(root_); }
    void module(const std::string& path, const std::string& depends)
    {
        std::ofstream(root_ / path, std::ios::binary) << module_elf(info(depends));
    }
    fs::path root_;
};

TEST_F(ModuleTree, DependenciesComeFirstAndBuiltinsAreLeftOut)
{
    // Debian 6.1's layout: everything a module, virtio_pci_legacy_dev built in here for the test.
    std::ofstream(root_ / "modules.builtin") << "kernel/drivers/virtio/virtio_pci_legacy_dev.ko\n";
    module("kernel/drivers/virtio/virtio_ring.ko", "");
    module("kernel/drivers/virtio/virtio.ko", "virtio_ring");
    module("kernel/drivers/virtio/virtio_pci_modern_dev.ko", "");
    module("kernel/drivers/virtio/virtio_pci.ko", "virtio_ring,virtio_pci_modern_dev,virtio_pci_legacy_dev,virtio");
    module("kernel/drivers/char/virtio_console.ko", "virtio,virtio_ring");
    std::vector<std::string> names;
    for (const KernelModule& m : modules_to_load(root_.string(), kGuestPortModules))
        names.push_back(m.name);
    EXPECT_THAT(names, ElementsAre("virtio_ring", "virtio_pci_modern_dev", "virtio", "virtio_pci", "virtio_console"));
}

TEST_F(ModuleTree, EverythingBuiltInLoadsNothing)
{
    std::ofstream(root_ / "modules.builtin")
        << "kernel/drivers/virtio/virtio_pci.ko\nkernel/drivers/char/virtio_console.ko\n";
    EXPECT_TRUE(modules_to_load(root_.string(), kGuestPortModules).empty());
}

TEST_F(ModuleTree, AMissingModuleNamesWhoNeedsIt)
{
    std::ofstream(root_ / "modules.builtin") << "kernel/drivers/virtio/virtio_pci.ko\n";
    module("kernel/drivers/char/virtio_console.ko", "virtio");
    try {
        modules_to_load(root_.string(), kGuestPortModules);
        FAIL();
    } catch (const KernelCheckError& e) {
        EXPECT_THAT(e.what(), HasSubstr("no virtio (needed by virtio_console)"));
    }
}

}  // namespace
}  // namespace wb

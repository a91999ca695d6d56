// SPDX-License-Identifier: Apache-2.0
#include "kernel/cpio_archive.h"

#include <map>

#include <gtest/gtest.h>
#include <sys/stat.h>

namespace wb {
namespace {

struct Entry {
    unsigned mode = 0, rdev_major = 0, rdev_minor = 0;
    std::string data;
};

unsigned hex_field(const std::string& bytes, std::size_t at, int field)
{
    return static_cast<unsigned>(
        std::stoul(bytes.substr(at + 6 + 8 * static_cast<std::size_t>(field), 8), nullptr, 16));
}

// Reads a newc archive back as the kernel's unpacker does.
std::map<std::string, Entry> read_newc(const std::string& bytes)
{
    std::map<std::string, Entry> out;
    std::size_t at = 0;
    while (at + 110 <= bytes.size()) {
        EXPECT_EQ(bytes.substr(at, 6), "070701");
        const unsigned size = hex_field(bytes, at, 6), name_size = hex_field(bytes, at, 11);
        const std::string name = bytes.substr(at + 110, name_size - 1);
        EXPECT_EQ(bytes[at + 110 + name_size - 1], '\0');
        std::size_t data = (at + 110 + name_size + 3) / 4 * 4;
        if (name == "TRAILER!!!")
            return out;
        out[name] = {hex_field(bytes, at, 1), hex_field(bytes, at, 9), hex_field(bytes, at, 10),
                     bytes.substr(data, size)};
        at = (data + size + 3) / 4 * 4;
    }
    ADD_FAILURE() << "no trailer";
    return out;
}

TEST(CpioArchive, EntriesReadBackWithTheirModesAndData)
{
    CpioArchive a;
    a.add_directory("bin");
    a.add_file("init", "#!/bin/sh\n", 0755);
    a.add_file("bin/odd", "12345");  // data not a multiple of 4
    a.add_symlink("bin/sh", "busybox");
    a.add_char_device("dev/console", 5, 1);
    const std::string& bytes = a.finish();
    EXPECT_EQ(bytes.size() % 4, 0u);
    const auto entries = read_newc(bytes);
    ASSERT_EQ(entries.size(), 5u);
    EXPECT_TRUE(S_ISDIR(entries.at("bin").mode));
    EXPECT_EQ(entries.at("init").mode, static_cast<unsigned>(S_IFREG | 0755));
    EXPECT_EQ(entries.at("init").data, "#!/bin/sh\n");
    EXPECT_EQ(entries.at("bin/odd").data, "12345");
    EXPECT_TRUE(S_ISLNK(entries.at("bin/sh").mode));
    EXPECT_EQ(entries.at("bin/sh").data, "busybox");
    EXPECT_TRUE(S_ISCHR(entries.at("dev/console").mode));
    EXPECT_EQ(entries.at("dev/console").rdev_major, 5u);
    EXPECT_EQ(entries.at("dev/console").rdev_minor, 1u);
}

TEST(CpioArchive, SameContentsSameBytes)
{
    CpioArchive a, b;
    a.add_file("x", "data");
    b.add_file("x", "data");
    EXPECT_EQ(a.finish(), b.finish());
}

TEST(CpioArchive, NothingMayBeAddedAfterFinish)
{
    CpioArchive a;
    a.finish();
    EXPECT_THROW(a.add_file("late", ""), std::logic_error);
}

}  // namespace
}  // namespace wb

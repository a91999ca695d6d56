// SPDX-License-Identifier: Apache-2.0
#include "io/output_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/input_error.h"

namespace wb {
namespace {

namespace fs = std::filesystem;
using testing::HasSubstr;

std::string error_of(auto&& write)
{
    try {
        write();
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

std::string text_of(const fs::path& p)
{
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

TEST(OutputFile, AStreamThatCouldNotWriteFailsWhenFinished)
{
    std::ofstream out("/dev/full");
    ASSERT_TRUE(out.is_open());
    out << std::string(1 << 16, 'x');
    EXPECT_THAT(error_of([&] { finish_output(out, "/dev/full"); }), HasSubstr("/dev/full: cannot write: "));
}

TEST(OutputFile, AStreamThatWroteEverythingFinishesQuietly)
{
    const fs::path p = fs::temp_directory_path() / "wb-output-file-ok.txt";
    std::ofstream out(p);
    out << "hello\n";
    EXPECT_EQ(error_of([&] { finish_output(out, p.string()); }), "no error");
    EXPECT_EQ(text_of(p), "hello\n");
    fs::remove(p);
}

TEST(OutputFile, AFullDeviceIsAnErrorAndStaysADevice)
{
    // Written through a temporary file renamed over it, /dev/full used to be
    // replaced by a regular file, and the save reported done.
    EXPECT_THAT(error_of([] { write_output_file("/dev/full", "{}\n"); }),
                HasSubstr("/dev/full: cannot write: No space left on device"));
    EXPECT_TRUE(fs::is_character_file("/dev/full"));
    EXPECT_FALSE(fs::exists("/dev/full.tmp"));
}

TEST(OutputFile, ADeviceThatTakesTheTextIsWrittenInPlace)
{
    EXPECT_EQ(error_of([] { write_output_file("/dev/null", "{}\n"); }), "no error");
    EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

TEST(OutputFile, ARegularFileIsReplacedWhole)
{
    const fs::path p = fs::temp_directory_path() / "wb-output-file-replace.txt";
    write_output_file(p.string(), "old text that is longer\n");
    write_output_file(p.string(), "new\n");
    EXPECT_EQ(text_of(p), "new\n");
    EXPECT_FALSE(fs::exists(p.string() + ".tmp"));
    fs::remove(p);
}

TEST(OutputFile, AFolderThatDoesNotExistNamesThePathAndTheReason)
{
    EXPECT_THAT(error_of([] { write_output_file("/no/such/folder/m.json", "{}\n"); }),
                HasSubstr("/no/such/folder/m.json: cannot write: No such file or directory"));
}

}  // namespace
}  // namespace wb

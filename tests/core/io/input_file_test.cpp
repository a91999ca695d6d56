// SPDX-License-Identifier: Apache-2.0
#include "io/input_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "io/json_parse.h"
#include "io/topology_library.h"
#include "io/trace_input.h"

namespace wb {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

std::string message_of(const std::function<void()>& f)
{
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "no InputError";
}

struct TempDir {
    TempDir() : path(fs::temp_directory_path() / ("wb-input-" + std::to_string(::getpid())))
    {
        fs::create_directories(path);
    }
    ~TempDir() { fs::remove_all(path); }
    fs::path path;
};

// A FIFO would block every reader until someone writes to it: it is
// refused before it is opened, by each kind of reader.
TEST(InputFile, AFifoIsRefusedWithoutBlocking)
{
    TempDir dir;
    const std::string fifo = (dir.path / "machine.json").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_THAT(message_of([&] { read_input_file(fifo, "machine file"); }),
                HasSubstr("machine.json: is a FIFO (a named pipe); expected a machine file"));
    EXPECT_THAT(message_of([&] { resolve_machine(fifo); }), HasSubstr("is a FIFO"));
    EXPECT_THAT(message_of([&] { read_trace_file(fifo); }), HasSubstr("is a FIFO"));
}

// /dev/zero never ends and /dev/urandom neither.
TEST(InputFile, ADeviceIsRefused)
{
    EXPECT_THAT(message_of([] { read_input_file("/dev/zero", "scenario file"); }),
                HasSubstr("/dev/zero: is a character device; expected a scenario file"));
    EXPECT_THAT(message_of([] { read_trace_file("/dev/urandom"); }), HasSubstr("is a character device"));
}

TEST(InputFile, AFileLongerThanItsBoundIsRefused)
{
    TempDir dir;
    const std::string path = (dir.path / "big.json").string();
    std::ofstream(path) << std::string((3u << 20) + 1, ' ');
    EXPECT_THAT(message_of([&] { read_input_file(path, "workload JSON file", 3u << 20); }),
                HasSubstr("big.json: is larger than 3 MB, the bound for a workload JSON file"));
    EXPECT_EQ(read_input_file(path, "workload JSON file", 4u << 20).size(), (3u << 20) + 1);
}

// Nesting is bounded before the parser or any reader walks the tree; the
// error points at the bracket that went too deep.
TEST(InputFile, JsonNestedTooDeepIsRefusedAtItsBracket)
{
    const std::string deep = "{\"a\": \"[[[[\",\n \"b\": " + std::string(300, '[');
    EXPECT_THAT(message_of([&] { parse_json_text<nlohmann::json>(deep, "deep.json"); }),
                HasSubstr("deep.json:2:262: nested more than 256 levels deep"));
    const std::string fine = std::string(200, '[') + std::string(200, ']');
    EXPECT_NO_THROW(parse_json_text<nlohmann::json>(fine, "fine.json"));
}

}  // namespace
}  // namespace wb

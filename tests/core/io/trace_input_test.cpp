// SPDX-License-Identifier: Apache-2.0
#include "io/trace_input.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "io/input_error.h"

namespace wb {
namespace {

using ::testing::HasSubstr;

const std::string kTraces = std::string(WB_TEST_DATA) + "/traces/";

TEST(TraceInput, ReadsGzippedAndPlainText)
{
    const std::string gz = read_trace_file(kTraces + "pipe.perf.txt.gz");
    EXPECT_TRUE(gz.starts_with("            perf 19854 [000]"));
    const std::string plain = read_trace_file(kTraces + "lscpu.txt");
    EXPECT_TRUE(plain.starts_with("# The following is the parsable format"));
}

TEST(TraceInput, AMissingFileSaysWhatWasExpected)
{
    try {
        read_trace_file("/no/such/trace.txt");
        FAIL() << "expected an InputError";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("/no/such/trace.txt: cannot open: No such file or directory; expected a "
                                        "readable trace"));
    }
}

}  // namespace
}  // namespace wb

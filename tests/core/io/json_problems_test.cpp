// SPDX-License-Identifier: Apache-2.0
#include "io/json_problems.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace wb {
namespace {

TEST(JsonProblems, AKeyGivenTwiceIsAProblemAtTheRepeatedKey)
{
    // Scenarios and validation cases read through JsonProblems; nlohmann
    // keeps the last of two equal keys without a word.
    JsonProblems problems("{\"a\": 1,\n \"b\": {\"c\": 2, \"c\": 3},\n \"a\": 4}", "f.json");
    EXPECT_FALSE(problems.empty());
    try {
        problems.throw_if_any();
        FAIL() << "duplicates were not reported";
    } catch (const InputError& e) {
        ASSERT_EQ(e.diagnostics().size(), 2u);
        EXPECT_EQ(e.diagnostics()[0].to_string(),
                  "f.json:2:16: /b/c: duplicate key: a key may appear only once in an object");
        EXPECT_EQ(e.diagnostics()[1].to_string(),
                  "f.json:3:2: /a: duplicate key: a key may appear only once in an object");
    }
}

TEST(JsonProblems, DistinctKeysAreNoProblem)
{
    EXPECT_TRUE(JsonProblems("{\"a\": {\"a\": 1}, \"b\": [{\"a\": 1}, {\"a\": 2}]}", "f.json").empty());
}

}  // namespace
}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "io/json_locator.h"

#include <gtest/gtest.h>

namespace wb {
namespace {

TextPosition at(int line, int column)
{
    return {line, column};
}

TEST(PositionAtOffset, CountsLinesAndOneBasedColumns)
{
    const std::string_view text = "{\n  \"a\": 1\n}";
    EXPECT_EQ(position_at_offset(text, 0), at(1, 1));
    EXPECT_EQ(position_at_offset(text, 1), at(1, 2));  // the newline ends line 1
    EXPECT_EQ(position_at_offset(text, 4), at(2, 3));
    EXPECT_EQ(position_at_offset(text, 11), at(3, 1));
}

TEST(PositionAtOffset, PastTheEndIsJustAfterTheLastCharacter)
{
    EXPECT_EQ(position_at_offset("[1,2", 4), at(1, 5));
    EXPECT_EQ(position_at_offset("[1,2", 99), at(1, 5));
    EXPECT_EQ(position_at_offset("", 0), at(1, 1));
}

TEST(PositionAtOffset, CountsCharactersNotBytes)
{
    // "é" is two bytes; an editor shows the 1 in column 7, not 8.
    const std::string_view text = "{\"é\": 1}";
    EXPECT_EQ(position_at_offset(text, text.find('1')), at(1, 7));
}

TEST(PositionAtOffset, IgnoresAByteOrderMark)
{
    const std::string_view text = "\xEF\xBB\xBF{\"a\": 1}";
    EXPECT_EQ(position_at_offset(text, text.find('{')), at(1, 1));
}

TEST(PointerAppend, EscapesTildeAndSlash)
{
    EXPECT_EQ(pointer_append("", "nodes"), "/nodes");
    EXPECT_EQ(pointer_append("/nodes", std::size_t{3}), "/nodes/3");
    EXPECT_EQ(pointer_append("/cpus", "0-7:2/4"), "/cpus/0-7:2~14");
    EXPECT_EQ(pointer_append("", "a~b"), "/a~0b");
}

constexpr std::string_view kDoc = R"({
  "name": "x",
  "nodes": [
    {"packages": [{"llcs": []}]},
    {"repeat": 2, "packages": [ 7 ]}
  ],
  "cpus": {"0-7:2/4": {"speed": 1.50e0}},
  "empty": {}
})";

TEST(JsonLocator, FindsValuesInObjectsAndArrays)
{
    const JsonLocator loc(kDoc);
    EXPECT_EQ(loc.locate(""), at(1, 1));
    EXPECT_EQ(loc.locate("/name"), at(2, 11));
    EXPECT_EQ(loc.locate("/nodes"), at(3, 12));
    EXPECT_EQ(loc.locate("/nodes/0"), at(4, 5));
    EXPECT_EQ(loc.locate("/nodes/0/packages/0/llcs"), at(4, 28));
    EXPECT_EQ(loc.locate("/nodes/1/repeat"), at(5, 16));
    EXPECT_EQ(loc.locate("/nodes/1/packages/0"), at(5, 33));
    EXPECT_EQ(loc.locate("/empty"), at(8, 12));
}

TEST(JsonLocator, FindsKeysThatNeedEscapingInPointers)
{
    const JsonLocator loc(kDoc);
    EXPECT_TRUE(loc.contains("/cpus/0-7:2~14/speed"));
    EXPECT_EQ(loc.locate_key("/cpus/0-7:2~14"), at(7, 12));
    EXPECT_EQ(loc.locate("/cpus/0-7:2~14/speed"), at(7, 33));
}

TEST(JsonLocator, KeyPositionIsTheOpeningQuote)
{
    const JsonLocator loc(kDoc);
    EXPECT_EQ(loc.locate_key("/name"), at(2, 3));
    EXPECT_EQ(loc.locate_key("/nodes/1/repeat"), at(5, 6));
    // Elements have no key: their value is the place.
    EXPECT_EQ(loc.locate_key("/nodes/1"), at(5, 5));
}

TEST(JsonLocator, MissingMemberFallsBackToItsParentsKey)
{
    const JsonLocator loc(kDoc);
    EXPECT_FALSE(loc.contains("/cpus/0-7:2~14/capacity"));
    EXPECT_EQ(loc.locate("/cpus/0-7:2~14/capacity"), at(7, 12));
    // The parent is an array element: its opening brace.
    EXPECT_EQ(loc.locate("/nodes/0/llcs"), at(4, 5));
    // Deeper misses walk up as far as needed.
    EXPECT_EQ(loc.locate("/nodes/1/packages/0/llcs/0/cores"), at(5, 33));
    // Top-level members land on the document's opening brace.
    EXPECT_EQ(loc.locate("/schema_version"), at(1, 1));
}

TEST(JsonLocator, KeepsNumbersAsWritten)
{
    const JsonLocator loc(kDoc);
    EXPECT_EQ(loc.value_text("/cpus/0-7:2~14/speed"), "1.50e0");
    EXPECT_EQ(loc.value_text("/name"), "\"x\"");
    EXPECT_EQ(loc.value_text("/nodes/1/packages"), "[ 7 ]");
    EXPECT_EQ(loc.value_text("/missing"), "");
}

TEST(JsonLocator, DecodesEscapedKeysAsTheParserDoes)
{
    const JsonLocator loc(R"({"\u00e9t\u00e9": {"a\"b": 1, "\ud83d\ude00": 2}})");
    EXPECT_TRUE(loc.contains("/été/a\"b"));
    EXPECT_TRUE(loc.contains("/été/\xF0\x9F\x98\x80"));
}

TEST(JsonLocator, ReportsRepeatedKeysAtTheRepeat)
{
    const JsonLocator loc("{\n  \"a\": 1,\n  \"b\": {\"c\": 1, \"c\": 2},\n  \"a\": 3\n}");
    ASSERT_EQ(loc.duplicates().size(), 2u);
    EXPECT_EQ(loc.duplicates()[0].pointer, "/b/c");
    EXPECT_EQ(loc.duplicates()[0].key, at(3, 17));
    EXPECT_EQ(loc.duplicates()[1].pointer, "/a");
    EXPECT_EQ(loc.duplicates()[1].key, at(4, 3));
    // The value a parser keeps is the last one.
    EXPECT_EQ(loc.value_text("/a"), "3");
}

TEST(JsonLocator, MalformedTextIndexesWhatComesBeforeTheFault)
{
    const JsonLocator loc("{\"a\": [1, 2}, \"b\": 3}");
    EXPECT_TRUE(loc.contains("/a/1"));
    EXPECT_FALSE(loc.contains("/b"));
    EXPECT_EQ(loc.locate("/b"), at(1, 1));

    const JsonLocator empty("");
    EXPECT_EQ(empty.locate("/x"), TextPosition{});
}

TEST(JsonLocator, StopsIndexingHostileNesting)
{
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    const JsonLocator loc(deep);
    EXPECT_TRUE(loc.contains("/0/0/0"));
    std::string depth_300;
    for (int i = 0; i < 300; ++i)
        depth_300 += "/0";
    EXPECT_FALSE(loc.contains(depth_300));
}

}  // namespace
}  // namespace wb

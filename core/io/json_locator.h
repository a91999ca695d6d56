// SPDX-License-Identifier: Apache-2.0
//
// JsonLocator: where the values of a JSON text are, by JSON pointer (RFC 6901).
//
// nlohmann::json keeps no source positions, yet every message about a file
// must say line:column. So a loader parses with nlohmann and, to report, reads
// the same text again with this small tokenizer. It also keeps two things a
// DOM throws away: keys given twice in one object (nlohmann silently keeps the
// last), and the exact text of each number, so that a unit conversion can be
// done on the decimal as written and not on a rounded double.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace wb {

struct TextPosition {
    int line = 0;    // 1-based; 0 when unknown
    int column = 0;  // 1-based, in characters (UTF-8 code points), as editors count
    friend bool operator==(const TextPosition&, const TextPosition&) = default;
};

// The position of byte `offset` (0-based) of `text`. An offset at or past the
// end names the place just after the last character, where a parser that ran
// out of input stopped.
TextPosition position_at_offset(std::string_view text, std::size_t offset);

// `pointer` extended by one member or element, with '~' and '/' in the key
// escaped as "~0" and "~1".
std::string pointer_append(std::string_view pointer, std::string_view key);
std::string pointer_append(std::string_view pointer, std::size_t index);

class JsonLocator {
public:
    // Indexes `text` (copied). Meant for text a JSON parser accepted; on
    // malformed text it indexes what comes before the fault and no more, and
    // it stops at a nesting depth of 256.
    explicit JsonLocator(std::string_view text);

    bool contains(std::string_view pointer) const;

    // Where the value at `pointer` starts. A pointer that names nothing (a
    // required member that is missing) falls back to its nearest ancestor
    // that exists: that ancestor's key if it is an object member, else the
    // start of its value. So "missing key" lands on the object that lacks it.
    TextPosition locate(std::string_view pointer) const;

    // Like locate(), but for an object member the position of its key (the
    // opening quote): the place to blame for an unknown or repeated key.
    TextPosition locate_key(std::string_view pointer) const;

    // The value as written ("1.50e3", "\"x\"", "[1, 2]"); empty if missing.
    std::string_view value_text(std::string_view pointer) const;

    // Members whose key already appeared in the same object, in text order;
    // each with the position of the repeated key.
    struct Duplicate {
        std::string pointer;
        TextPosition key;
    };
    const std::vector<Duplicate>& duplicates() const { return duplicates_; }

private:
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    struct Entry {
        std::size_t key = kNone;  // offset of the key's opening quote; kNone for elements and the root
        std::size_t begin = 0;
        std::size_t end = 0;
    };

    void index();
    const Entry* find_or_ancestor(std::string_view pointer) const;
    TextPosition position(std::size_t offset) const;

    // Characters (not bytes) before each block of kBlock bytes, so that a
    // column on a long line (a minified file is one line) costs a block's
    // scan, not the whole line's: locating every value stays linear.
    static constexpr std::size_t kBlock = 4096;
    std::size_t chars_before(std::size_t offset) const;

    std::string text_;
    std::vector<std::size_t> line_starts_;
    std::vector<std::size_t> block_chars_;
    std::unordered_map<std::string, Entry> entries_;
    std::vector<Duplicate> duplicates_;
};

}  // namespace wb

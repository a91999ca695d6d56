// SPDX-License-Identifier: Apache-2.0
#include "io/json_locator.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

namespace wb {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool is_continuation_byte(char c)
{
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// Columns count characters, not bytes, so a name with an 'é' before the fault
// does not push the caret one place too far; a BOM is invisible in editors.
TextPosition column_in_line(std::string_view text, std::size_t line_start, int line, std::size_t offset)
{
    std::size_t from = line_start;
    if (from == 0 && text.starts_with(kBom) && offset >= kBom.size())
        from = kBom.size();
    int column = 1;
    for (std::size_t i = from; i < offset; ++i)
        if (!is_continuation_byte(text[i]))
            ++column;
    return {line, column};
}

void append_utf8(std::string& out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

bool read_hex4(std::string_view text, std::size_t pos, std::uint32_t& value)
{
    if (pos + 4 > text.size())
        return false;
    value = 0;
    for (std::size_t i = pos; i < pos + 4; ++i) {
        const char c = text[i];
        value <<= 4;
        if (c >= '0' && c <= '9')
            value |= static_cast<std::uint32_t>(c - '0');
        else if (c >= 'a' && c <= 'f')
            value |= static_cast<std::uint32_t>(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            value |= static_cast<std::uint32_t>(c - 'A' + 10);
        else
            return false;
    }
    return true;
}

constexpr std::size_t kFail = static_cast<std::size_t>(-1);
constexpr std::size_t kMaxDepth = 256;

// Reads the string whose opening quote is at `pos`, decoding it into `out`
// (if given) the way a JSON parser does, so that pointers built from keys
// match the ones built from the parsed document. Returns the offset just past
// the closing quote, or kFail.
std::size_t scan_string(std::string_view text, std::size_t pos, std::string* out)
{
    ++pos;
    while (pos < text.size()) {
        const char c = text[pos];
        if (c == '"')
            return pos + 1;
        if (c != '\\') {
            if (out)
                *out += c;
            ++pos;
            continue;
        }
        if (pos + 1 >= text.size())
            return kFail;
        const char e = text[pos + 1];
        pos += 2;
        if (!out)
            continue;  // a \uXXXX needs no decoding to be skipped: its digits are not quotes
        switch (e) {
        case '"':
        case '\\':
        case '/':
            *out += e;
            break;
        case 'b':
            *out += '\b';
            break;
        case 'f':
            *out += '\f';
            break;
        case 'n':
            *out += '\n';
            break;
        case 'r':
            *out += '\r';
            break;
        case 't':
            *out += '\t';
            break;
        case 'u': {
            std::uint32_t cp = 0;
            if (!read_hex4(text, pos, cp))
                return kFail;
            pos += 4;
            std::uint32_t low = 0;
            if (cp >= 0xD800 && cp < 0xDC00 && text.substr(pos, 2) == "\\u" && read_hex4(text, pos + 2, low) &&
                low >= 0xDC00 && low < 0xE000) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                pos += 6;
            }
            append_utf8(*out, cp);
            break;
        }
        default:
            return kFail;
        }
    }
    return kFail;
}

}  // namespace

TextPosition position_at_offset(std::string_view text, std::size_t offset)
{
    offset = std::min(offset, text.size());
    std::size_t line_start = 0;
    int line = 1;
    for (std::size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++line;
            line_start = i + 1;
        }
    }
    return column_in_line(text, line_start, line, offset);
}

std::string pointer_append(std::string_view pointer, std::string_view key)
{
    std::string out(pointer);
    out += '/';
    for (char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

std::string pointer_append(std::string_view pointer, std::size_t index)
{
    return std::string(pointer) + '/' + std::to_string(index);
}

JsonLocator::JsonLocator(std::string_view text) : text_(text)
{
    line_starts_.push_back(0);
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text_.size(); ++i) {
        if (i % kBlock == 0)
            block_chars_.push_back(chars);
        if (text_[i] == '\n')
            line_starts_.push_back(i + 1);
        chars += is_continuation_byte(text_[i]) ? 0 : 1;
    }
    index();
}

std::size_t JsonLocator::chars_before(std::size_t offset) const
{
    if (offset == 0)
        return 0;
    const std::size_t block = (offset - 1) / kBlock;
    std::size_t chars = block_chars_[block];
    for (std::size_t i = block * kBlock; i < offset; ++i)
        chars += is_continuation_byte(text_[i]) ? 0 : 1;
    return chars;
}

// One pass over the text with an explicit stack (no recursion, so a deeply
// nested hostile file cannot overflow ours), recording every value's pointer.
void JsonLocator::index()
{
    const std::size_t n = text_.size();
    std::size_t pos = text_.starts_with(kBom) ? kBom.size() : 0;

    struct Frame {
        bool object;
        std::string pointer;
        std::size_t count = 0;
    };
    std::vector<Frame> stack;
    std::string pointer;      // of the value about to be read
    std::size_t key = kNone;  // its key's offset, if it is a member

    auto skip_space = [&] {
        while (pos < n && is_space(text_[pos]))
            ++pos;
    };
    auto read_key = [&](const Frame& frame) {
        skip_space();
        if (pos >= n || text_[pos] != '"')
            return false;
        key = pos;
        std::string name;
        pos = scan_string(text_, pos, &name);
        if (pos == kFail)
            return false;
        skip_space();
        if (pos >= n || text_[pos] != ':')
            return false;
        ++pos;
        pointer = pointer_append(frame.pointer, name);
        return true;
    };

    while (true) {
        skip_space();
        if (pos >= n)
            return;
        const std::size_t begin = pos;
        const char c = text_[pos];
        if (key != kNone && entries_.count(pointer) != 0)
            duplicates_.push_back({pointer, position(key)});

        if (c == '{' || c == '[') {
            // Pointers grow with depth, so indexing a hostile 100000-deep
            // nest would take quadratic memory; no real document gets near.
            if (stack.size() >= kMaxDepth)
                return;
            ++pos;
            entries_[pointer] = Entry{key, begin, kNone};
            stack.push_back({c == '{', pointer});
            skip_space();
            if (pos < n && text_[pos] == (c == '{' ? '}' : ']')) {
                ++pos;
                entries_[pointer].end = pos;
                stack.pop_back();
            } else if (c == '{') {
                if (!read_key(stack.back()))
                    return;
                continue;
            } else {
                pointer = pointer_append(stack.back().pointer, std::size_t{0});
                key = kNone;
                continue;
            }
        } else {
            if (c == '"') {
                pos = scan_string(text_, pos, nullptr);
                if (pos == kFail)
                    return;
            } else {
                // Numbers and literals; what they are is the parser's business.
                while (pos < n && (std::isalnum(static_cast<unsigned char>(text_[pos])) || text_[pos] == '-' ||
                                   text_[pos] == '+' || text_[pos] == '.'))
                    ++pos;
                if (pos == begin)
                    return;
            }
            entries_[pointer] = Entry{key, begin, pos};
        }

        // After a value: close finished containers, then step to the next member.
        while (true) {
            if (stack.empty())
                return;
            skip_space();
            if (pos >= n)
                return;
            Frame& frame = stack.back();
            if (text_[pos] == ',') {
                ++pos;
                ++frame.count;
                if (frame.object) {
                    if (!read_key(frame))
                        return;
                } else {
                    pointer = pointer_append(frame.pointer, frame.count);
                    key = kNone;
                }
                break;
            }
            if (text_[pos] != (frame.object ? '}' : ']'))
                return;
            ++pos;
            entries_[frame.pointer].end = pos;
            stack.pop_back();
        }
    }
}

TextPosition JsonLocator::position(std::size_t offset) const
{
    offset = std::min(offset, text_.size());
    auto after = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    const auto line = static_cast<std::size_t>(after - line_starts_.begin());  // 1-based
    const std::size_t line_start = line_starts_[line - 1];
    // As column_in_line() counts: characters from the line's start, a BOM
    // (one character of three bytes) not among them.
    std::size_t column = chars_before(offset) - chars_before(line_start) + 1;
    if (line_start == 0 && std::string_view(text_).starts_with(kBom) && offset >= kBom.size())
        --column;
    return {static_cast<int>(line), static_cast<int>(column)};
}

const JsonLocator::Entry* JsonLocator::find_or_ancestor(std::string_view pointer) const
{
    while (true) {
        if (auto it = entries_.find(std::string(pointer)); it != entries_.end())
            return &it->second;
        if (pointer.empty())
            return nullptr;
        const std::size_t slash = pointer.rfind('/');
        pointer = slash == std::string_view::npos ? std::string_view() : pointer.substr(0, slash);
    }
}

bool JsonLocator::contains(std::string_view pointer) const
{
    return entries_.count(std::string(pointer)) != 0;
}

TextPosition JsonLocator::locate(std::string_view pointer) const
{
    if (auto it = entries_.find(std::string(pointer)); it != entries_.end())
        return position(it->second.begin);
    const Entry* ancestor = find_or_ancestor(pointer);
    if (!ancestor)
        return {};
    return position(ancestor->key != kNone ? ancestor->key : ancestor->begin);
}

TextPosition JsonLocator::locate_key(std::string_view pointer) const
{
    const Entry* entry = find_or_ancestor(pointer);
    if (!entry)
        return {};
    return position(entry->key != kNone ? entry->key : entry->begin);
}

std::string_view JsonLocator::value_text(std::string_view pointer) const
{
    auto it = entries_.find(std::string(pointer));
    if (it == entries_.end() || it->second.end == kNone)
        return {};
    return std::string_view(text_).substr(it->second.begin, it->second.end - it->second.begin);
}

}  // namespace wb

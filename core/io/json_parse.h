// SPDX-License-Identifier: Apache-2.0
//
// Parsing a user's JSON file, for the readers of machine and workload files:
// a syntax error, or a number too large for a double, becomes an InputError
// that names the file, the line and column, and what the parser expected.
// Include only from core/io sources that include <nlohmann/json.hpp>.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "io/input_error.h"
#include "io/json_locator.h"

namespace wb {

// The deepest nesting of arrays and objects a file may have. The formats
// need under ten levels; the bound keeps a hostile file from exhausting the
// stack of the readers that walk the parsed tree.
inline constexpr int kMaxJsonDepth = 256;

// Throws an InputError at the first bracket deeper than kMaxJsonDepth.
void check_json_depth(std::string_view text, const std::string& file_label);

// J is nlohmann::json or nlohmann::ordered_json.
template <class J>
J parse_json_text(std::string_view text, const std::string& file_label)
{
    check_json_depth(text, file_label);
    try {
        return J::parse(text.begin(), text.end());
    } catch (const typename J::parse_error& e) {
        // e.byte is 1-based and names the character the parser stopped at.
        const TextPosition at = position_at_offset(text, e.byte > 0 ? e.byte - 1 : 0);
        std::string what = e.what();
        if (std::size_t colon = what.find(": "); what.starts_with("[json.exception") && colon != std::string::npos)
            what = what.substr(colon + 2);
        throw InputError(Diagnostic{file_label, at.line, at.column, "", "invalid JSON: " + what});
    } catch (const typename J::exception& e) {
        // A number too large for a double ("1e400"); the message quotes it.
        std::string what = e.what();
        TextPosition at;
        if (std::size_t open = what.find('\''), close = what.rfind('\''); open != std::string::npos && close > open) {
            if (std::size_t found = text.find(what.substr(open + 1, close - open - 1)); found != std::string::npos)
                at = position_at_offset(text, found);
        }
        if (std::size_t bracket = what.find("] "); bracket != std::string::npos)
            what = what.substr(bracket + 2);
        throw InputError(Diagnostic{file_label, at.line, at.column, "",
                                    "invalid JSON: " + what + "; expected a number within the range of a double"});
    }
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include <nlohmann/json.hpp>

#include "io/json_parse.h"

namespace wb {

void check_json_depth(std::string_view text, const std::string& file_label)
{
    int depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;  // an escaped character, perhaps a quote
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth) {
                const TextPosition at = position_at_offset(text, i);
                throw InputError(Diagnostic{file_label, at.line, at.column, "",
                                            "nested more than " + std::to_string(kMaxJsonDepth) +
                                                " levels deep; expected a file of the documented format"});
            }
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
}

}  // namespace wb

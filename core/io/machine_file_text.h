// SPDX-License-Identifier: Apache-2.0
//
// Private to core/io: the pieces of the machine-file format that both reading
// (topology_json_read.cpp) and writing (topology_json_write.cpp) need: the
// schema version, the names a file may use, cost units with their exact
// decimal conversion, and JSON string quoting for text and messages. The
// public interface is io/topology_json.h; nothing outside core/io includes
// this header. It needs no nlohmann/json.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "topology/costs.h"

namespace wb::machine_file_text {

inline constexpr int kSchemaVersion = 1;

// ----------------------------------------------------------------------------
// Numbers with units. A conversion on the parsed double (1.9 * 1000) can miss
// the double nearest 1900 by an ulp, and then a saved file would not read back
// equal. Shifting the decimal exponent of the text as written and parsing once
// (decimal_scaled() in topology_json_read.cpp) gives the correctly rounded
// value, and format_scaled() writes the exact inverse, so load(save(m)) == m
// holds for every double.

// The shortest decimal T with decimal_scaled(T, exp10) == value, written the
// way a person would ("1.5", "0.25", "1e-9").
std::string format_scaled(double value, int exp10);

struct UnitScale {
    std::string_view unit;
    int exp10;  // file value * 10^exp10 = stored value
};

// The units a cost of `kind` may be given in, the one it is stored in (exp10 0)
// first; none for a ratio, which is a plain number.
std::span<const UnitScale> units_of(CostKind kind);

// ----------------------------------------------------------------------------
// Names and words.

// `s` as a JSON string literal, quotes included.
std::string json_string(std::string_view s);

// Whether `name` follows kNameRule.
bool valid_machine_name(std::string_view name);

inline constexpr std::string_view kNameRule =
    "a name of lowercase letters, digits, '.', '_' and '-' that starts with a letter or digit";

inline constexpr std::string_view kNumberingNames[] = {"core-major", "thread-major"};

// strerror(errno), for a failed open, read or write.

}  // namespace wb::machine_file_text

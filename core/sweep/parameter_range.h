// SPDX-License-Identifier: Apache-2.0
//
// The values a sweep gives one workload parameter: a list as written, an
// arithmetic range (from, to, step) or a geometric one (from, to, factor),
// each value kept as the text that goes into the workload spec and, when it
// is a number, as that number for plotting.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace wb {

struct ParameterValue {
    std::string text;               // as in the spec: "4", "0.25", "500us"
    std::optional<double> number;   // 4, 0.25, 500 (a number, with a unit after it or not); none for "socket", "0-3"
    friend bool operator==(const ParameterValue&, const ParameterValue&) = default;
};

// A range expands to at most this many values: far above any plot's points,
// low enough that a typo ("step": 0.0001) is an error and not a hang.
inline constexpr std::size_t kMaxRangeValues = 10000;

struct RangeValues {
    std::vector<double> values;
    std::string error;  // what is wrong with the range; empty when it expanded
};

// from, from + step, ... up to `to` inclusive (each value from + i * step, so
// no error accumulates). Needs step > 0 and to >= from.
RangeValues arithmetic_range(double from, double to, double step);

// from, from * factor, ... up to `to` inclusive. Needs from > 0, factor > 1
// and to >= from.
RangeValues geometric_range(double from, double to, double factor);

// The text of a number as a workload spec takes it: whole numbers without a
// decimal point ("4"), others with 12 significant digits, which drops the
// binary noise of a range ("0.3", not "0.30000000000000004").
std::string spec_number_text(double value);

// A value read from a list or made from a range (`unit` appended: "500" +
// "us"). It has a number when the text is one, maybe followed by a unit.
ParameterValue parameter_value(std::string text);

}  // namespace wb

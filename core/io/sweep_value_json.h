// SPDX-License-Identifier: Apache-2.0
//
// A swept parameter's value in JSON, as the canonical sweep and each
// point's "parameters" write it: a plain number as a number (a whole one
// without a decimal point), "500us" or "socket" as a string. Include only
// from core/io sources that include <nlohmann/json.hpp>.
#pragma once

#include <cmath>

#include <nlohmann/json.hpp>

#include "sweep/parameter_range.h"

namespace wb {

inline nlohmann::ordered_json parameter_value_json(const ParameterValue& v)
{
    if (!v.number || v.text != spec_number_text(*v.number))
        return v.text;
    if (std::fabs(*v.number) < 9.007199254740992e15 && *v.number == std::nearbyint(*v.number))
        return static_cast<std::int64_t>(*v.number);
    return *v.number;
}

}  // namespace wb

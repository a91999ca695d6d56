// SPDX-License-Identifier: Apache-2.0
#include "topology/costs.h"

namespace wb {

std::string_view cost_base_unit(CostKind kind)
{
    switch (kind) {
    case CostKind::Time:
        return "ns";
    case CostKind::Ratio:
        return "";
    case CostKind::Frequency:
        return "GHz";
    case CostKind::Rate:
        return "Hz";
    case CostKind::Bandwidth:
        return "GB/s";
    }
    return "";
}

std::array<CostValue, kCostCount> CostModel::defaults()
{
    std::array<CostValue, kCostCount> values{};
    for (std::size_t i = 0; i < kCostCount; ++i)
        values[i].value = kCostInfo[i].default_value;
    return values;
}

bool cost_by_name(std::string_view name, Cost& out)
{
    for (std::size_t i = 0; i < kCostCount; ++i) {
        if (kCostInfo[i].name == name) {
            out = static_cast<Cost>(i);
            return true;
        }
    }
    return false;
}

}  // namespace wb

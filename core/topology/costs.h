// SPDX-License-Identifier: Apache-2.0
//
// CostModel: what each basic operation costs on a machine. The engine charges
// these; they are the only calibration knobs of the model and each one is a
// physical quantity with a unit and, in a machine file, a source.
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace wb {

enum class CostKind { Time, Ratio, Frequency, Rate, Bandwidth };

enum class Cost {
#define WB_COST(name, kind, def, doc) name,
#include "topology/costs.def"
#undef WB_COST
};

inline constexpr std::size_t kCostCount = 0
#define WB_COST(name, kind, def, doc) +1
#include "topology/costs.def"
#undef WB_COST
    ;

struct CostInfo {
    std::string_view name;
    CostKind kind;
    double default_value;  // in the kind's base unit: ns, ratio, GHz, Hz or GB/s
    std::string_view doc;
};

inline constexpr std::array<CostInfo, kCostCount> kCostInfo{{
#define WB_COST(name, kind, def, doc) {#name, CostKind::kind, def, doc},
#include "topology/costs.def"
#undef WB_COST
}};

// The physically meaningful range of a kind, in its base unit. A value
// outside it is a mistake, and some would break the engine (HZ below 1
// divides by zero; a 1 ns tick never lets a run end).
struct CostRange {
    double min;  // inclusive
    double max;  // inclusive
    std::string_view text;
};
constexpr CostRange cost_range(CostKind kind)
{
    switch (kind) {
    case CostKind::Time: return {0, 10e9, "0 to 10 s"};
    case CostKind::Ratio: return {0, 100, "0 to 100"};
    case CostKind::Frequency: return {0.01, 100, "0.01 to 100 GHz"};
    case CostKind::Rate: return {10, 10000, "10 to 10000 Hz"};  // CONFIG_HZ is 100 to 1000
    case CostKind::Bandwidth: return {0.001, 1e5, "0.001 to 100000 GB/s"};
    }
    return {0, 0, ""};
}

// The base unit a kind is stored in ("ns", "", "GHz", "Hz", "GB/s").
std::string_view cost_base_unit(CostKind kind);

struct CostValue {
    double value = 0;    // in the kind's base unit
    std::string source;  // where the number comes from; empty = the built-in default
    friend bool operator==(const CostValue&, const CostValue&) = default;
};

struct CostModel {
    std::array<CostValue, kCostCount> values = defaults();

    double operator[](Cost c) const { return values[static_cast<std::size_t>(c)].value; }
    CostValue& at(Cost c) { return values[static_cast<std::size_t>(c)]; }
    const CostValue& at(Cost c) const { return values[static_cast<std::size_t>(c)]; }

    static std::array<CostValue, kCostCount> defaults();
    friend bool operator==(const CostModel&, const CostModel&) = default;
};

// Looks a cost up by its name in costs.def; false if there is none.
bool cost_by_name(std::string_view name, Cost& out);

}  // namespace wb

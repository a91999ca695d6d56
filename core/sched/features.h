// SPDX-License-Identifier: Apache-2.0
//
// FeatureSet: the per-run switches of features.def. There are no global
// toggles; code asks feats(Feat::SIS_UTIL) on the run's own set, the way
// fair.c asks sched_feat(SIS_UTIL).
#pragma once

#include <array>
#include <bitset>
#include <string>
#include <string_view>

namespace wb {

enum class Feat {
#define WB_FEAT(name, def, doc) name,
#include "sched/features.def"
#undef WB_FEAT
};

inline constexpr std::size_t kFeatCount = 0
#define WB_FEAT(name, def, doc) +1
#include "sched/features.def"
#undef WB_FEAT
    ;

struct FeatInfo {
    std::string_view name;
    bool default_on;
    std::string_view doc;
};

inline constexpr std::array<FeatInfo, kFeatCount> kFeatInfo{{
#define WB_FEAT(name, def, doc) {#name, def, doc},
#include "sched/features.def"
#undef WB_FEAT
}};

class FeatureSet {
public:
    FeatureSet();  // the kernel's defaults

    bool operator()(Feat f) const { return bits_.test(static_cast<std::size_t>(f)); }
    void set(Feat f, bool on) { bits_.set(static_cast<std::size_t>(f), on); }

    // Applies "NO_WA_BIAS,SIS_UTIL" (comma separated; NO_ turns off). Returns
    // an empty string, or what is wrong: the unknown name and the valid ones.
    std::string apply(std::string_view list);

    // The switches that differ from the defaults, in the same syntax.
    std::string changes() const;

    friend bool operator==(const FeatureSet&, const FeatureSet&) = default;

private:
    std::bitset<kFeatCount> bits_;
};

}  // namespace wb

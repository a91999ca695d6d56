// SPDX-License-Identifier: Apache-2.0
#include "sched/features.h"

namespace wb {

FeatureSet::FeatureSet()
{
    for (std::size_t i = 0; i < kFeatCount; ++i)
        bits_.set(i, kFeatInfo[i].default_on);
}

std::string FeatureSet::apply(std::string_view list)
{
    std::size_t pos = 0;
    while (pos < list.size()) {
        std::size_t comma = list.find(',', pos);
        std::string_view item =
            list.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
        pos = comma == std::string_view::npos ? list.size() : comma + 1;
        if (item.empty())
            continue;
        const bool on = item.substr(0, 3) != "NO_";
        const std::string_view name = on ? item : item.substr(3);
        bool found = false;
        for (std::size_t i = 0; i < kFeatCount; ++i) {
            if (kFeatInfo[i].name == name) {
                bits_.set(i, on);
                found = true;
            }
        }
        if (!found) {
            std::string valid;
            for (const FeatInfo& f : kFeatInfo)
                valid += (valid.empty() ? "" : ", ") + std::string(f.name);
            return "unknown scheduler feature '" + std::string(name) + "'; expected one of " + valid +
                   " (prefix NO_ to turn one off)";
        }
    }
    return {};
}

std::string FeatureSet::changes() const
{
    std::string out;
    for (std::size_t i = 0; i < kFeatCount; ++i) {
        if (bits_.test(i) == kFeatInfo[i].default_on)
            continue;
        out += (out.empty() ? "" : ",") + std::string(bits_.test(i) ? "" : "NO_") + std::string(kFeatInfo[i].name);
    }
    return out;
}

}  // namespace wb

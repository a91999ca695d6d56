// SPDX-License-Identifier: Apache-2.0
#include "topology/sd_flags.h"

#include <array>
#include <utility>

namespace wb {

namespace {

constexpr std::array<std::pair<unsigned, std::string_view>, 14> kNames{{
    {SD_BALANCE_NEWIDLE, "SD_BALANCE_NEWIDLE"},
    {SD_BALANCE_EXEC, "SD_BALANCE_EXEC"},
    {SD_BALANCE_FORK, "SD_BALANCE_FORK"},
    {SD_BALANCE_WAKE, "SD_BALANCE_WAKE"},
    {SD_WAKE_AFFINE, "SD_WAKE_AFFINE"},
    {SD_ASYM_CPUCAPACITY, "SD_ASYM_CPUCAPACITY"},
    {SD_ASYM_CPUCAPACITY_FULL, "SD_ASYM_CPUCAPACITY_FULL"},
    {SD_SHARE_CPUCAPACITY, "SD_SHARE_CPUCAPACITY"},
    {SD_CLUSTER, "SD_CLUSTER"},
    {SD_SHARE_LLC, "SD_SHARE_LLC"},
    {SD_SERIALIZE, "SD_SERIALIZE"},
    {SD_ASYM_PACKING, "SD_ASYM_PACKING"},
    {SD_PREFER_SIBLING, "SD_PREFER_SIBLING"},
    {SD_NUMA, "SD_NUMA"},
}};

}  // namespace

std::vector<std::string_view> sd_flag_names(unsigned flags)
{
    std::vector<std::string_view> names;
    for (const auto& [flag, name] : kNames)
        if (flags & flag)
            names.push_back(name);
    return names;
}

unsigned sd_flag_by_name(std::string_view name)
{
    for (const auto& [flag, full] : kNames)
        if (full == name || full.substr(3) == name)
            return flag;
    return 0;
}

}  // namespace wb

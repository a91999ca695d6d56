// SPDX-License-Identifier: Apache-2.0
//
// How far apart two CPUs are, in the classes users reason with: the same
// CPU, SMT siblings, cores of one cluster, one LLC, another LLC of the node,
// another node. Placement metrics and the GUI's arrows use these classes.
#pragma once

#include <array>
#include <string_view>

#include "topology/cpumask.h"

namespace wb {

struct Machine;

enum class DistanceClass { SameCpu, SmtSibling, Cluster, Llc, OtherLlc, OtherNode };
inline constexpr std::size_t kDistanceClassCount = 6;

inline constexpr std::array<std::string_view, kDistanceClassCount> kDistanceClassNames{
    "same_cpu", "smt_sibling", "cluster", "llc", "other_llc", "other_node"};

inline std::string_view distance_class_name(DistanceClass c)
{
    return kDistanceClassNames[static_cast<std::size_t>(c)];
}

// The closest class that holds: a cluster of one core counts as nothing, so
// two CPUs of different single-core clusters in one LLC are "llc".
DistanceClass distance_class(const Machine& machine, CpuId a, CpuId b);

}  // namespace wb

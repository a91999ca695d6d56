// SPDX-License-Identifier: Apache-2.0
#include "topology/distance.h"

#include "topology/machine.h"

namespace wb {

[[gnu::hot]] DistanceClass distance_class(const Machine& m, CpuId a, CpuId b)
{
    const CpuTopo& x = m.cpus[static_cast<std::size_t>(a)];
    const CpuTopo& y = m.cpus[static_cast<std::size_t>(b)];
    if (a == b)
        return DistanceClass::SameCpu;
    if (x.core == y.core)
        return DistanceClass::SmtSibling;
    if (x.cluster == y.cluster)
        return DistanceClass::Cluster;  // two cores in one cluster: a real, multi-core cluster
    if (x.llc == y.llc)
        return DistanceClass::Llc;
    if (x.node == y.node)
        return DistanceClass::OtherLlc;
    return DistanceClass::OtherNode;
}

}  // namespace wb

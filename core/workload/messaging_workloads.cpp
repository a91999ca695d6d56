// SPDX-License-Identifier: Apache-2.0
//
// The catalog group of message-passing workloads: hackbench, schbench, tee.
#include "workload/workload_params.h"

namespace wb {

void add_messaging_workloads(std::vector<WorkloadEntry>& catalog)
{
    (void)catalog;
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// The catalog group of service and compute workloads: io-uring, gemm, web, json.
#include "workload/workload_params.h"

namespace wb {

void add_service_workloads(std::vector<WorkloadEntry>& catalog)
{
    (void)catalog;
}

}  // namespace wb

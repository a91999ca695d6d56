// SPDX-License-Identifier: Apache-2.0
//
// Workloads by name: "pipe:loops=1000000,cpus=78-79" names a workload and
// its parameters, named after the real tool's options. The CLI, scenario
// files and the GUI all build workloads through make_workload().
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "workload/workload.h"
#include "workload/workload_params.h"

namespace wb {

// Every workload this build knows, for `wakesim list workloads` and the GUI.
const std::vector<WorkloadInfo>& workload_catalog();

// Builds the workload a spec names. Throws InputError naming the spec, the
// parameter at fault and what was expected (the valid names or values).
std::unique_ptr<Workload> make_workload(std::string_view spec);

// The spec's parameters with every default filled in, for a front end that
// runs the real program (wakesim kernel run); the same errors as make_workload().
WorkloadParams workload_params(std::string_view spec);

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// `wakesim trace to-workload`: the selected tasks of a recorded trace
// written as a json workload (docs/workload-json.md, "From a real trace"),
// so the shape of a real run can be simulated under any policy.
#pragma once

#include <string>
#include <vector>

namespace wb::cli {

// The words after `trace to-workload`.
int trace_to_workload_command(const std::vector<std::string>& args);

}  // namespace wb::cli

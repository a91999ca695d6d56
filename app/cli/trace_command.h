// SPDX-License-Identifier: Apache-2.0
//
// `wakesim trace import`: a recorded trace (tracefs, trace-cmd report, perf
// script) read on a machine's topology and reported as `wakesim run`
// reports a simulated run.
#pragma once

#include <string>
#include <vector>

namespace wb::cli {

int trace_command(const std::vector<std::string>& args);

}  // namespace wb::cli

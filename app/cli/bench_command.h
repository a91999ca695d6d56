// SPDX-License-Identifier: Apache-2.0
//
// `wakesim bench`: how many simulated wakeups per second of wall time this
// build manages, on the standard cases of docs/performance.md.
#pragma once

#include <string>
#include <vector>

namespace wb::cli {

int bench_command(const std::vector<std::string>& args);

}  // namespace wb::cli

// SPDX-License-Identifier: Apache-2.0
//
// How far a run has come, for the status bar.
#pragma once

#include <string>

namespace wb {

struct RunSnapshot;

// When the workload's spec says where it ends: a loop count (pipe) or a run
// time (schbench, tee, io-uring); the fraction done, or -1 when unknown.
double progress_of(const std::string& spec, const RunSnapshot& snap);

}  // namespace wb

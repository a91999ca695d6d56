// SPDX-License-Identifier: Apache-2.0
//
// Writing a json workload file (docs/workload-json.md), the reverse of
// parse_workload_json(): what `wakesim trace to-workload` saves. One phase
// a line, so a long timeline stays readable and diffs well; keys at their
// defaults are left out; durations in the largest unit that keeps them
// exact ("8us", "1500us", "2ms"), so reading the file back gives the same
// nanoseconds.
#pragma once

#include <string>

#include "io/workload_json.h"

namespace wb {

std::string workload_to_json(const WorkloadFile& file);

// "8us", "1500ns": the largest of s, ms, us, ns that divides `t` exactly.
std::string exact_duration(Time t);

}  // namespace wb

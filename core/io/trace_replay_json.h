// SPDX-License-Identifier: Apache-2.0
//
// `wakesim trace replay`'s JSON: --json writes each policy's agreement
// figures under the policy's name; --record writes one decision record per
// replayed wakeup and policy, as `wakesim run --record` writes them, with
// the policy, the kernel's CPU and the sched_waking's line added.
#pragma once

#include <string>

namespace wb {

struct DecisionRecord;
struct ReplayResult;
struct TraceSource;

std::string replay_result_to_json(const TraceSource& source, const ReplayResult& result);

// One line, no trailing newline.
std::string replay_record_to_json(const std::string& policy, const DecisionRecord& rec, int kernel_cpu, int line);

}  // namespace wb

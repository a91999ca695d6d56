// SPDX-License-Identifier: Apache-2.0
//
// The JSON documents of a run: the full result (`wakesim run --json`) and
// one JSON line per wakeup decision (`--record`).
#pragma once

#include <cstdint>
#include <string>

#include "base/sim_time.h"

namespace wb {

struct DecisionRecord;
struct RunMetrics;
struct Headline;

// What was run, as the user named it, so a result file says how to redo it.
struct RunInfo {
    std::string machine;
    std::string workload;
    std::string policy;
    std::string features;  // the switches that differ from the defaults ("NO_WA_BIAS")
    std::uint64_t seed = 0;
};

std::string run_result_to_json(const RunInfo& info, bool finished, Time elapsed, double ops, const Headline& headline,
                               const RunMetrics& metrics);

// One line, no trailing newline.
std::string decision_record_to_json(const DecisionRecord& rec);

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// A sweep: a grid of runs over machines, workloads whose parameters take
// ranges of values, policies, scheduler feature sets and seeds, as a sweep
// file declares it (docs/sweep-format.md). Plain data; io/sweep_json.h reads
// and writes it, sweep/sweep_grid.h numbers its points.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sweep/parameter_range.h"

namespace wb {

struct SweepParameter {
    std::string name;  // "groups"
    std::vector<ParameterValue> values;
    friend bool operator==(const SweepParameter&, const SweepParameter&) = default;
};

struct SweepWorkload {
    std::string label;     // "hackbench" (default: the spec)
    std::string workload;  // the spec the parameters are set in: "hackbench:loops=200"
    // The swept parameters, in the file's order; every combination is run,
    // the first parameter varying slowest.
    std::vector<SweepParameter> parameters;
    friend bool operator==(const SweepWorkload&, const SweepWorkload&) = default;
};

struct SweepSpec {
    std::string name;
    std::string description;
    std::vector<std::string> machines;  // as written: shipped names, synthetic:..., machine files
    std::vector<SweepWorkload> workloads;
    std::vector<std::string> policies;  // policy specs with their switches; the first is the reference
    std::vector<std::string> features;  // feature sets, one per variant; "" is the kernel's defaults
    std::vector<std::uint64_t> seeds;
    friend bool operator==(const SweepSpec&, const SweepSpec&) = default;
};

}  // namespace wb

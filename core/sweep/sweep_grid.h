// SPDX-License-Identifier: Apache-2.0
//
// SweepGrid: the points of a sweep, numbered. A point is one run: a machine,
// a workload with one value for each of its swept parameters, a feature set,
// a policy and a seed. Index order is machine, workload, parameter values
// (the first parameter slowest), features, policy, seed: the seeds of one
// curve point are neighbours. Points are decoded from their index, so a
// sweep of a million points costs no memory until it runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sweep/sweep_spec.h"

namespace wb {

struct SweepPoint {
    std::size_t machine = 0;
    std::size_t workload = 0;
    std::size_t combination = 0;  // which values of the workload's parameters (mixed radix, first slowest)
    std::size_t features = 0;
    std::size_t policy = 0;
    std::size_t seed = 0;  // an index into SweepSpec::seeds
    friend bool operator==(const SweepPoint&, const SweepPoint&) = default;
};

// How many value combinations a workload's parameters have (1 when none is
// swept), and the values of one of them, in the workload's order.
std::size_t combination_count(const SweepWorkload& workload);
std::vector<std::pair<std::string, const ParameterValue*>> combination_values(const SweepWorkload& workload,
                                                                              std::size_t combination);

// The most points a sweep may have: a sweep file that asks for more is
// almost surely a mistake (a range with a tiny step), and the per-point
// bookkeeping (16 bytes a point) stays far below the memory of one run.
inline constexpr std::uint64_t kMaxSweepPoints = 10'000'000;

class SweepGrid {
public:
    // `spec` must outlive the grid.
    explicit SweepGrid(const SweepSpec& spec);

    const SweepSpec& spec() const { return spec_; }
    std::size_t size() const { return size_; }
    SweepPoint point(std::size_t index) const;
    std::size_t index_of(const SweepPoint& point) const;

    std::size_t combinations(std::size_t w) const { return combination_count(spec_.workloads[w]); }
    // The parameter values of a point, in its workload's order.
    std::vector<std::pair<std::string, const ParameterValue*>> parameters(const SweepPoint& point) const
    {
        return combination_values(spec_.workloads[point.workload], point.combination);
    }
    // The workload spec of a point: the workload's spec with its swept
    // parameters set ("hackbench:loops=200,groups=4").
    std::string workload_spec(const SweepPoint& point) const;

private:
    const SweepSpec& spec_;
    std::vector<std::size_t> workload_first_;  // within a machine's block, the first point of each workload
    std::size_t per_machine_ = 0;
    std::size_t per_combination_ = 0;  // features x policies x seeds
    std::size_t size_ = 0;
};

// `spec` with parameters set to the values given, in order: a parameter
// already in the spec takes the new value where it stood, a new one is
// appended. Values may hold commas (a cpulist), as specs allow.
std::string with_parameters(std::string_view spec, const std::vector<std::pair<std::string, std::string>>& values);

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// PointResult: what a sweep keeps of one run. A run's full metrics hold two
// latency histograms (some 100 KB); a sweep keeps only the figures a curve
// plots, a few hundred bytes a point, so its memory does not grow with the
// runs' length and stays small in the number of points.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "metrics/run_figures.h"
#include "topology/distance.h"
#include "workload/workload.h"

namespace wb {

struct RunOutcome;

// A latency distribution's summary, as `wakesim run --json` gives it.
struct LatencySummary {
    std::uint64_t count = 0;
    std::int64_t p50 = 0, p90 = 0, p99 = 0, p99_9 = 0, max = 0;  // ns
    double mean = 0;                                              // ns
    friend bool operator==(const LatencySummary&, const LatencySummary&) = default;
};

struct PointResult {
    std::size_t index = 0;  // the point's index in its SweepGrid
    bool finished = false;  // false: the run hit its time limit
    std::int64_t elapsed_ns = 0;
    std::uint64_t events = 0;  // simulated events: what the run cost
    Headline headline;
    std::vector<double> figures;  // run_figure_table()'s figures, in its order
    LatencySummary wakeup_latency_ns;
    LatencySummary run_delay_ns;
    std::array<double, kDistanceClassCount> placement{};  // fraction of wakeups by distance from the waker's CPU
};

bool operator==(const PointResult& a, const PointResult& b);

PointResult point_result(std::size_t index, const RunOutcome& outcome);

// A figure of a point that a sweep can plot against a swept parameter.
struct SweepFigure {
    std::string_view name;   // "wakeup_latency_p99_us", "cpu_migrations_per_sec"
    std::string_view label;  // "wakeup latency p99"
    std::string_view unit;   // "us", "" for a plain number; the headline's is the workload's own
    std::string_view group;  // figures of one group are panels of one chart: "wakeup latency"
    enum class Source { Headline, RunFigure, WakeupLatency, RunDelay, Placement } source;
    std::size_t slot = 0;  // the run figure's index, the percentile's (p50, p90, p99, p99.9), the class's
};

// The figure's value at a point; latencies in microseconds.
double figure_value(const SweepFigure& figure, const PointResult& point);

// Every figure: the headline, run_figure_table()'s figures, the wakeup
// latency and run delay percentiles in microseconds, placement fractions.
std::span<const SweepFigure> sweep_figures();
const SweepFigure* find_sweep_figure(std::string_view name);

}  // namespace wb

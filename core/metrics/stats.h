// SPDX-License-Identifier: Apache-2.0
//
// Summary statistics for repeated runs, as the published comparisons report
// them: mean, median, sample standard deviation, and the change of one
// policy's mean against a reference in percent with a 95% confidence
// interval (Welch's t, unequal variances).
//
// Spread and intervals need two runs: with one they are undefined, and are
// held as an empty optional rather than as 0, which would read as "no
// spread at all". Every writer (text table, CSV, JSON, the headline chart)
// shows the empty optional its own way (n/a, an empty field, null, no
// whisker).
#pragma once

#include <optional>
#include <vector>

namespace wb {

struct Summary {
    int n = 0;
    double mean = 0;
    double median = 0;
    std::optional<double> stddev;  // sample standard deviation (n - 1); none for n < 2
    std::optional<double> ci95;    // half-width of the 95% confidence interval of the mean; none for n < 2
};

Summary summarize(const std::vector<double>& values);

struct Change {
    // (mean - reference mean) / reference mean x 100; none when either side
    // has no runs or the reference mean is 0.
    std::optional<double> percent;
    // Half-width, in percentage points; none unless both sides have two
    // runs or more.
    std::optional<double> ci95;
};

// The change of `sample` against `reference`. The interval is Welch's
// interval for the difference of the means, scaled by the reference mean.
Change change_against(const std::vector<double>& reference, const std::vector<double>& sample);

// The two-sided 95% quantile of Student's t with `df` degrees of freedom
// (df may be fractional, as Welch's is).
double student_t95(double df);

}  // namespace wb

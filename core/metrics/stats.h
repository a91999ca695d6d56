// SPDX-License-Identifier: Apache-2.0
//
// Summary statistics for repeated runs, as the published comparisons report
// them: mean, median, sample standard deviation, and the change of one
// policy's mean against a reference in percent with a 95% confidence
// interval (Welch's t, unequal variances).
#pragma once

#include <vector>

namespace wb {

struct Summary {
    int n = 0;
    double mean = 0;
    double median = 0;
    double stddev = 0;  // sample standard deviation (n - 1); 0 for n < 2
    double ci95 = 0;    // half-width of the 95% confidence interval of the mean
};

Summary summarize(const std::vector<double>& values);

struct Change {
    double percent = 0;  // (mean - reference mean) / reference mean x 100
    double ci95 = 0;     // half-width, in percentage points
};

// The change of `sample` against `reference`. The interval is Welch's
// interval for the difference of the means, scaled by the reference mean.
Change change_against(const std::vector<double>& reference, const std::vector<double>& sample);

// The two-sided 95% quantile of Student's t with `df` degrees of freedom
// (df may be fractional, as Welch's is).
double student_t95(double df);

}  // namespace wb

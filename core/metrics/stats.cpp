// SPDX-License-Identifier: Apache-2.0
#include "metrics/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace wb {

namespace {

// The regularized incomplete beta function I_x(a, b), by the continued
// fraction (modified Lentz), for the t distribution's CDF.
double incomplete_beta(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    const double ln_front = std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
    if (x > (a + 1) / (a + b + 2))
        return 1 - incomplete_beta(b, a, 1 - x);
    const double tiny = 1e-300;
    double f = 1, c = 1, d = 0;
    for (int i = 0; i <= 400; ++i) {
        const int m = i / 2;
        double numerator;
        if (i == 0)
            numerator = 1;
        else if (i % 2 == 0)
            numerator = (m * (b - m) * x) / ((a + 2.0 * m - 1) * (a + 2.0 * m));
        else
            numerator = -((a + m) * (a + b + m) * x) / ((a + 2.0 * m) * (a + 2.0 * m + 1));
        d = 1 + numerator * d;
        d = std::fabs(d) < tiny ? tiny : d;
        d = 1 / d;
        c = 1 + numerator / c;
        c = std::fabs(c) < tiny ? tiny : c;
        const double cd = c * d;
        f *= cd;
        if (std::fabs(1 - cd) < 1e-12)
            break;
    }
    return std::exp(ln_front) * (f - 1) / a;
}

// P(T <= t) for Student's t with df degrees of freedom.
double student_t_cdf(double t, double df)
{
    const double x = df / (df + t * t);
    const double tail = 0.5 * incomplete_beta(df / 2, 0.5, x);
    return t >= 0 ? 1 - tail : tail;
}

double mean_of(const std::vector<double>& v)
{
    return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double variance_of(const std::vector<double>& v, double mean)
{
    if (v.size() < 2)
        return 0;
    double sum = 0;
    for (double x : v)
        sum += (x - mean) * (x - mean);
    return sum / static_cast<double>(v.size() - 1);
}

}  // namespace

double student_t95(double df)
{
    if (!(df > 0))
        return 0;
    double lo = 0, hi = 1000;
    for (int i = 0; i < 200; ++i) {
        const double mid = (lo + hi) / 2;
        (student_t_cdf(mid, df) < 0.975 ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

Summary summarize(const std::vector<double>& values)
{
    Summary s;
    s.n = static_cast<int>(values.size());
    if (values.empty())
        return s;
    s.mean = mean_of(values);
    std::vector<double> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t mid = sorted.size() / 2;
    s.median = sorted.size() % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    if (s.n >= 2) {
        s.stddev = std::sqrt(variance_of(values, s.mean));
        s.ci95 = student_t95(s.n - 1) * *s.stddev / std::sqrt(static_cast<double>(s.n));
    }
    return s;
}

Change change_against(const std::vector<double>& reference, const std::vector<double>& sample)
{
    Change c;
    const double ref = mean_of(reference);
    if (reference.empty() || sample.empty() || ref == 0)
        return c;
    const double mine = mean_of(sample);
    c.percent = (mine - ref) / ref * 100;
    const double va = variance_of(reference, ref) / static_cast<double>(reference.size());
    const double vb = variance_of(sample, mine) / static_cast<double>(sample.size());
    const double se = std::sqrt(va + vb);
    if (reference.size() < 2 || sample.size() < 2)
        return c;
    // Runs that all agree on both sides: the interval is exactly the point.
    if (se == 0) {
        c.ci95 = 0.0;
        return c;
    }
    // Welch-Satterthwaite degrees of freedom.
    const double df =
        (va + vb) * (va + vb) /
        (va * va / static_cast<double>(reference.size() - 1) + vb * vb / static_cast<double>(sample.size() - 1));
    c.ci95 = student_t95(df) * se / std::fabs(ref) * 100;
    return c;
}

}  // namespace wb

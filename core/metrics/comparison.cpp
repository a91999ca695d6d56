// SPDX-License-Identifier: Apache-2.0
#include "metrics/comparison.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

namespace wb {

void finish_comparison(Comparison& c)
{
    for (std::size_t p = 0; p < c.policies.size(); ++p) {
        for (std::size_t k = 0; k < c.cases.size(); ++k) {
            ComparisonCell& cell = c.cells[p * c.cases.size() + k];
            cell.summary = summarize(cell.values);
            cell.change = p == 0 ? Change{0.0, 0.0} : change_against(c.cells[k].values, cell.values);
        }
    }
}

namespace {

std::string fmt(const char* format, auto... args)
{
    char buf[256];
    std::snprintf(buf, sizeof buf, format, args...);
    return buf;
}

std::string pad(std::string s, std::size_t width, bool right = false)
{
    if (s.size() >= width)
        return s;
    return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

// A statistic that may be undefined: `format` when it is, `undefined`
// when not.
std::string fmt_defined(const char* format, const std::optional<double>& value, const char* undefined)
{
    return value ? fmt(format, *value) : std::string(undefined);
}

}  // namespace

std::string format_change(const Change& change)
{
    if (!change.percent)
        return "n/a";
    return fmt("%+.1f%% ", *change.percent) + fmt_defined("+/- %.1f%%", change.ci95, "n/a");
}

std::string format_comparison(const Comparison& c)
{
    if (c.cells.empty())
        return "";
    std::size_t name_width = 6;
    for (const std::string& p : c.policies)
        name_width = std::max(name_width, p.size());
    const ComparisonCell& first = c.cells.front();
    std::string out =
        fmt("%s (%s), %d %s per cell\n\n", first.metric.c_str(),
            first.lower_is_better ? "lower is better" : "higher is better", c.runs, c.runs == 1 ? "run" : "runs");

    // The summary table: a mean and a median column per case.
    std::vector<std::size_t> mean_width, median_width;
    std::string header = pad("policy", name_width);
    for (const std::string& label : c.cases) {
        mean_width.push_back(std::max<std::size_t>(10, label.size() + 5));
        median_width.push_back(std::max<std::size_t>(10, label.size() + 7));
        header += " | " + pad(label + " mean", mean_width.back(), true) + " | " +
                  pad(label + " median", median_width.back(), true);
    }
    out += header + "\n" + std::string(header.size(), '-') + "\n";
    for (std::size_t p = 0; p < c.policies.size(); ++p) {
        std::string row = pad(c.policies[p], name_width);
        for (std::size_t k = 0; k < c.cases.size(); ++k) {
            const Summary& s = c.cell(p, k).summary;
            row += " | " + pad(fmt("%.3f", s.mean), mean_width[k], true) + " | " +
                   pad(fmt("%.3f", s.median), median_width[k], true);
        }
        out += row + "\n";
    }

    // Per case: spread, change against the first policy, placement.
    for (std::size_t k = 0; k < c.cases.size(); ++k) {
        out += "\n" + c.cases[k] + ": " + c.workloads[k] + "\n";
        out += pad("policy", name_width) + "       mean     median     stddev   vs " + c.policies[0] +
               " (95% CI)      placement vs waker\n";
        for (std::size_t p = 0; p < c.policies.size(); ++p) {
            const ComparisonCell& cell = c.cell(p, k);
            std::string row = pad(c.policies[p], name_width) +
                              fmt(" %10.3f %10.3f ", cell.summary.mean, cell.summary.median) +
                              pad(fmt_defined("%.3f", cell.summary.stddev, "n/a"), 10, true) + "   ";
            row += pad(p == 0 ? std::string("-") : format_change(cell.change), 22);
            for (std::size_t d = 0; d < kDistanceClassCount; ++d)
                if (cell.placement[d] >= 0.0005)
                    row += fmt(" %s %.1f%%", std::string(kDistanceClassNames[d]).c_str(), 100 * cell.placement[d]);
            if (cell.unfinished)
                row += fmt("  (%d runs hit the time limit)", cell.unfinished);
            out += row + "\n";
        }
    }
    return out;
}

std::string comparison_to_csv(const Comparison& c)
{
    std::string out = "policy,case,workload,metric,unit,n,mean,median,stddev,ci95,change_percent,change_ci95";
    for (std::string_view d : kDistanceClassNames)
        out += ",placement_" + std::string(d);
    out += "\n";
    for (std::size_t p = 0; p < c.policies.size(); ++p) {
        for (std::size_t k = 0; k < c.cases.size(); ++k) {
            const ComparisonCell& cell = c.cell(p, k);
            out += "\"" + cell.policy + "\",\"" + cell.case_label + "\",\"" + c.workloads[k] + "\",\"" + cell.metric +
                   "\",\"" + cell.unit + "\"" +
                   fmt(",%d,%.6g,%.6g", cell.summary.n, cell.summary.mean, cell.summary.median);
            for (const std::optional<double>& v :
                 {cell.summary.stddev, cell.summary.ci95, cell.change.percent, cell.change.ci95})
                out += "," + fmt_defined("%.6g", v, "");
            for (double f : cell.placement)
                out += fmt(",%.6g", f);
            out += "\n";
        }
    }
    return out;
}

}  // namespace wb

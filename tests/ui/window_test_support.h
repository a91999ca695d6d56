// SPDX-License-Identifier: Apache-2.0
//
// What the window's tests share: a clean settings store (no test sees what
// another, or the user, opened last), the small teaching scenario, and
// writing a file to open, a comparison of two policies, and the contrast of
// text with its background.
#pragma once

#include <QByteArray>
#include <QColor>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QString>
#include <algorithm>
#include <cmath>

#include "io/scenario_json.h"
#include "metrics/comparison.h"

namespace wb::test {

// Call from initTestCase(), before any window exists.
inline void use_clean_settings()
{
    QStandardPaths::setTestModeEnabled(true);
    QSettings(QSettings::IniFormat, QSettings::UserScope, QStringLiteral("wakebench"), QStringLiteral("wakebench"))
        .clear();
}

// teaching-8 (8 CPUs, 2 LLCs, SMT): small enough to follow every wakeup.
inline Scenario teaching_scenario()
{
    Scenario s;
    s.name = "teaching";
    s.machine = "teaching-8";
    s.cases = {{"pipe", "pipe:loops=300"}, {"pinned", "pipe:loops=300,cpus=3"}};
    s.policies = {"baseline", "sync-waker-v3"};
    return s;
}

// WCAG 2 relative luminance, 0 (black) to 1 (white).
inline double luminance(const QColor& c)
{
    const auto linear = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * linear(c.redF()) + 0.7152 * linear(c.greenF()) + 0.0722 * linear(c.blueF());
}

// WCAG 2 contrast ratio of two colours, 1 to 21 (AA text needs 4.5).
inline double contrast(const QColor& a, const QColor& b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// baseline and sync-waker-v3 on one pipe case, three runs each (usecs/op
// 5.0-5.4 against 3.0-3.6), every wakeup placed in the LLC.
inline Comparison two_policy_comparison()
{
    Comparison c;
    c.cases = {"pipe"};
    c.workloads = {"pipe:loops=1000"};
    c.policies = {"baseline", "sync-waker-v3"};
    c.runs = 3;
    const std::vector<std::vector<double>> values{{5.0, 5.2, 5.4}, {3.0, 3.3, 3.6}};
    for (std::size_t p = 0; p < 2; ++p) {
        ComparisonCell cell;
        cell.policy = c.policies[p];
        cell.case_label = "pipe";
        cell.metric = "usecs/op";
        cell.unit = "us";
        cell.values = values[p];
        cell.placement[3] = 1.0;
        c.cells.push_back(cell);
    }
    finish_comparison(c);
    return c;
}

inline bool write_file(const QString& path, const QByteArray& text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
}

}  // namespace wb::test

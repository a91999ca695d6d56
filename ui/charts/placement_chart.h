// SPDX-License-Identifier: Apache-2.0
//
// PlacementChart: where wakeups put the wakee, relative to the waker's CPU,
// as stacked bars: one bar per policy (per policy and case for a
// comparison of several cases), one segment per distance class in the
// fixed distance ramp, summing to 100%.
#pragma once

#include <QChartView>
#include <QColor>
#include <QList>
#include <QStringList>
#include <array>
#include <vector>

#include "charts/chart_appearance.h"

#include "topology/distance.h"

class QBarCategoryAxis;
class QBarSet;
class QStackedBarSeries;
class QValueAxis;

namespace wb {

struct Comparison;

class PlacementChart : public QChartView {
    Q_OBJECT

public:
    explicit PlacementChart(QWidget* parent = nullptr);
    ~PlacementChart() override;

    // One bar per policy, all classes at 0. Colours are the policies' (the
    // bars themselves use the distance ramp).
    void setPolicies(const QStringList& names, const QList<QColor>& colours);
    // Fractions (0..1) of the policy's wakeups per distance class.
    void setPlacement(int policy, const std::array<double, kDistanceClassCount>& fractions);
    // One bar per policy, or per policy and case when there are several.
    void setComparison(const Comparison& comparison);
    void setAppearance(const ChartAppearance& appearance);
    void clear();

    QStackedBarSeries* bars() const { return bars_; }
    // The segment of one distance class: its value per bar, in percent.
    QBarSet* classSet(DistanceClass c) const;
    QBarCategoryAxis* policyAxis() const { return x_; }
    QValueAxis* percentAxis() const { return y_; }

private:
    void rebuild(const QStringList& categories);

    QStackedBarSeries* bars_ = nullptr;
    std::array<QBarSet*, kDistanceClassCount> sets_{};
    QBarCategoryAxis* x_ = nullptr;
    QValueAxis* y_ = nullptr;
};

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// ThroughputChart: operations per second over simulated time, one line per
// policy, fed live. Points are appended as they come; the axes grow by
// nice steps, so a run of any length rescales them only a few times, and a
// line past kMaxPoints is thinned to every other point.
#pragma once

#include <QChartView>
#include <QColor>
#include <QList>
#include <QStringList>
#include <vector>

#include "charts/chart_appearance.h"

class QLineSeries;
class QValueAxis;

namespace wb {

class ThroughputChart : public QChartView {
    Q_OBJECT

public:
    static constexpr int kMaxPoints = 4000;

    explicit ThroughputChart(QWidget* parent = nullptr);
    ~ThroughputChart() override;

    // One line per policy, in these colours; drops the points shown.
    void setPolicies(const QStringList& names, const QList<QColor>& colours);
    // x is shown in milliseconds of simulated time, y in ops/s.
    void addSample(int policy, double sim_seconds, double ops_per_second);
    void setAppearance(const ChartAppearance& appearance);
    void clear();

    QLineSeries* series(int policy) const;
    int seriesCount() const { return static_cast<int>(series_.size()); }
    QValueAxis* timeAxis() const { return x_; }
    QValueAxis* throughputAxis() const { return y_; }

private:
    void resetAxes();

    std::vector<QLineSeries*> series_;
    QValueAxis* x_ = nullptr;
    QValueAxis* y_ = nullptr;
    double x_end_ = 0;
    double y_end_ = 0;
};

}  // namespace wb

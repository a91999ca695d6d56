// SPDX-License-Identifier: Apache-2.0
//
// LatencyCdfChart: the wakeup-latency distribution of each policy as a
// cumulative distribution, x in microseconds. Latencies span decades (a
// wakeup onto an idle SMT sibling versus one queued behind a busy task), so
// the x axis turns logarithmic once the largest latency shown is 100 times
// the smallest; below that a linear axis reads more directly. Either axis
// spans the steps drawn, not 0 (or 1 ns) up.
//
// The curve is the histogram's step function: vertical at each bucket's
// upper edge, flat between, so a distribution of one value is one
// vertical step rather than a ramp.
#pragma once

#include <QChartView>
#include <QColor>
#include <QList>
#include <QPointF>
#include <QStringList>
#include <vector>

#include "charts/chart_appearance.h"

class QLineSeries;
class QValueAxis;
class QLogValueAxis;
class QAbstractAxis;

namespace wb {

class Histogram;

class LatencyCdfChart : public QChartView {
    Q_OBJECT

public:
    explicit LatencyCdfChart(QWidget* parent = nullptr);
    ~LatencyCdfChart() override;

    void setPolicies(const QStringList& names, const QList<QColor>& colours);
    // Replaces the policy's curve; an empty histogram clears it.
    void setDistribution(int policy, const Histogram& latency_ns);
    void setAppearance(const ChartAppearance& appearance);
    void clear();

    // The CDF's points for a histogram of nanoseconds, x in us: two per
    // step of Histogram::cdf_steps(), at the step's latency, first at the
    // fraction below the step, then at the fraction at or below it.
    static QList<QPointF> cdf_points(const Histogram& latency_ns);

    QLineSeries* series(int policy) const;
    int seriesCount() const { return static_cast<int>(series_.size()); }
    bool isLogScale() const { return log_; }
    QAbstractAxis* latencyAxis() const;
    QValueAxis* fractionAxis() const { return y_; }

private:
    void rescale();
    void useLogAxis(bool log);

    std::vector<QLineSeries*> series_;
    QValueAxis* x_linear_ = nullptr;
    QLogValueAxis* x_log_ = nullptr;
    QValueAxis* y_ = nullptr;
    bool log_ = false;
};

}  // namespace wb

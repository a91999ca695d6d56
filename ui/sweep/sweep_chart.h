// SPDX-License-Identifier: Apache-2.0
//
// SweepChart: one figure of a sweep against a swept parameter, the way
// patch comparisons over a range of load are drawn: a line per policy
// through the means over seeds, and around it a band for the 95% interval
// of the mean, in the policy's colour, translucent. A point with one seed
// has no interval: the band narrows to the line there. A point with no
// result (a shard's file) is left out of its line.
//
// The x axis is a value axis when the parameter's values are numbers (log
// when asked and every value is above 0), else one category per value. The
// y axis is log when asked and some drawn value is above 0; a band's lower
// edge at or below 0 is then drawn at the axis' floor. A figure whose means
// are all at or above 0 has its bands cut at 0.
#pragma once

#include <QChartView>
#include <QColor>
#include <QList>
#include <QString>
#include <vector>

#include "charts/chart_appearance.h"
#include "sweep/sweep_curves.h"

class QAbstractAxis;
class QAreaSeries;
class QCategoryAxis;
class QLineSeries;
class QLogValueAxis;
class QValueAxis;

namespace wb {

class SweepChart : public QChartView {
    Q_OBJECT

public:
    struct Labels {
        QString title;  // "wakeup latency p99"
        QString x;      // "groups"
        QString y;      // "us"
    };

    explicit SweepChart(QWidget* parent = nullptr);
    ~SweepChart() override;

    void setCurves(const std::vector<Curve>& curves, const Labels& labels, bool log_x, bool log_y);
    void setAppearance(const ChartAppearance& appearance);

    int policyCount() const { return static_cast<int>(lines_.size()); }
    QLineSeries* line(int policy) const { return lines_[static_cast<std::size_t>(policy)]; }
    QAreaSeries* band(int policy) const { return bands_[static_cast<std::size_t>(policy)]; }
    QAbstractAxis* xAxis() const { return x_; }
    QAbstractAxis* yAxis() const { return y_; }
    bool isLogX() const { return log_x_; }
    bool isLogY() const { return log_y_; }

private:
    // Puts `wanted` on the chart at `side` in place of `shown`.
    void showAxis(QAbstractAxis*& shown, QAbstractAxis* wanted, Qt::Alignment side);

    std::vector<QLineSeries*> lines_;
    std::vector<QAreaSeries*> bands_;
    // Made once and swapped in and out: a chart whose axes are deleted and
    // made anew leaves the old ones' drawing in its scene until the event
    // loop runs, which a picture exported at once would show.
    QValueAxis* x_value_ = nullptr;
    QLogValueAxis* x_log_ = nullptr;
    QCategoryAxis* x_category_ = nullptr;
    QValueAxis* y_value_ = nullptr;
    QLogValueAxis* y_log_ = nullptr;
    QAbstractAxis* x_ = nullptr;  // the one shown of each
    QAbstractAxis* y_ = nullptr;
    bool log_x_ = false;
    bool log_y_ = false;
    ChartAppearance appearance_;
};

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "charts/latency_cdf_chart.h"

#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "charts/axis_range.h"
#include "charts/policy_lines.h"
#include "metrics/histogram.h"

namespace wb {

namespace {

// A log axis cannot show 0: a latency of 0 ns is drawn at 1 ns.
constexpr double kFloorUs = 1e-3;
constexpr double kLogRatio = 100;
const QString kLatencyTitle = QStringLiteral("wakeup latency (\u00b5s)");

// Fine steps through the body, finer in the tail where placement decisions
// show (p99, p99.9).
std::vector<double> quantiles()
{
    std::vector<double> q;
    for (int i = 1; i <= 98; ++i)
        q.push_back(i / 100.0);
    for (double t : {0.99, 0.995, 0.999, 0.9995, 0.9999, 1.0})
        q.push_back(t);
    return q;
}

}  // namespace

LatencyCdfChart::LatencyCdfChart(QWidget* parent) : QChartView(parent)
{
    setRenderHint(QPainter::Antialiasing);
    QChart* c = chart();
    c->setAnimationOptions(QChart::NoAnimation);
    c->setTitle(QStringLiteral("Wakeup latency, cumulative distribution"));
    c->legend()->setAlignment(Qt::AlignBottom);
    x_linear_ = new QValueAxis(this);
    x_linear_->setTitleText(kLatencyTitle);
    x_linear_->setLabelFormat(QStringLiteral("%.3g"));
    x_log_ = new QLogValueAxis(this);
    x_log_->setTitleText(kLatencyTitle);
    x_log_->setLabelFormat(QStringLiteral("%.3g"));
    x_log_->setBase(10);
    x_log_->setMinorTickCount(-1);
    y_ = new QValueAxis(this);
    y_->setTitleText(QStringLiteral("fraction of wakeups (cumulative)"));
    y_->setRange(0, 1);
    y_->setLabelFormat(QStringLiteral("%.2f"));
    y_->setTickCount(6);
    c->addAxis(x_linear_, Qt::AlignBottom);
    c->addAxis(y_, Qt::AlignLeft);
    x_linear_->setRange(0, 1);
    setAppearance({});
}

void LatencyCdfChart::setAppearance(const ChartAppearance& appearance)
{
    // Both latency axes, the detached one too: a swap keeps the look.
    apply_chart_appearance(this, {x_linear_, x_log_, y_}, appearance);
}

LatencyCdfChart::~LatencyCdfChart()
{
    // The log axis may be detached; the chart deletes only what it holds.
    if (!log_)
        delete x_log_;
    else
        delete x_linear_;
}

QAbstractAxis* LatencyCdfChart::latencyAxis() const
{
    return log_ ? static_cast<QAbstractAxis*>(x_log_) : static_cast<QAbstractAxis*>(x_linear_);
}

QList<QPointF> LatencyCdfChart::cdf_points(const Histogram& h)
{
    QList<QPointF> points;
    if (h.count() == 0)
        return points;
    points.append({std::max(h.min() / 1e3, kFloorUs), 0.0});
    for (double q : quantiles()) {
        const double x = std::max(static_cast<double>(h.percentile(q)) / 1e3, kFloorUs);
        // Many quantiles share a bucket: keep only the highest fraction there.
        if (!points.isEmpty() && points.back().x() == x)
            points.back().setY(q);
        else
            points.append({x, q});
    }
    return points;
}

void LatencyCdfChart::setPolicies(const QStringList& names, const QList<QColor>& colours)
{
    reset_policy_lines(chart(), series_, names, colours, latencyAxis(), y_);
    rescale();
}

void LatencyCdfChart::setDistribution(int policy, const Histogram& latency_ns)
{
    QLineSeries* s = series(policy);
    if (!s)
        return;
    s->replace(cdf_points(latency_ns));
    rescale();
}

void LatencyCdfChart::clear()
{
    for (QLineSeries* s : series_)
        s->clear();
    rescale();
}

QLineSeries* LatencyCdfChart::series(int policy) const
{
    return policy >= 0 && policy < seriesCount() ? series_[static_cast<std::size_t>(policy)] : nullptr;
}

void LatencyCdfChart::useLogAxis(bool log)
{
    if (log == log_)
        return;
    QChart* c = chart();
    QAbstractAxis* old_axis = latencyAxis();
    for (QLineSeries* s : series_)
        s->detachAxis(old_axis);
    c->removeAxis(old_axis);  // ownership back to us (parented to this view)
    log_ = log;
    c->addAxis(latencyAxis(), Qt::AlignBottom);
    for (QLineSeries* s : series_)
        s->attachAxis(latencyAxis());
}

void LatencyCdfChart::rescale()
{
    double lo = std::numeric_limits<double>::max();
    double hi = 0;
    for (QLineSeries* s : series_) {
        if (s->count() == 0)
            continue;
        lo = std::min(lo, s->at(0).x());
        hi = std::max(hi, s->at(s->count() - 1).x());
    }
    if (hi <= 0) {
        useLogAxis(false);
        x_linear_->setRange(0, 1);
        return;
    }
    useLogAxis(hi / std::max(lo, kFloorUs) >= kLogRatio);
    if (log_) {
        x_log_->setRange(std::pow(10.0, std::floor(std::log10(std::max(lo, kFloorUs)))),
                         std::pow(10.0, std::ceil(std::log10(hi))));
    } else {
        x_linear_->setRange(0, grown_axis_end(0, hi, 1.05));
    }
}

}  // namespace wb

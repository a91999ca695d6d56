// SPDX-License-Identifier: Apache-2.0
#include "charts/latency_cdf_chart.h"

#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>
#include <algorithm>
#include <limits>

#include "charts/policy_lines.h"
#include "metrics/histogram.h"

namespace wb {

namespace {

// A log axis cannot show 0: a latency of 0 ns is drawn at 1 ns.
constexpr double kFloorUs = 1e-3;
constexpr double kLogRatio = 100;
// How far the latency axis reaches past the smallest and largest step, so
// the first and last steps are not drawn on the plot's edge.
constexpr double kLogMargin = 1.25;
constexpr double kLinearMargin = 0.05;   // of the span
constexpr double kOneValueMargin = 0.1;  // of the value, when all steps are one
const QString kLatencyTitle = QStringLiteral("wakeup latency (\u00b5s)");
// Short enough to stay whole on the docked chart's ~150 px tall plot; the
// chart's title says the distribution is cumulative.
const QString kFractionTitle = QStringLiteral("fraction of wakeups");

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
    // Decades in plain numbers: "%.3g" writes 1000 as "1e+03".
    x_log_->setLabelFormat(QStringLiteral("%g"));
    x_log_->setBase(10);
    x_log_->setMinorTickCount(-1);
    y_ = new QValueAxis(this);
    y_->setTitleText(kFractionTitle);
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
    double below = 0;  // the fraction left of the step
    for (const CdfStep& step : h.cdf_steps()) {
        const double x = std::max(static_cast<double>(step.value) / 1e3, kFloorUs);
        points.append({x, below});
        points.append({x, step.fraction});
        below = step.fraction;
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
    // From near the smallest step to near the largest: a distribution
    // around 5 us is not squeezed against an axis that starts at 0 or 1 ns.
    if (log_) {
        x_log_->setRange(std::max(lo, kFloorUs) / kLogMargin, hi * kLogMargin);
    } else {
        const double margin = hi > lo ? (hi - lo) * kLinearMargin : std::max(lo * kOneValueMargin, kFloorUs);
        x_linear_->setRange(std::max(0.0, lo - margin), hi + margin);
        x_linear_->applyNiceNumbers();
        if (x_linear_->min() < 0)
            x_linear_->setMin(0);
    }
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "charts/throughput_chart.h"

#include <QChart>
#include <QLineSeries>
#include <QValueAxis>

#include "charts/axis_range.h"
#include "charts/policy_lines.h"

namespace wb {

namespace {

constexpr double kInitialTimeMs = 1;
constexpr double kInitialOps = 1000;

}  // namespace

ThroughputChart::ThroughputChart(QWidget* parent) : QChartView(parent)
{
    setRenderHint(QPainter::Antialiasing);
    QChart* c = chart();
    // Animations would replay on every appended point.
    c->setAnimationOptions(QChart::NoAnimation);
    c->setTitle(QStringLiteral("Throughput over simulated time"));
    c->legend()->setAlignment(Qt::AlignBottom);
    x_ = new QValueAxis(this);
    x_->setTitleText(QStringLiteral("simulated time (ms)"));
    x_->setLabelFormat(QStringLiteral("%g"));
    y_ = new QValueAxis(this);
    y_->setTitleText(QStringLiteral("ops/s"));
    y_->setLabelFormat(QStringLiteral("%.0f"));
    c->addAxis(x_, Qt::AlignBottom);
    c->addAxis(y_, Qt::AlignLeft);
    resetAxes();
    setAppearance({});
}

void ThroughputChart::setAppearance(const ChartAppearance& appearance)
{
    apply_chart_appearance(this, {x_, y_}, appearance);
}

ThroughputChart::~ThroughputChart() = default;

void ThroughputChart::resetAxes()
{
    x_end_ = kInitialTimeMs;
    y_end_ = kInitialOps;
    x_->setRange(0, x_end_);
    y_->setRange(0, y_end_);
}

void ThroughputChart::setPolicies(const QStringList& names, const QList<QColor>& colours)
{
    reset_policy_lines(chart(), series_, names, colours, x_, y_);
    resetAxes();
}

void ThroughputChart::addSample(int policy, double sim_seconds, double ops_per_second)
{
    QLineSeries* s = series(policy);
    if (!s)
        return;
    const double x = sim_seconds * 1e3;
    if (s->count() >= kMaxPoints) {
        // Thin the old points rather than the new: the shape of a long run
        // survives at half the resolution.
        const QList<QPointF> old = s->points();
        QList<QPointF> thinned;
        thinned.reserve(old.size() / 2 + 1);
        for (qsizetype i = 0; i < old.size(); i += 2)
            thinned.append(old[i]);
        s->replace(thinned);
    }
    s->append(x, ops_per_second);
    const double x_end = grown_axis_end(x_end_, x);
    if (x_end != x_end_) {
        x_end_ = x_end;
        x_->setRange(0, x_end_);
    }
    const double y_end = grown_axis_end(y_end_, ops_per_second, 1.25);
    if (y_end != y_end_) {
        y_end_ = y_end;
        y_->setRange(0, y_end_);
    }
}

void ThroughputChart::clear()
{
    for (QLineSeries* s : series_)
        s->clear();
    resetAxes();
}

QLineSeries* ThroughputChart::series(int policy) const
{
    return policy >= 0 && policy < seriesCount() ? series_[static_cast<std::size_t>(policy)] : nullptr;
}

}  // namespace wb

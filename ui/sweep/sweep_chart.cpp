// SPDX-License-Identifier: Apache-2.0
#include "sweep/sweep_chart.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

#include "decision/palette.h"

namespace wb {

namespace {

// How opaque a band is: enough to see, little enough that overlapping
// bands and the lines through them stay readable.
constexpr int kBandAlpha = 56;
// Room around the data on a value axis, as a fraction of its span (a
// factor on a log axis).
constexpr double kMargin = 0.06;
constexpr double kLogMargin = 1.3;

struct Extent {
    double low = std::numeric_limits<double>::infinity();
    double high = -std::numeric_limits<double>::infinity();
    double low_positive = std::numeric_limits<double>::infinity();
    void add(double v)
    {
        low = std::min(low, v);
        high = std::max(high, v);
        if (v > 0)
            low_positive = std::min(low_positive, v);
    }
    bool empty() const { return low > high; }
};

QValueAxis* new_value_axis()
{
    auto* axis = new QValueAxis;
    axis->setLabelFormat(QStringLiteral("%g"));
    return axis;
}

QLogValueAxis* new_log_axis()
{
    auto* axis = new QLogValueAxis;
    axis->setBase(10);
    // Decades in plain numbers: "%.3g" would write 1000 as "1e+03".
    axis->setLabelFormat(QStringLiteral("%g"));
    axis->setMinorTickCount(-1);
    return axis;
}

void set_value_range(QValueAxis* axis, const Extent& e)
{
    const double span = e.high - e.low;
    // Values equal but for rounding (seeds that ran alike) get a visible
    // range around them, not one a label cannot tell apart.
    const bool flat = span <= 1e-9 * std::max(1.0, std::fabs(e.high));
    const double pad = flat ? std::max(std::fabs(e.high) * 0.1, 1.0) : span * kMargin;
    // Values at or above 0 keep the axis there: no room below 0 where none can be.
    axis->setRange(e.low >= 0 ? std::max(0.0, e.low - pad) : e.low - pad, e.high + pad);
    axis->applyNiceNumbers();
    if (e.low >= 0 && axis->min() < 0)
        axis->setMin(0);
}

}  // namespace

SweepChart::SweepChart(QWidget* parent) : QChartView(parent)
{
    setRenderHint(QPainter::Antialiasing);
    chart()->setAnimationOptions(QChart::NoAnimation);
    chart()->legend()->setAlignment(Qt::AlignBottom);
    x_value_ = new_value_axis();
    x_log_ = new_log_axis();
    x_category_ = new QCategoryAxis;
    x_category_->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    y_value_ = new_value_axis();
    y_log_ = new_log_axis();
}

SweepChart::~SweepChart()
{
    // The chart deletes the axes it shows; the others are this one's.
    for (QAbstractAxis* axis : std::initializer_list<QAbstractAxis*>{x_value_, x_log_, x_category_, y_value_, y_log_})
        if (axis != x_ && axis != y_)
            delete axis;
}

void SweepChart::showAxis(QAbstractAxis*& shown, QAbstractAxis* wanted, Qt::Alignment side)
{
    if (shown == wanted)
        return;
    if (shown)
        chart()->removeAxis(shown);
    chart()->addAxis(wanted, side);
    shown = wanted;
}

void SweepChart::setAppearance(const ChartAppearance& appearance)
{
    appearance_ = appearance;
    apply_chart_appearance(this, {x_value_, x_log_, x_category_, y_value_, y_log_}, appearance);
}

void SweepChart::setCurves(const std::vector<Curve>& curves, const Labels& labels, bool log_x, bool log_y)
{
    QChart* c = chart();
    c->removeAllSeries();
    lines_.clear();
    bands_.clear();
    c->setTitle(labels.title);

    const bool numeric_x = !curves.empty() && std::all_of(curves.front().points.begin(), curves.front().points.end(),
                                                          [](const CurvePoint& p) { return p.x.has_value(); });
    log_x_ = log_x && curves_fit_log_axis(curves);
    // A figure whose means are all at or above 0 (a latency, a rate, a
    // fraction) cannot go below it: the t interval of a few seeds can, and
    // its band is cut at 0 rather than drawn where no value can be.
    const bool non_negative = std::all_of(curves.begin(), curves.end(), [](const Curve& curve) {
        return std::all_of(curve.points.begin(), curve.points.end(),
                           [](const CurvePoint& p) { return p.summary.n == 0 || p.summary.mean >= 0; });
    });
    Extent xs, ys;
    for (const Curve& curve : curves)
        for (std::size_t i = 0; i < curve.points.size(); ++i) {
            const CurvePoint& p = curve.points[i];
            xs.add(numeric_x ? *p.x : static_cast<double>(i));
            if (p.summary.n == 0)
                continue;
            ys.add(p.summary.mean);
            if (p.summary.ci95) {
                ys.add(p.summary.mean + *p.summary.ci95);
                const double low = p.summary.mean - *p.summary.ci95;
                ys.add(non_negative ? std::max(0.0, low) : low);
            }
        }
    log_y_ = log_y && !ys.empty() && ys.low_positive < std::numeric_limits<double>::infinity();
    // A log axis starts above 0: a band's lower edge at or below 0 sits on its floor.
    const double floor = ys.low_positive / kLogMargin;

    if (xs.empty())
        xs.add(0);
    if (ys.empty())
        ys.add(0);
    if (!numeric_x) {
        for (const QString& label : x_category_->categoriesLabels())
            x_category_->remove(label);
        if (!curves.empty())
            for (std::size_t i = 0; i < curves.front().points.size(); ++i)
                x_category_->append(QString::fromStdString(curves.front().points[i].x_text), static_cast<double>(i));
        x_category_->setRange(-0.5, xs.high + 0.5);
        showAxis(x_, x_category_, Qt::AlignBottom);
    } else if (log_x_) {
        x_log_->setRange(xs.low_positive / kLogMargin, xs.high * kLogMargin);
        showAxis(x_, x_log_, Qt::AlignBottom);
    } else {
        set_value_range(x_value_, xs);
        showAxis(x_, x_value_, Qt::AlignBottom);
    }
    if (log_y_) {
        y_log_->setRange(ys.low_positive / kLogMargin, ys.high * kLogMargin);
        showAxis(y_, y_log_, Qt::AlignLeft);
    } else {
        set_value_range(y_value_, ys);
        showAxis(y_, y_value_, Qt::AlignLeft);
    }
    x_->setTitleText(labels.x);
    y_->setTitleText(labels.y);

    for (std::size_t k = 0; k < curves.size(); ++k) {
        const QColor colour = palette::policy_colour(static_cast<int>(k));
        auto* line = new QLineSeries;
        line->setName(QString::fromStdString(curves[k].policy));
        QPen pen(colour);
        pen.setWidthF(2);
        line->setPen(pen);
        line->setPointsVisible(true);
        auto* upper = new QLineSeries;
        auto* lower = new QLineSeries;
        for (std::size_t i = 0; i < curves[k].points.size(); ++i) {
            const CurvePoint& p = curves[k].points[i];
            if (p.summary.n == 0)
                continue;
            const double x = numeric_x ? *p.x : static_cast<double>(i);
            const double half = p.summary.ci95.value_or(0);
            double low = non_negative ? std::max(0.0, p.summary.mean - half) : p.summary.mean - half;
            if (log_y_ && low <= 0)
                low = floor;
            line->append(x, p.summary.mean);
            upper->append(x, p.summary.mean + half);
            lower->append(x, low);
        }
        auto* band = new QAreaSeries(upper, lower);
        upper->setParent(band);
        lower->setParent(band);
        QColor fill = colour;
        fill.setAlpha(kBandAlpha);
        band->setBrush(fill);
        band->setPen(Qt::NoPen);
        band->setName(line->name() + QStringLiteral(" 95%"));
        c->addSeries(band);
        c->addSeries(line);
        for (QAbstractSeries* s : {static_cast<QAbstractSeries*>(band), static_cast<QAbstractSeries*>(line)}) {
            s->attachAxis(x_);
            s->attachAxis(y_);
        }
        // The legend names the policies; the bands are explained by the title.
        for (QLegendMarker* marker : c->legend()->markers(band))
            marker->setVisible(false);
        lines_.push_back(line);
        bands_.push_back(band);
    }
    setAppearance(appearance_);
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "charts/headline_chart.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>
#include <algorithm>
#include <optional>

#include "decision/palette.h"
#include "metrics/comparison.h"

namespace wb {

namespace {

constexpr double kBarWidth = 0.8;  // of a category; QBarSeries' default 0.5 wastes room
// Headroom above the tallest bar for its two-line label.
constexpr double kLabelHeadroom = 1.3;

QString qstr(const std::string& s)
{
    return QString::fromStdString(s);
}

QString value_title(const ComparisonCell& cell)
{
    if (cell.unit.empty() || cell.metric == cell.unit)
        return qstr(cell.metric);
    return QStringLiteral("%1 (%2)").arg(qstr(cell.metric), qstr(cell.unit));
}

// The mean as the text table prints it, with its unit.
QString mean_text(const ComparisonCell& cell)
{
    const QString mean = QString::number(cell.summary.mean, 'f', 3);
    return cell.unit.empty() ? mean : QStringLiteral("%1 %2").arg(mean, qstr(cell.unit));
}

}  // namespace

HeadlineChart::HeadlineChart(QWidget* parent) : QChartView(parent)
{
    setRenderHint(QPainter::Antialiasing);
    QChart* c = chart();
    c->setAnimationOptions(QChart::NoAnimation);
    c->legend()->setAlignment(Qt::AlignBottom);
    x_ = new QBarCategoryAxis(this);
    x_->setTitleText(QStringLiteral("workload case"));
    y_ = new QValueAxis(this);
    y_->setLabelFormat(QStringLiteral("%.3g"));
    c->addAxis(x_, Qt::AlignBottom);
    c->addAxis(y_, Qt::AlignLeft);
    connect(c, &QChart::plotAreaChanged, this, &HeadlineChart::placeValueLabels);
    setAppearance({});
    clear();
}

HeadlineChart::~HeadlineChart() = default;

void HeadlineChart::setPolicies(const QStringList&, const QList<QColor>& colours)
{
    colours_ = colours;
    if (comparison_)
        rebuild();
}

void HeadlineChart::setErrorBars(ErrorBars bars)
{
    error_bars_ = bars;
    if (comparison_)
        rebuild();
}

void HeadlineChart::setComparison(const Comparison& comparison)
{
    comparison_ = std::make_unique<Comparison>(comparison);
    rebuild();
}

void HeadlineChart::setAppearance(const ChartAppearance& appearance)
{
    appearance_ = appearance;
    apply_chart_appearance(this, {x_, y_}, appearance_);
    styleBarDecorations();
    placeValueLabels();
}

void HeadlineChart::styleBarDecorations()
{
    QPen pen(chart_colours(appearance_.dark).text);
    pen.setWidthF(1.5);
    for (const auto& row : whiskers_)
        for (QLineSeries* w : row)
            if (w)
                w->setPen(pen);
    const QFont font = chart_font(ChartText::ValueLabel, appearance_.font_scale);
    for (const auto& row : labels_) {
        for (QGraphicsSimpleTextItem* label : row) {
            label->setBrush(pen.color());
            label->setFont(font);
        }
    }
}

void HeadlineChart::placeValueLabels()
{
    if (!bars_)
        return;
    for (std::size_t p = 0; p < labels_.size(); ++p) {
        for (std::size_t k = 0; k < labels_[p].size(); ++k) {
            QGraphicsSimpleTextItem* label = labels_[p][k];
            const QPointF anchor = chart()->mapToPosition(label_anchors_[p][k], bars_);
            const QRectF box = label->boundingRect();
            label->setPos(anchor.x() - box.width() / 2, anchor.y() - box.height() - 2);
        }
    }
}

QGraphicsSimpleTextItem* HeadlineChart::valueLabel(int policy, int case_index) const
{
    if (policy < 0 || static_cast<std::size_t>(policy) >= labels_.size())
        return nullptr;
    const auto& row = labels_[static_cast<std::size_t>(policy)];
    return case_index >= 0 && static_cast<std::size_t>(case_index) < row.size()
               ? row[static_cast<std::size_t>(case_index)]
               : nullptr;
}

void HeadlineChart::clear()
{
    comparison_.reset();
    chart()->removeAllSeries();
    bars_ = nullptr;
    whiskers_.clear();
    for (const auto& row : labels_)
        qDeleteAll(row);
    labels_.clear();
    label_anchors_.clear();
    x_->clear();
    relative_ = false;
    y_->setTitleText(QStringLiteral("headline (unit)"));
    y_->setRange(0, 1);
    chart()->setTitle(QStringLiteral("Headline figure per policy and case"));
}

QLineSeries* HeadlineChart::whisker(int policy, int case_index) const
{
    if (policy < 0 || static_cast<std::size_t>(policy) >= whiskers_.size())
        return nullptr;
    const auto& row = whiskers_[static_cast<std::size_t>(policy)];
    return case_index >= 0 && static_cast<std::size_t>(case_index) < row.size()
               ? row[static_cast<std::size_t>(case_index)]
               : nullptr;
}

void HeadlineChart::rebuild()
{
    const Comparison& cmp = *comparison_;
    QChart* c = chart();
    c->removeAllSeries();
    whiskers_.clear();
    for (const auto& row : labels_)
        qDeleteAll(row);
    labels_.clear();
    label_anchors_.clear();
    x_->clear();

    const std::size_t nr_policies = cmp.policies.size();
    const std::size_t nr_cases = cmp.cases.size();
    if (nr_policies == 0 || nr_cases == 0 || cmp.cells.size() < nr_policies * nr_cases) {
        bars_ = nullptr;
        return;
    }
    // One axis only holds one unit.
    relative_ = false;
    for (std::size_t k = 1; k < nr_cases; ++k)
        if (cmp.cell(0, k).metric != cmp.cell(0, 0).metric || cmp.cell(0, k).unit != cmp.cell(0, 0).unit)
            relative_ = true;

    QStringList cases;
    for (const std::string& label : cmp.cases)
        cases << qstr(label);
    x_->append(cases);

    bars_ = new QBarSeries;
    bars_->setBarWidth(kBarWidth);
    double top = 0;
    // The error is undefined where a cell has one run: that bar has no whisker.
    std::vector<std::vector<std::pair<double, std::optional<double>>>> mean_err(nr_policies);
    for (std::size_t p = 0; p < nr_policies; ++p) {
        auto* set = new QBarSet(qstr(cmp.policies[p]));
        const int pi = static_cast<int>(p);
        const QColor colour = pi < colours_.size() ? colours_[pi] : palette::policy_colour(pi);
        set->setColor(colour);
        set->setBorderColor(colour.darker(130));
        for (std::size_t k = 0; k < nr_cases; ++k) {
            const ComparisonCell& cell = cmp.cell(p, k);
            double mean = cell.summary.mean;
            std::optional<double> err = error_bars_ == ErrorBars::Stddev ? cell.summary.stddev : cell.summary.ci95;
            if (relative_) {
                const double ref = cmp.cell(0, k).summary.mean;
                const double scale = ref != 0 ? 100.0 / ref : 0.0;
                mean *= scale;
                if (err)
                    *err *= scale;
            }
            set->append(mean);
            mean_err[p].emplace_back(mean, err);
            top = std::max(top, mean + err.value_or(0.0));
        }
        bars_->append(set);
    }
    c->addSeries(bars_);
    bars_->attachAxis(x_);
    bars_->attachAxis(y_);

    // QBarSeries lays bar s of n in category k over
    // [k - w/2 + s*w/n, k - w/2 + (s+1)*w/n]: the whisker goes to its middle.
    const double slot = kBarWidth / static_cast<double>(nr_policies);
    const double cap = slot * 0.2;
    whiskers_.assign(nr_policies, {});
    labels_.assign(nr_policies, {});
    label_anchors_.assign(nr_policies, {});
    for (std::size_t p = 0; p < nr_policies; ++p) {
        for (std::size_t k = 0; k < nr_cases; ++k) {
            const auto [mean, error] = mean_err[p][k];
            const double x = static_cast<double>(k) - kBarWidth / 2 + (static_cast<double>(p) + 0.5) * slot;
            const ComparisonCell& cell = cmp.cell(p, k);
            QString text = mean_text(cell);
            if (p > 0)
                text += QLatin1Char('\n') + qstr(format_change(cell.change));
            auto* label = new QGraphicsSimpleTextItem(text, c);
            label->setZValue(100);  // above the series, which are the chart's children too
            labels_[p].push_back(label);
            label_anchors_[p].emplace_back(x, mean + error.value_or(0.0));
            if (!error) {
                whiskers_[p].push_back(nullptr);
                continue;
            }
            const double err = *error;
            auto* w = new QLineSeries;
            w->setName(QStringLiteral("%1 %2 error").arg(qstr(cmp.policies[p]), cases[static_cast<int>(k)]));
            // Cap, stem, cap in one polyline: the caps are retraced.
            w->append({{x - cap, mean - err},
                       {x + cap, mean - err},
                       {x, mean - err},
                       {x, mean + err},
                       {x - cap, mean + err},
                       {x + cap, mean + err}});
            c->addSeries(w);
            w->attachAxis(x_);
            w->attachAxis(y_);
            for (QLegendMarker* m : c->legend()->markers(w))
                m->setVisible(false);
            whiskers_[p].push_back(w);
        }
    }

    styleBarDecorations();

    const ComparisonCell& first = cmp.cell(0, 0);
    // One run has no spread to draw: say so rather than draw "± stddev over 1 runs".
    QString spread_text = QStringLiteral("1 run, no interval");
    if (cmp.runs >= 2)
        spread_text = QStringLiteral("mean %1 over %2 runs")
                          .arg(error_bars_ == ErrorBars::Stddev ? QStringLiteral("\u00b1 stddev")
                                                                : QStringLiteral("\u00b1 95% CI of the mean"))
                          .arg(cmp.runs);
    if (relative_) {
        y_->setTitleText(QStringLiteral("mean (% of %1)").arg(qstr(cmp.policies[0])));
        c->setTitle(QStringLiteral("Headline per case relative to %1, %2").arg(qstr(cmp.policies[0]), spread_text));
    } else {
        y_->setTitleText(value_title(first));
        c->setTitle(QStringLiteral("%1: %2 (%3 is better)")
                        .arg(qstr(first.metric), spread_text,
                             first.lower_is_better ? QStringLiteral("lower") : QStringLiteral("higher")));
    }
    y_->setRange(0, top > 0 ? top * kLabelHeadroom : 1);
    y_->applyNiceNumbers();
    placeValueLabels();
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "charts/placement_chart.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QLegend>
#include <QStackedBarSeries>
#include <QValueAxis>

#include "decision/palette.h"
#include "metrics/comparison.h"

namespace wb {

namespace {

QString class_label(std::size_t c)
{
    QString name =
        QString::fromUtf8(kDistanceClassNames[c].data(), static_cast<qsizetype>(kDistanceClassNames[c].size()));
    return name.replace(QLatin1Char('_'), QLatin1Char(' '));
}

}  // namespace

PlacementChart::PlacementChart(QWidget* parent) : QChartView(parent)
{
    setRenderHint(QPainter::Antialiasing);
    QChart* c = chart();
    c->setAnimationOptions(QChart::NoAnimation);
    c->setTitle(QStringLiteral("Where wakeups placed the wakee, seen from the waker's CPU"));
    c->legend()->setAlignment(Qt::AlignBottom);
    x_ = new QBarCategoryAxis(this);
    x_->setTitleText(QStringLiteral("policy"));
    y_ = new QValueAxis(this);
    y_->setTitleText(QStringLiteral("wakeups (%)"));
    y_->setRange(0, 100);
    y_->setLabelFormat(QStringLiteral("%.0f"));
    y_->setTickCount(6);
    c->addAxis(x_, Qt::AlignBottom);
    c->addAxis(y_, Qt::AlignLeft);
    rebuild({});
    setAppearance({});
}

void PlacementChart::setAppearance(const ChartAppearance& appearance)
{
    apply_chart_appearance(this, {x_, y_}, appearance);
}

PlacementChart::~PlacementChart() = default;

void PlacementChart::rebuild(const QStringList& categories)
{
    QChart* c = chart();
    c->removeAllSeries();
    x_->clear();
    x_->append(categories);
    bars_ = new QStackedBarSeries;
    bars_->setBarWidth(0.6);
    for (std::size_t k = 0; k < kDistanceClassCount; ++k) {
        auto* set = new QBarSet(class_label(k));
        const QColor colour = palette::distance_colour(static_cast<DistanceClass>(k));
        set->setColor(colour);
        set->setBorderColor(colour.darker(120));
        for (qsizetype i = 0; i < categories.size(); ++i)
            set->append(0.0);
        bars_->append(set);
        sets_[k] = set;
    }
    c->addSeries(bars_);
    bars_->attachAxis(x_);
    bars_->attachAxis(y_);
}

void PlacementChart::setPolicies(const QStringList& names, const QList<QColor>&)
{
    x_->setTitleText(QStringLiteral("policy"));
    rebuild(names);
}

void PlacementChart::setPlacement(int policy, const std::array<double, kDistanceClassCount>& fractions)
{
    if (policy < 0 || policy >= x_->count())
        return;
    for (std::size_t k = 0; k < kDistanceClassCount; ++k)
        sets_[k]->replace(policy, fractions[k] * 100.0);
}

void PlacementChart::setComparison(const Comparison& cmp)
{
    const std::size_t nr_cases = cmp.cases.size();
    if (cmp.cells.size() < cmp.policies.size() * nr_cases)
        return;
    QStringList categories;
    for (std::size_t p = 0; p < cmp.policies.size(); ++p)
        for (std::size_t k = 0; k < nr_cases; ++k)
            categories << (nr_cases == 1 ? QString::fromStdString(cmp.policies[p])
                                         : QStringLiteral("%1 (%2)").arg(QString::fromStdString(cmp.policies[p]),
                                                                         QString::fromStdString(cmp.cases[k])));
    x_->setTitleText(nr_cases == 1 ? QStringLiteral("policy") : QStringLiteral("policy (case)"));
    rebuild(categories);
    int bar = 0;
    for (std::size_t p = 0; p < cmp.policies.size(); ++p)
        for (std::size_t k = 0; k < nr_cases; ++k)
            setPlacement(bar++, cmp.cell(p, k).placement);
}

void PlacementChart::clear()
{
    for (QBarSet* set : sets_)
        for (int i = 0; i < set->count(); ++i)
            set->replace(i, 0.0);
}

QBarSet* PlacementChart::classSet(DistanceClass c) const
{
    return sets_[static_cast<std::size_t>(c)];
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "charts/charts_panel.h"

#include "charts/figures_table.h"
#include "charts/headline_chart.h"
#include "charts/latency_cdf_chart.h"
#include "charts/placement_chart.h"
#include "charts/throughput_chart.h"

#include <QChart>
#include <QLegend>

namespace wb {

namespace {

// A dock at the bottom of a 1280 x 800 window leaves a chart about 200 px:
// the plot keeps most of it when margins are thin, the title small (see
// chart_font) and the legend beside the plot instead of under it. Exports
// keep this look.
void make_compact(QChartView* view)
{
    QChart* c = view->chart();
    c->setMargins(QMargins(4, 2, 4, 2));
    c->setBackgroundRoundness(0);
    c->legend()->setAlignment(Qt::AlignRight);
}

}  // namespace

ChartsPanel::ChartsPanel(QWidget* parent)
    : QTabWidget(parent),
      throughput_(new ThroughputChart),
      latency_(new LatencyCdfChart),
      headline_(new HeadlineChart),
      placement_(new PlacementChart),
      figures_(new FiguresTable)
{
    addTab(throughput_, QStringLiteral("Throughput over time"));
    addTab(latency_, QStringLiteral("Latency CDF"));
    addTab(headline_, QStringLiteral("Headline \u00b1 error"));
    addTab(placement_, QStringLiteral("Placement"));
    addTab(figures_, QStringLiteral("Figures"));
    for (QChartView* view : std::initializer_list<QChartView*>{throughput_, latency_, headline_, placement_})
        make_compact(view);
}

ChartsPanel::~ChartsPanel() = default;

void ChartsPanel::setPolicies(const QStringList& names, const QList<QColor>& colours)
{
    names_ = names;
    colours_ = colours;
    throughput_->setPolicies(names, colours);
    latency_->setPolicies(names, colours);
    headline_->setPolicies(names, colours);
    placement_->setPolicies(names, colours);
    figures_->setPolicies(names, colours);
}

void ChartsPanel::setDark(bool dark)
{
    appearance_.dark = dark;
    applyAppearance();
}

void ChartsPanel::setFontScale(qreal scale)
{
    appearance_.font_scale = scale;
    applyAppearance();
}

void ChartsPanel::applyAppearance()
{
    throughput_->setAppearance(appearance_);
    latency_->setAppearance(appearance_);
    headline_->setAppearance(appearance_);
    placement_->setAppearance(appearance_);
    figures_->setAppearance(appearance_);
}

void ChartsPanel::clear()
{
    throughput_->clear();
    latency_->clear();
    headline_->clear();
    placement_->setPolicies(names_, colours_);
    figures_->clear();
}

}  // namespace wb

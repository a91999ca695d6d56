// SPDX-License-Identifier: Apache-2.0
#include "charts/charts_panel.h"

#include "charts/headline_chart.h"
#include "charts/latency_cdf_chart.h"
#include "charts/placement_chart.h"
#include "charts/throughput_chart.h"

namespace wb {

ChartsPanel::ChartsPanel(QWidget* parent)
    : QTabWidget(parent),
      throughput_(new ThroughputChart),
      latency_(new LatencyCdfChart),
      headline_(new HeadlineChart),
      placement_(new PlacementChart)
{
    addTab(throughput_, QStringLiteral("Throughput over time"));
    addTab(latency_, QStringLiteral("Latency CDF"));
    addTab(headline_, QStringLiteral("Headline \u00b1 error"));
    addTab(placement_, QStringLiteral("Placement"));
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
}

void ChartsPanel::clear()
{
    throughput_->clear();
    latency_->clear();
    headline_->clear();
    placement_->setPolicies(names_, colours_);
}

}  // namespace wb

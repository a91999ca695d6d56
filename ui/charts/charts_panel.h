// SPDX-License-Identifier: Apache-2.0
//
// ChartsPanel: the window's chart tabs (throughput over time, latency CDF,
// headline with error bars, placement by distance class, and the table of
// the figures the real tools report), one policy colour used by all five,
// and one appearance: the window's theme and its presentation font scale
// reach every tab through here.
#pragma once

#include <QColor>
#include <QList>
#include <QStringList>
#include <QTabWidget>

#include "charts/chart_appearance.h"

namespace wb {

class ThroughputChart;
class LatencyCdfChart;
class HeadlineChart;
class PlacementChart;
class FiguresTable;

class ChartsPanel : public QTabWidget {
    Q_OBJECT

public:
    explicit ChartsPanel(QWidget* parent = nullptr);
    ~ChartsPanel() override;

    void setPolicies(const QStringList& names, const QList<QColor>& colours);
    // Empties every chart, keeping the policies.
    void clear();
    // Dark backgrounds with light text in every chart (View > Dark theme).
    void setDark(bool dark);
    // Every chart's text (titles, axes, legends, bar labels) at `scale`
    // times its normal size (presentation mode).
    void setFontScale(qreal scale);

    ThroughputChart* throughput() const { return throughput_; }
    LatencyCdfChart* latency() const { return latency_; }
    HeadlineChart* headline() const { return headline_; }
    PlacementChart* placement() const { return placement_; }
    FiguresTable* figures() const { return figures_; }
    // The chart (or table) on the current tab, for "export the focused view".
    QWidget* currentChart() const { return currentWidget(); }

private:
    void applyAppearance();

    ThroughputChart* throughput_ = nullptr;
    LatencyCdfChart* latency_ = nullptr;
    HeadlineChart* headline_ = nullptr;
    PlacementChart* placement_ = nullptr;
    FiguresTable* figures_ = nullptr;
    QStringList names_;
    QList<QColor> colours_;
    ChartAppearance appearance_;
};

}  // namespace wb

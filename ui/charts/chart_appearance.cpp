// SPDX-License-Identifier: Apache-2.0
#include "charts/chart_appearance.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QPalette>
#include <algorithm>
#include <cmath>

#include "theme.h"

namespace wb {

namespace {

// Relative to the application's font. A chart docked under the grids gets
// about 200 px: the title stays near the body size so the plot keeps the
// room, and the tick labels are a little smaller than the axis titles.
qreal relative_size(ChartText role)
{
    switch (role) {
    case ChartText::Title:
        return 1.1;
    case ChartText::AxisTitle:
        return 1.0;
    case ChartText::AxisLabels:
    case ChartText::Legend:
        return 0.9;
    case ChartText::ValueLabel:
        return 0.85;
    }
    return 1.0;
}

}  // namespace

ChartColours chart_colours(bool dark)
{
    if (dark) {
        const QPalette p = dark_palette();
        return {p.color(QPalette::Base), p.color(QPalette::Text), QColor(0x3a, 0x40, 0x48), QColor(0x8a, 0x93, 0x9c)};
    }
    return {Qt::white, QColor(0x1f, 0x23, 0x28), QColor(0xd8, 0xde, 0xe4), QColor(0x6e, 0x77, 0x81)};
}

QFont chart_font(ChartText role, qreal scale)
{
    QFont font = QApplication::font();
    const qreal factor = relative_size(role) * scale;
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else
        font.setPixelSize(std::max(1, static_cast<int>(std::lround(font.pixelSize() * factor))));
    font.setBold(role == ChartText::Title);
    return font;
}

void apply_chart_appearance(QChartView* view, const QList<QAbstractAxis*>& axes, const ChartAppearance& appearance)
{
    const ChartColours colours = chart_colours(appearance.dark);
    const qreal scale = appearance.font_scale;
    QChart* chart = view->chart();
    view->setBackgroundBrush(colours.background);
    chart->setBackgroundBrush(colours.background);
    chart->setPlotAreaBackgroundBrush(colours.background);
    chart->setPlotAreaBackgroundVisible(true);
    chart->setTitleBrush(colours.text);
    chart->setTitleFont(chart_font(ChartText::Title, scale));
    chart->legend()->setLabelColor(colours.text);
    chart->legend()->setFont(chart_font(ChartText::Legend, scale));
    for (QAbstractAxis* axis : axes) {
        axis->setLabelsColor(colours.text);
        axis->setLabelsFont(chart_font(ChartText::AxisLabels, scale));
        axis->setTitleBrush(colours.text);
        axis->setTitleFont(chart_font(ChartText::AxisTitle, scale));
        axis->setGridLineColor(colours.grid);
        axis->setMinorGridLineColor(colours.grid);
        axis->setLinePenColor(colours.axis_line);
    }
}

}  // namespace wb

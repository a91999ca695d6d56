// SPDX-License-Identifier: Apache-2.0
//
// ChartAppearance: what the window's dark theme and presentation mode
// change in every chart, so that the four charts change alike: the
// colours of backgrounds and text, and one factor for every font. Fonts
// are derived from the application's font each time, never from a chart's
// current font, so applying a scale twice does not compound, and the
// window's own presentation font (which QChart ignores) is not counted
// twice.
#pragma once

#include <QColor>
#include <QFont>
#include <QList>

class QAbstractAxis;
class QChart;
class QChartView;

namespace wb {

struct ChartAppearance {
    bool dark = false;
    qreal font_scale = 1.0;
};

struct ChartColours {
    QColor background;  // the chart's and its plot area's
    QColor text;        // titles, axis labels, legend, value labels
    QColor grid;
    QColor axis_line;
};

// Text colours have a WCAG contrast of at least 4.5 against the background
// in both themes; the dark theme is the window's (ui/theme.h).
ChartColours chart_colours(bool dark);

enum class ChartText { Title, AxisTitle, AxisLabels, Legend, ValueLabel };

QFont chart_font(ChartText role, qreal scale);

// Colours and fonts of the view's chart: backgrounds, title, legend and
// `axes`, which may include axes not attached at the moment (an axis a
// chart swaps in later keeps the appearance).
void apply_chart_appearance(QChartView* view, const QList<QAbstractAxis*>& axes, const ChartAppearance& appearance);

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// A chart laid out afresh for an exported picture: resized to the area it
// gets there, its fonts sized for that picture (the dock's compact 9 px
// fonts would be specks on a 1920 x 1080 slide), its lines as much wider
// and its legend under the plot. Everything comes back when the look goes out of scope, so the
// window's chart is as it was.
#pragma once

#include <QFont>
#include <QMargins>
#include <QPen>
#include <QSizeF>
#include <vector>

class QAbstractAxis;
class QChart;
class QXYSeries;

namespace wb {

class ChartExportLook {
public:
    // font_scale is 1 for a 1280 x 720 picture (see export_font_scale);
    // hide_legend when the picture's own legend already names every entry.
    ChartExportLook(QChart* chart, const QSizeF& size, double font_scale, bool hide_legend);
    ~ChartExportLook();
    ChartExportLook(const ChartExportLook&) = delete;
    ChartExportLook& operator=(const ChartExportLook&) = delete;

private:
    struct AxisFonts {
        QAbstractAxis* axis;
        QFont labels;
        QFont title;
    };

    struct SeriesPen {
        QXYSeries* series;
        QPen pen;
    };

    QChart* chart_;
    QSizeF size_;
    QMargins margins_;
    QFont title_font_;
    QFont legend_font_;
    Qt::Alignment legend_alignment_;
    bool legend_visible_;
    std::vector<AxisFonts> axes_;
    std::vector<SeriesPen> pens_;
};

}  // namespace wb

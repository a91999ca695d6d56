// SPDX-License-Identifier: Apache-2.0
#include "export/chart_export_look.h"

#include <QAbstractAxis>
#include <QAbstractSeries>
#include <QChart>
#include <QCoreApplication>
#include <QGraphicsLayout>
#include <QLegend>
#include <QXYSeries>
#include <algorithm>
#include <cmath>

namespace wb {

namespace {

// Pixel sizes on a 1280 x 720 picture: what a slide shown on a projector
// still reads from the back of the room.
constexpr double kTitlePx = 20;
constexpr double kLegendPx = 15;
constexpr double kAxisTitlePx = 15;
constexpr double kAxisLabelsPx = 14;
// Below this no font is legible, however small the picture.
constexpr int kSmallestPx = 9;

QFont sized(QFont font, double base_px, double scale)
{
    font.setPixelSize(std::max(kSmallestPx, static_cast<int>(std::lround(base_px * scale))));
    return font;
}

}  // namespace

ChartExportLook::ChartExportLook(QChart* chart, const QSizeF& size, double font_scale, bool hide_legend)
    : chart_(chart),
      size_(chart->size()),
      margins_(chart->margins()),
      title_font_(chart->titleFont()),
      legend_font_(chart->legend()->font()),
      legend_alignment_(chart->legend()->alignment()),
      legend_visible_(chart->legend()->isVisible())
{
    const int margin = static_cast<int>(std::lround(8 * font_scale));
    chart->setMargins(QMargins(margin, margin, margin, margin));
    chart->setTitleFont(sized(title_font_, kTitlePx, font_scale));
    chart->legend()->setFont(sized(legend_font_, kLegendPx, font_scale));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setVisible(legend_visible_ && !hide_legend);
    for (QAbstractAxis* axis : chart->axes()) {
        axes_.push_back({axis, axis->labelsFont(), axis->titleFont()});
        axis->setLabelsFont(sized(axis->labelsFont(), kAxisLabelsPx, font_scale));
        axis->setTitleFont(sized(axis->titleFont(), kAxisTitlePx, font_scale));
    }
    // Only wider: a small picture keeps the window's lines.
    const double line_scale = std::max(1.0, font_scale);
    for (QAbstractSeries* series : chart->series()) {
        if (auto* xy = qobject_cast<QXYSeries*>(series)) {
            pens_.push_back({xy, xy->pen()});
            QPen pen = xy->pen();
            pen.setWidthF(pen.widthF() * line_scale);
            xy->setPen(pen);
        }
    }
    chart->resize(size);
    // The chart lays itself out on posted events; the picture is painted
    // before the event loop would run them.
    QCoreApplication::sendPostedEvents();
    if (chart->layout())
        chart->layout()->activate();
}

ChartExportLook::~ChartExportLook()
{
    for (const SeriesPen& p : pens_)
        p.series->setPen(p.pen);
    for (const AxisFonts& a : axes_) {
        a.axis->setLabelsFont(a.labels);
        a.axis->setTitleFont(a.title);
    }
    chart_->legend()->setVisible(legend_visible_);
    chart_->legend()->setAlignment(legend_alignment_);
    chart_->legend()->setFont(legend_font_);
    chart_->setTitleFont(title_font_);
    chart_->setMargins(margins_);
    chart_->resize(size_);
    QCoreApplication::sendPostedEvents();
    if (chart_->layout())
        chart_->layout()->activate();
}

}  // namespace wb

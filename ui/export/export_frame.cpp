// SPDX-License-Identifier: Apache-2.0
#include "export/export_frame.h"

#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QPainter>
#include <QSet>
#include <QSvgGenerator>
#include <QWidget>
#include <algorithm>
#include <cmath>
#include <optional>

#include "export/chart_export_look.h"
#include "export/export_format.h"
#include "export/uncached_items.h"

namespace wb {

namespace {

// Sizes in pixels on a 1280 x 720 picture; export_font_scale grows them.
constexpr double kMarginPx = 16;
constexpr double kGapPx = 10;
constexpr double kTitlePx = 22;
constexpr double kLegendPx = 18;
constexpr double kPanelLabelPx = 16;
constexpr double kPanelBorderPx = 3;
// More panels than this go into rows of two (four grids: two by two).
constexpr int kMaxPanelsInARow = 3;

QFont font_of(double base_px, double scale, bool bold)
{
    QFont font;
    font.setPixelSize(std::max(1, static_cast<int>(std::lround(base_px * scale))));
    font.setBold(bold);
    return font;
}

// The legend row, entry by entry: a swatch and the name in the policy's
// colour, then its figure. Entries flow onto further lines when the
// picture is too narrow for them, each line centred.
class LegendRow {
public:
    LegendRow(const std::vector<ExportLegendEntry>& entries, double scale, double width)
        : entries_(entries), name_font_(font_of(kLegendPx, scale, true)), figure_font_(font_of(kLegendPx, scale, false))
    {
        const QFontMetricsF names(name_font_);
        const QFontMetricsF figures(figure_font_);
        line_height_ = std::max(names.height(), figures.height());
        swatch_ = names.ascent() * 0.8;
        spacing_ = names.averageCharWidth() * 3;
        double line_width = 0;
        for (const ExportLegendEntry& e : entries_) {
            const double w =
                swatch_ + names.averageCharWidth() + names.horizontalAdvance(e.name) +
                (e.figure.isEmpty() ? 0 : names.averageCharWidth() * 2 + figures.horizontalAdvance(e.figure));
            if (!lines_.empty() && line_width + spacing_ + w > width) {
                lines_.emplace_back();
                line_width = 0;
            }
            if (lines_.empty())
                lines_.emplace_back();
            line_width += (lines_.back().widths.empty() ? 0 : spacing_) + w;
            lines_.back().widths.push_back(w);
            lines_.back().width = line_width;
        }
    }

    double height() const { return line_height_ * static_cast<double>(lines_.size()); }

    void paint(QPainter& painter, const QRectF& area, const QColor& text) const
    {
        const QFontMetricsF names(name_font_);
        std::size_t entry = 0;
        double y = area.top();
        for (const Line& line : lines_) {
            double x = area.left() + (area.width() - line.width) / 2;
            const double baseline = y + names.ascent();
            for (const double w : line.widths) {
                const ExportLegendEntry& e = entries_[entry++];
                painter.fillRect(QRectF(x, baseline - swatch_, swatch_, swatch_), e.colour);
                double at = x + swatch_ + names.averageCharWidth();
                painter.setFont(name_font_);
                painter.setPen(e.colour);
                painter.drawText(QPointF(at, baseline), e.name);
                at += names.horizontalAdvance(e.name) + names.averageCharWidth() * 2;
                painter.setFont(figure_font_);
                painter.setPen(text);
                painter.drawText(QPointF(at, baseline), e.figure);
                x += w + spacing_;
            }
            y += line_height_;
        }
    }

private:
    struct Line {
        std::vector<double> widths;
        double width = 0;
    };

    const std::vector<ExportLegendEntry>& entries_;
    QFont name_font_;
    QFont figure_font_;
    double line_height_ = 0;
    double swatch_ = 0;
    double spacing_ = 0;
    std::vector<Line> lines_;
};

// A chart whose own legend lists only the policies repeats the picture's
// legend; a legend of anything else (the placement chart's distance
// classes) is part of the chart and stays.
bool legend_repeats_policies(QChart* chart, const QSet<QString>& policies)
{
    bool any = false;
    for (QLegendMarker* marker : chart->legend()->markers()) {
        if (!marker->isVisible())
            continue;
        if (!policies.contains(marker->label()))
            return false;
        any = true;
    }
    return any;
}

void paint_view(QPainter& painter, const QRectF& area, QWidget* view, double scale, const QSet<QString>& policies)
{
    if (auto* chart_view = qobject_cast<QChartView*>(view)) {
        QChart* chart = chart_view->chart();
        // A chart not yet shown makes its legend's markers on posted events.
        QCoreApplication::sendPostedEvents();
        const ChartExportLook look(chart, area.size(), scale, legend_repeats_policies(chart, policies));
        const UncachedItems uncached(chart_view->scene());
        chart_view->scene()->render(&painter, area, QRectF(chart->pos(), area.size()), Qt::IgnoreAspectRatio);
        return;
    }
    auto* graphics = qobject_cast<QGraphicsView*>(view);
    if (graphics && graphics->scene()) {
        QGraphicsScene* scene = graphics->scene();
        if (scene->backgroundBrush().style() != Qt::NoBrush)
            painter.fillRect(area, scene->backgroundBrush());
        const UncachedItems uncached(scene);
        scene->render(&painter, area, scene->sceneRect(), Qt::KeepAspectRatio);
        return;
    }
    // Any other widget (the window, a table) is drawn as it is laid out,
    // scaled to fit: its own layout decides where its parts go.
    const QSizeF own = view->size();
    if (own.isEmpty())
        return;
    const double k = std::min(area.width() / own.width(), area.height() / own.height());
    painter.save();
    painter.translate(area.center() - QPointF(own.width() * k / 2, own.height() * k / 2));
    painter.scale(k, k);
    view->render(&painter, QPoint(), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
    painter.restore();
}

void paint_panel(QPainter& painter, QRectF area, const ExportPanel& panel, double scale, const QSet<QString>& policies)
{
    if (!panel.label.isEmpty()) {
        const QFont font = font_of(kPanelLabelPx, scale, true);
        const QFontMetricsF metrics(font);
        painter.setFont(font);
        painter.setPen(panel.colour);
        painter.drawText(QPointF(area.left(), area.top() + metrics.ascent()),
                         metrics.elidedText(panel.label, Qt::ElideRight, area.width()));
        area.setTop(area.top() + metrics.height() + kGapPx * scale / 2);
        const double border = kPanelBorderPx * scale;
        painter.save();
        painter.setPen(QPen(panel.colour, border));
        painter.setBrush(Qt::NoBrush);
        const QRectF frame = area.adjusted(border / 2, border / 2, -border / 2, -border / 2);
        painter.drawRoundedRect(frame, 2 * border, 2 * border);
        painter.restore();
        area = area.adjusted(2 * border, 2 * border, -2 * border, -2 * border);
    }
    if (panel.view && area.width() > 0 && area.height() > 0)
        paint_view(painter, area, panel.view, scale, policies);
}

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

bool write_png(const ExportFrame& frame, const QSize& size, const QString& path, QString* error)
{
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(frame.background);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        painter.setRenderHint(QPainter::SmoothPixmapTransform);
        paint_export_frame(painter, size, frame);
    }
    if (!image.save(path, "PNG"))
        return fail(error, QStringLiteral("cannot write '%1': the file could not be created or written").arg(path));
    return true;
}

bool write_svg(const ExportFrame& frame, const QSize& size, const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return fail(error, QStringLiteral("cannot write '%1': %2").arg(path, file.errorString()));
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    // CSS's 96 pixels to the inch: the width and height the generator
    // writes (in mm) then come to exactly `size` pixels.
    svg.setResolution(96);
    svg.setTitle(frame.title.isEmpty() ? QFileInfo(path).completeBaseName() : frame.title);
    svg.setDescription(QStringLiteral("Exported from wakebench"));
    {
        QPainter painter(&svg);
        paint_export_frame(painter, size, frame);
    }
    file.close();
    if (file.error() != QFileDevice::NoError)
        return fail(error, QStringLiteral("cannot write '%1': %2").arg(path, file.errorString()));
    return true;
}

}  // namespace

double export_font_scale(const QSize& size)
{
    return std::min(size.width() / 1280.0, size.height() / 720.0);
}

void paint_export_frame(QPainter& painter, const QSize& size, const ExportFrame& frame)
{
    const QRectF whole(QPointF(0, 0), QSizeF(size));
    painter.fillRect(whole, frame.background);
    if (frame.title.isEmpty() && frame.legend.empty()) {
        for (const ExportPanel& panel : frame.panels)
            paint_panel(painter, whole, panel, export_font_scale(size), {});
        return;
    }
    const double scale = export_font_scale(size);
    QRectF area = whole.adjusted(kMarginPx * scale, kMarginPx * scale, -kMarginPx * scale, -kMarginPx * scale);
    const double gap = kGapPx * scale;

    if (!frame.title.isEmpty()) {
        const QFont font = font_of(kTitlePx, scale, true);
        const QFontMetricsF metrics(font);
        painter.setFont(font);
        painter.setPen(frame.text);
        painter.drawText(QPointF(area.left(), area.top() + metrics.ascent()),
                         metrics.elidedText(frame.title, Qt::ElideRight, area.width()));
        area.setTop(area.top() + metrics.height() + gap);
    }
    QSet<QString> policies;
    if (!frame.legend.empty()) {
        const LegendRow legend(frame.legend, scale, area.width());
        const QRectF row(area.left(), area.bottom() - legend.height(), area.width(), legend.height());
        legend.paint(painter, row, frame.text);
        area.setBottom(row.top() - gap);
        for (const ExportLegendEntry& e : frame.legend)
            policies.insert(e.name);
    }

    const int n = static_cast<int>(frame.panels.size());
    if (n == 0 || area.height() <= 0)
        return;
    const int columns = n <= kMaxPanelsInARow ? n : 2;
    const int rows = (n + columns - 1) / columns;
    const double cell_w = (area.width() - gap * (columns - 1)) / columns;
    const double cell_h = (area.height() - gap * (rows - 1)) / rows;
    for (int i = 0; i < n; ++i) {
        const QRectF cell(area.left() + (i % columns) * (cell_w + gap), area.top() + (i / columns) * (cell_h + gap),
                          cell_w, cell_h);
        paint_panel(painter, cell, frame.panels[static_cast<std::size_t>(i)], scale, policies);
    }
}

bool write_export_frame(const ExportFrame& frame, const QSize& size, const QString& path, QString* error)
{
    const std::optional<ImageFormat> format = image_format_for(path);
    if (!format)
        return fail(error, image_format_error(path));
    if (size.isEmpty())
        return fail(error, QStringLiteral("cannot export to '%1': the picture has no area").arg(path));
    return *format == ImageFormat::Png ? write_png(frame, size, path, error) : write_svg(frame, size, path, error);
}

}  // namespace wb

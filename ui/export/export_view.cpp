// SPDX-License-Identifier: Apache-2.0
#include "export/export_view.h"

#include <QChartView>
#include <QFile>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <QWidget>
#include <optional>

#include "export/export_format.h"
#include "export/uncached_items.h"

namespace wb {

namespace {

// A scene is exported whole; a chart's scene is exactly what its view shows.
QRectF source_rect(const QGraphicsView* view)
{
    if (qobject_cast<const QChartView*>(view))
        return view->mapToScene(view->viewport()->rect()).boundingRect();
    return view->scene()->sceneRect();
}

QSize output_size(QWidget* view)
{
    if (auto* gv = qobject_cast<QGraphicsView*>(view); gv && gv->scene())
        return source_rect(gv).size().toSize().expandedTo({1, 1});
    return view->size().expandedTo({1, 1});
}

void render(QWidget* view, QPainter& painter, const QRectF& target)
{
    auto* gv = qobject_cast<QGraphicsView*>(view);
    if (gv && gv->scene()) {
        const UncachedItems uncached(gv->scene());
        gv->scene()->render(&painter, target, source_rect(gv));
        return;
    }
    view->render(&painter);
}

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

bool write_png(QWidget* view, const QString& path, QString* error)
{
    // Twice the pixels: slides are shown on screens larger than the dock.
    constexpr int kScale = 2;
    const QSize size = output_size(view) * kScale;
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    auto* gv = qobject_cast<QGraphicsView*>(view);
    const QColor background = gv && gv->scene() && gv->scene()->backgroundBrush().style() != Qt::NoBrush
                                  ? gv->scene()->backgroundBrush().color()
                                  : view->palette().color(QPalette::Window);
    image.fill(background);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        if (gv && gv->scene()) {
            render(view, painter, QRectF(QPointF(0, 0), QSizeF(size)));
        } else {
            painter.scale(kScale, kScale);
            render(view, painter, {});
        }
    }
    if (!image.save(path, "PNG"))
        return fail(error, QStringLiteral("cannot write '%1': the file could not be created or written").arg(path));
    return true;
}

bool write_svg(QWidget* view, const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return fail(error, QStringLiteral("cannot write '%1': %2").arg(path, file.errorString()));
    const QSize size = output_size(view);
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(view->windowTitle().isEmpty() ? QFileInfo(path).completeBaseName() : view->windowTitle());
    svg.setDescription(QStringLiteral("Exported from wakebench"));
    {
        QPainter painter(&svg);
        render(view, painter, QRectF(QPointF(0, 0), QSizeF(size)));
    }
    file.close();
    if (file.error() != QFileDevice::NoError)
        return fail(error, QStringLiteral("cannot write '%1': %2").arg(path, file.errorString()));
    return true;
}

}  // namespace

bool export_view(QWidget* view, const QString& path, QString* error)
{
    if (!view)
        return fail(error, QStringLiteral("cannot export to '%1': there is no view to export").arg(path));
    const std::optional<ImageFormat> format = image_format_for(path);
    if (!format)
        return fail(error, image_format_error(path));
    return *format == ImageFormat::Png ? write_png(view, path, error) : write_svg(view, path, error);
}

}  // namespace wb

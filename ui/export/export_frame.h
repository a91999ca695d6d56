// SPDX-License-Identifier: Apache-2.0
//
// ExportFrame: a view composed for a slide at a chosen size. A title line
// (what was run and how far), the view itself laid out for the picture
// rather than stretched from the window (a chart is resized to its area
// and its fonts follow the picture's size; a grid or the decision diagram
// is drawn from its scene), and a legend row: each policy's name in its
// colour and its headline figure. A frame without title and legend (the
// whole window) is its one view, drawn to fit.
//
// One painting function serves both formats, so a PNG and an SVG of the
// same frame show the same thing.
#pragma once

#include <QColor>
#include <QSize>
#include <QString>
#include <vector>

class QPainter;
class QWidget;

namespace wb {

struct ExportLegendEntry {
    QString name;    // "baseline"
    QColor colour;   // the policy's, as in its grid's frame and its chart lines
    QString figure;  // "usecs/op 3.960"
};

// One view in the picture. With a label (one policy's grid among several)
// the view is framed in `colour` under its label.
struct ExportPanel {
    QWidget* view = nullptr;
    QString label;
    QColor colour;
};

struct ExportFrame {
    QString title;
    std::vector<ExportPanel> panels;  // side by side, in rows when more than three
    std::vector<ExportLegendEntry> legend;
    QColor background = Qt::white;
    QColor text = Qt::black;
};

// 1 for a 1280 x 720 picture, growing with the smaller of the two ratios,
// so a 1920 x 1080 slide gets fonts half as large again.
double export_font_scale(const QSize& size);

// Paints `frame` over (0, 0, size) of `painter`'s device.
void paint_export_frame(QPainter& painter, const QSize& size, const ExportFrame& frame);

// Writes `frame` at `size` as PNG or SVG, by `path`'s suffix. False, with
// *error naming the file and the problem, when nothing was written.
bool write_export_frame(const ExportFrame& frame, const QSize& size, const QString& path, QString* error);

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "theme.h"

#include <QColor>
#include <QPainter>
#include <QPixmap>

namespace wb {

QPalette dark_palette()
{
    QPalette p;
    const QColor window(0x2b, 0x30, 0x36), base(0x1f, 0x23, 0x28), text(0xe6, 0xe9, 0xec);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::Highlight, QColor(0x00, 0x72, 0xb2));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, QColor(0x8a, 0x93, 0x9c));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x6b, 0x73, 0x7b));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x6b, 0x73, 0x7b));
    return p;
}

QIcon tinted_icon(const QIcon& icon, const QColor& colour)
{
    QIcon out;
    for (const int side : {16, 24, 32, 48}) {
        for (const QIcon::Mode mode : {QIcon::Normal, QIcon::Disabled}) {
            QPixmap pixmap = icon.pixmap(QSize(side, side), mode);
            if (pixmap.isNull())
                continue;
            QPainter painter(&pixmap);
            painter.setCompositionMode(QPainter::CompositionMode_SourceIn);
            QColor c = colour;
            if (mode == QIcon::Disabled)
                c.setAlphaF(0.4);
            painter.fillRect(pixmap.rect(), c);
            painter.end();
            out.addPixmap(pixmap, mode);
        }
    }
    return out;
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "export/export_size.h"

#include <QRegularExpression>

namespace wb {

QList<QSize> export_size_presets()
{
    return {QSize(1920, 1080), QSize(1280, 720)};
}

std::optional<QSize> parse_export_size(const QString& text)
{
    static const QRegularExpression pattern(QStringLiteral("^(\\d{1,5})[xX](\\d{1,5})$"));
    const QRegularExpressionMatch m = pattern.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const QSize size(m.captured(1).toInt(), m.captured(2).toInt());
    const auto in_bounds = [](int side) { return side >= kMinExportSide && side <= kMaxExportSide; };
    if (!in_bounds(size.width()) || !in_bounds(size.height()))
        return std::nullopt;
    return size;
}

QString export_size_text(const QSize& size)
{
    return QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "export/export_format.h"

#include <QFileInfo>

namespace wb {

std::optional<ImageFormat> image_format_for(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return ImageFormat::Png;
    if (suffix == QLatin1String("svg"))
        return ImageFormat::Svg;
    return std::nullopt;
}

QString image_format_error(const QString& path)
{
    if (image_format_for(path))
        return {};
    const QString suffix = QFileInfo(path).suffix();
    if (suffix.isEmpty())
        return QStringLiteral("cannot export to '%1': the name has no suffix; expected .png or .svg").arg(path);
    return QStringLiteral("cannot export to '%1': unknown image format '.%2'; expected .png or .svg").arg(path, suffix);
}

}  // namespace wb

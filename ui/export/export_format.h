// SPDX-License-Identifier: Apache-2.0
//
// An exported picture's format comes from its file name: .png or .svg.
#pragma once

#include <QString>
#include <optional>

namespace wb {

enum class ImageFormat { Png, Svg };

// Case-insensitive; nullopt for any other suffix or none.
std::optional<ImageFormat> image_format_for(const QString& path);

// Why `path` cannot be written as a picture ("... unknown image format
// '.jpg'; expected .png or .svg"); empty when its suffix is fine.
QString image_format_error(const QString& path);

}  // namespace wb

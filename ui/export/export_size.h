// SPDX-License-Identifier: Apache-2.0
//
// The size of an exported picture in pixels, as the command line (--size
// 1920x1080) and the export dialog give it. The bounds keep a typo from
// asking for a picture of a few pixels or of gigabytes.
#pragma once

#include <QList>
#include <QSize>
#include <QString>
#include <optional>

namespace wb {

inline constexpr int kMinExportSide = 320;
inline constexpr int kMaxExportSide = 7680;  // 8K UHD's width

// The slide sizes offered first: 1920x1080 and 1280x720.
QList<QSize> export_size_presets();

// "1920x1080" (or "1920X1080"); nullopt when malformed or out of bounds.
std::optional<QSize> parse_export_size(const QString& text);
QString export_size_text(const QSize& size);

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// The dark theme's palette (View > Dark theme); the light one is Qt's.
#pragma once

#include <QIcon>
#include <QPalette>

class QColor;

namespace wb {

QPalette dark_palette();

// `icon` in one colour (its shape, every pixel `colour`): the style's dark
// toolbar icons would vanish on the dark theme's background.
QIcon tinted_icon(const QIcon& icon, const QColor& colour);

}  // namespace wb

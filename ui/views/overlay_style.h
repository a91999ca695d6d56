// SPDX-License-Identifier: Apache-2.0
//
// The marks a wakeup's decision leaves on the grid, shared by the overlay
// that draws them and the legend that explains them.
#pragma once

#include <QColor>

#include "decision/palette.h"

namespace wb::overlay_style {

// The W(aker), P(rev) and T(arget) tags: white on near-black.
inline QColor role_fill()
{
    return QColor(0x26, 0x2b, 0x30);
}

// A scanned CPU's numbered badge: examined, not necessarily taken.
inline QColor scan_fill()
{
    return QColor(0xe6, 0x9f, 0x00);  // Okabe-Ito orange
}

// The chosen CPU's ring and the waker's arrow, by distance class; the light
// end of the ramp is darkened, as it would vanish on white cells.
inline QColor ring_colour(DistanceClass c)
{
    const QColor base = palette::distance_colour(c);
    return base.lightness() > 150 ? base.darker(150) : base;
}

}  // namespace wb::overlay_style

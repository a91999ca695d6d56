// SPDX-License-Identifier: Apache-2.0
//
// Exporting a view as an image for slides and posts: PNG or SVG, chosen by
// the file's suffix. Graphics views (the topology grid, the decision
// diagram, the charts) are rendered from their scene, whole, so an SVG holds
// vectors and text rather than a screenshot, and a PNG is not cut at the
// scroll position; other widgets are drawn as they are.
#pragma once

#include <QString>

class QWidget;

namespace wb {

// False, with *error naming the file and what went wrong (an unknown
// suffix, a path that cannot be written), when nothing was written.
bool export_view(QWidget* view, const QString& path, QString* error);

}  // namespace wb

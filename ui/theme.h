// SPDX-License-Identifier: Apache-2.0
//
// The dark theme's palette (View > Dark theme); the light one is Qt's.
#pragma once

#include <QPalette>

namespace wb {

QPalette dark_palette();

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// The window's error dialog: a summary line in bold, then the problems one
// per line as a list (the first dozen; the rest under "Show Details").
#pragma once

class QString;
class QWidget;

namespace wb {

// `message`: a summary line, then one problem per line.
void show_message_box(QWidget* parent, const QString& title, const QString& message);

}  // namespace wb

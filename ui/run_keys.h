// SPDX-License-Identifier: Apache-2.0
//
// RunKeys: the run's single-key shortcuts (Space, '.', Right, D, and ','
// and Left, back a wakeup in a trace) act on the run wherever focus is in
// the window, except in a field that takes text, which keeps its keys;
// Escape leaves such a field for the first grid. Without it a focused button, list or combo box would take Space or Right
// for itself, and a field would swallow Escape.
#pragma once

#include <QObject>
#include <QPointer>

class QWidget;

namespace wb {

// True for a widget that takes typed text: an editable line, text or
// spin box, or the line of an editable combo box.
bool takes_text(const QWidget* widget);

class RunKeys : public QObject {
    Q_OBJECT

public:
    // Filters the key events of `window`'s widgets (the filter sits on the
    // application, where ShortcutOverride passes before any widget sees it).
    explicit RunKeys(QWidget* window);

    // Where Escape sends focus: the first grid.
    void setHome(QWidget* home) { home_ = home; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* window_;
    QPointer<QWidget> home_;
};

}  // namespace wb

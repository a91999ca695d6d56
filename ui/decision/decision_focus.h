// SPDX-License-Identifier: Apache-2.0
//
// DecisionFocus: "Decision focus" puts the decision panel in a window of its
// own, as large as the main window and over it, and back into its dock
// again. The panel moves rather than being copied, so the focus window shows
// the very diagram the window feeds (no second diagram to keep in step), and
// a presenter can drag it to the projector while the grids stay on the
// laptop. The dock keeps a note saying where the diagram went.
#pragma once

#include <QList>
#include <QObject>

class QAction;
class QWidget;

namespace wb {

class DecisionFocus : public QObject {
    Q_OBJECT

public:
    // `panel` is reparented into home(); `main_window` gives the focus
    // window its size and owns it.
    DecisionFocus(QWidget* panel, QWidget* main_window);
    ~DecisionFocus() override;

    // What the dock holds: the panel, or the note while it is away.
    QWidget* home() const { return home_; }
    // The top-level window the panel moves to.
    QWidget* focusWindow() const { return window_; }
    bool isFocused() const { return focused_; }
    // The window's shortcuts (run, step, ...) keep working in the focus
    // window.
    void carryActions(const QList<QAction*>& actions);

    void setFocused(bool on);

signals:
    void focusedChanged(bool on);

private:
    QWidget* panel_;
    QWidget* main_;
    QWidget* home_;
    QWidget* note_;
    QWidget* window_;
    bool focused_ = false;
};

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// SwitchMenu: a menu of on/off switches (a policy's ablation switches) that
// stays open while they are toggled, so that several can be set in one
// visit, and that shows each switch's tooltip (its meaning). A plain QMenu
// closes on every click and shows no tooltips.
#pragma once

#include <QMenu>

namespace wb {

class SwitchMenu : public QMenu {
    Q_OBJECT

public:
    explicit SwitchMenu(QWidget* parent = nullptr);

protected:
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    // Toggles `action` in place if it is a switch; false for anything else,
    // which the menu handles as usual (and closes on).
    static bool toggle(QAction* action);
};

}  // namespace wb

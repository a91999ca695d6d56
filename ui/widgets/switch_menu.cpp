// SPDX-License-Identifier: Apache-2.0
#include "widgets/switch_menu.h"

#include <QAction>
#include <QKeyEvent>
#include <QMouseEvent>

namespace wb {

SwitchMenu::SwitchMenu(QWidget* parent) : QMenu(parent)
{
    setToolTipsVisible(true);
}

bool SwitchMenu::toggle(QAction* action)
{
    if (!action || !action->isCheckable() || !action->isEnabled() || action->menu())
        return false;
    // trigger() toggles the check and emits toggled() and triggered(), as a
    // click would, without QMenu's activation path that closes the menu.
    action->trigger();
    return true;
}

void SwitchMenu::mouseReleaseEvent(QMouseEvent* event)
{
    if (toggle(actionAt(event->position().toPoint()))) {
        event->accept();
        return;
    }
    QMenu::mouseReleaseEvent(event);
}

void SwitchMenu::keyPressEvent(QKeyEvent* event)
{
    const bool activates =
        event->key() == Qt::Key_Space || event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
    if (activates && toggle(activeAction())) {
        event->accept();
        return;
    }
    QMenu::keyPressEvent(event);
}

}  // namespace wb

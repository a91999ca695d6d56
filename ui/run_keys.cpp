// SPDX-License-Identifier: Apache-2.0
#include "run_keys.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextEdit>
#include <QWidget>

namespace wb {

namespace {

bool is_run_key(const QKeyEvent& key)
{
    const Qt::KeyboardModifiers mods = key.modifiers() & ~Qt::KeypadModifier;
    if (mods != Qt::NoModifier)
        return false;
    switch (key.key()) {
    case Qt::Key_Space:
    case Qt::Key_Period:
    case Qt::Key_Right:
    case Qt::Key_Left:
    case Qt::Key_Comma:
    case Qt::Key_D:
        return true;
    default:
        return false;
    }
}

}  // namespace

bool takes_text(const QWidget* widget)
{
    if (const auto* line = qobject_cast<const QLineEdit*>(widget))
        return !line->isReadOnly();
    if (const auto* text = qobject_cast<const QTextEdit*>(widget))
        return !text->isReadOnly();
    if (const auto* plain = qobject_cast<const QPlainTextEdit*>(widget))
        return !plain->isReadOnly();
    if (const auto* spin = qobject_cast<const QAbstractSpinBox*>(widget))
        return !spin->isReadOnly();
    if (const auto* combo = qobject_cast<const QComboBox*>(widget))
        return combo->isEditable();
    return false;
}

RunKeys::RunKeys(QWidget* window) : QObject(window), window_(window)
{
    qApp->installEventFilter(this);
}

bool RunKeys::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::ShortcutOverride)
        return false;
    auto* widget = qobject_cast<QWidget*>(watched);
    if (!widget || widget->window() != window_)
        return false;
    auto* key = static_cast<QKeyEvent*>(event);
    if (takes_text(widget)) {
        if (key->key() == Qt::Key_Escape && key->modifiers() == Qt::NoModifier && home_) {
            home_->setFocus(Qt::ShortcutFocusReason);
            key->accept();
            return true;
        }
        // The field types the key; the action does not fire.
        if (is_run_key(*key)) {
            key->accept();
            return true;
        }
        return false;
    }
    // Anything else (a button, a list, a view) must not claim the key:
    // the window's shortcut fires.
    if (is_run_key(*key)) {
        key->ignore();
        return true;
    }
    return false;
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "decision/decision_focus.h"

#include <QAction>
#include <QCloseEvent>
#include <QKeySequence>
#include <QLabel>
#include <QPushButton>
#include <QShortcut>
#include <QVBoxLayout>
#include <functional>
#include <utility>

namespace wb {

namespace {

// Closing the focus window brings the panel home instead of destroying it.
class FocusWindow : public QWidget {
public:
    FocusWindow(QWidget* parent, std::function<void()> on_close)
        : QWidget(parent, Qt::Window), on_close_(std::move(on_close))
    {
    }

protected:
    void closeEvent(QCloseEvent* event) override
    {
        on_close_();
        event->accept();
    }

private:
    std::function<void()> on_close_;
};

}  // namespace

DecisionFocus::DecisionFocus(QWidget* panel, QWidget* main_window)
    : QObject(main_window), panel_(panel), main_(main_window)
{
    home_ = new QWidget(main_window);
    auto* home_layout = new QVBoxLayout(home_);
    home_layout->setContentsMargins(0, 0, 0, 0);
    home_layout->addWidget(panel_);

    note_ = new QWidget(home_);
    auto* note_layout = new QVBoxLayout(note_);
    auto* text = new QLabel(tr("The decision path is in its own window."), note_);
    text->setWordWrap(true);
    auto* back = new QPushButton(tr("Bring it back here"), note_);
    back->setObjectName(QStringLiteral("decisionFocusBack"));
    note_layout->addWidget(text);
    note_layout->addWidget(back);
    note_layout->addStretch(1);
    home_layout->addWidget(note_);
    note_->hide();
    connect(back, &QPushButton::clicked, this, [this] { setFocused(false); });

    window_ = new FocusWindow(main_window, [this] { setFocused(false); });
    window_->setObjectName(QStringLiteral("decisionFocusWindow"));
    window_->setWindowTitle(tr("Decision path — Wakebench"));
    auto* window_layout = new QVBoxLayout(window_);
    window_layout->setContentsMargins(4, 4, 4, 4);
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), window_);
    connect(escape, &QShortcut::activated, this, [this] { setFocused(false); });
}

DecisionFocus::~DecisionFocus() = default;

void DecisionFocus::carryActions(const QList<QAction*>& actions)
{
    window_->addActions(actions);
}

void DecisionFocus::setFocused(bool on)
{
    if (on == focused_)
        return;
    focused_ = on;
    if (on) {
        window_->layout()->addWidget(panel_);
        panel_->show();
        note_->show();
        // Over the main window, at its size: the diagram takes the centre.
        window_->setGeometry(main_->geometry());
        window_->show();
        window_->raise();
        window_->activateWindow();
        panel_->setFocus();
    } else {
        static_cast<QVBoxLayout*>(home_->layout())->insertWidget(0, panel_);
        note_->hide();
        panel_->show();
        window_->hide();
    }
    emit focusedChanged(on);
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// The window the main-window tests start from: shown at 1280x800 on the
// teaching machine's scenario, its first frame drawn, its error dialogs
// collected in `errors` instead of shown.
#pragma once

#include <QSignalSpy>
#include <QStringList>
#include <QTest>

#include "main_window.h"
#include "sim/sim_session.h"
#include "window_test_support.h"

namespace wb::test {

// False when the window did not come up or draw its first frame.
[[nodiscard]] inline bool open_teaching_window(MainWindow*& window, QStringList& errors)
{
    errors.clear();
    window = new MainWindow;
    window->setErrorHandler(
        [&errors](const QString& title, const QString& message) { errors << title + QStringLiteral(": ") + message; });
    window->resize(1280, 800);
    window->show();
    if (!QTest::qWaitForWindowExposed(window))
        return false;
    QSignalSpy frames(window->session(), &SimSession::frameReady);
    return window->setScenario(teaching_scenario(), QString(), 0) && frames.wait(20000);
}

}  // namespace wb::test

// SPDX-License-Identifier: Apache-2.0
//
// An exception that escapes into Qt's event loop (here injected from a
// timer, as a slot's bug would throw one) is caught at the boundary by
// GuardedApplication, reported by the window in a dialog and the status
// bar, and the window lives on: it still steps its runs.
#include <QLabel>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>
#include <QTimer>
#include <stdexcept>

#include "guarded_application.h"
#include "main_window.h"
#include "sim/sim_session.h"
#include "teaching_window.h"
#include "window_test_support.h"

namespace wb {

class GuardedApplicationTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::use_clean_settings(); }

    void anEscapedExceptionIsReportedAndTheWindowGoesOn()
    {
        MainWindow* window = nullptr;
        QStringList errors;
        QVERIFY(test::open_teaching_window(window, errors));
        window->setRemembering(false);
        window->pauseSimulation();
        const int before = GuardedApplication::caught();

        QTimer::singleShot(0, window, [] { throw std::runtime_error("injected failure in a slot"); });
        QTRY_COMPARE(errors.size(), 1);
        QCOMPARE(GuardedApplication::caught(), before + 1);
        QVERIFY2(errors.front().startsWith(QStringLiteral("Internal error: ")), qPrintable(errors.front()));
        QVERIFY2(errors.front().contains(QStringLiteral("injected failure in a slot")), qPrintable(errors.front()));
        QVERIFY(window->statusBar()
                    ->findChild<QLabel*>(QStringLiteral("messageStatus"))
                    ->text()
                    .contains(QStringLiteral("injected failure")));

        // Alive: the scenario is there and the runs still step.
        QVERIFY(window->isVisible());
        QVERIFY(window->hasScenario());
        QSignalSpy stepped(window->session(), &SimSession::stepped);
        window->stepWakeup();
        QVERIFY(stepped.wait(10000));
        delete window;
    }
};

}  // namespace wb

int main(int argc, char** argv)
{
    wb::GuardedApplication app(argc, argv);
    wb::GuardedApplicationTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "guarded_application_test.moc"

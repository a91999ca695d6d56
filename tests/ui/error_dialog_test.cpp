// SPDX-License-Identifier: Apache-2.0
//
// Bad input in the window as an interactive user meets it: no error handler
// of the test's own, so every problem goes through the window's modal
// dialog, as in `wakebench` after start-up. A watcher reads each dialog and
// presses OK, as the user would; the tests then check that the scenario on
// screen and the form's unapplied edits are still there.
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "io/scenario_json.h"
#include "main_window.h"
#include "sim/sim_session.h"
#include "topology/machine.h"
#include "widgets/scenario_panel.h"
#include "window_test_support.h"

namespace wb {

namespace {

// Closes every modal message box that opens while it lives and keeps what
// it said: the title, then the bold summary and the listed problems.
class DialogWatcher : public QObject {
public:
    DialogWatcher()
    {
        connect(&poll_, &QTimer::timeout, this, [this] { closeOpenDialog(); });
        poll_.start(10);
    }

    const QStringList& seen() const { return seen_; }

private:
    void closeOpenDialog()
    {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box)
            return;
        seen_ << box->windowTitle() + QStringLiteral(": ") + box->text() + QLatin1Char('\n') + box->informativeText();
        box->button(QMessageBox::Ok)->click();
    }

    QTimer poll_;
    QStringList seen_;
};

}  // namespace

class ErrorDialogTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::use_clean_settings(); }

    // The sequence of wakebench_main.cpp: a start-up handler while the
    // command line's scenario loads, then the empty handler that hands
    // errors back to the window.
    void init()
    {
        window_ = new MainWindow;
        window_->setRemembering(false);
        window_->setErrorHandler([](const QString&, const QString&) {});
        window_->resize(1280, 800);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_));
        QSignalSpy frames(window_->session(), &SimSession::frameReady);
        QVERIFY(window_->setScenario(test::teaching_scenario()));
        QVERIFY(frames.wait(20000));
        window_->setErrorHandler({});
        panel_ = window_->scenarioPanel();
        // An edit the user has not applied yet, which no error may take away.
        panel_->findChild<QLineEdit*>(QStringLiteral("scenarioSeed"))->setText(QStringLiteral("42"));
    }

    void cleanup() { delete window_; }

    void aSyntaxErrorShowsTheDialogWithItsLineAndColumn()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.json"));
        QVERIFY(test::write_file(
            path, "{\n  \"schema_version\": 1,\n  \"name\": \"broken\"\n  \"machine\": \"teaching-8\"\n}\n"));
        DialogWatcher watcher;
        QVERIFY(!window_->openScenario(path));
        QCOMPARE(watcher.seen().size(), 1);
        const QString& said = watcher.seen().front();
        QVERIFY2(said.startsWith(QStringLiteral("Cannot open scenario: ")), qPrintable(said));
        QVERIFY2(said.contains(path + QStringLiteral(":4:")), qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("Still showing teaching.")), qPrintable(said));
        expectScenarioAndEditsKept();
    }

    void anUnknownPolicyInAFileNamesItsPointerAndTheChoices()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("v9.json"));
        QVERIFY(test::write_file(path,
                                 "{\n  \"schema_version\": 1,\n  \"name\": \"v9\",\n  \"machine\": \"teaching-8\",\n"
                                 "  \"cases\": [{\"workload\": \"pipe:loops=300\"}],\n"
                                 "  \"policies\": [\"baseline\", \"sync-waker-v9\"]\n}\n"));
        DialogWatcher watcher;
        QVERIFY(!window_->openScenario(path));
        QCOMPARE(watcher.seen().size(), 1);
        const QString& said = watcher.seen().front();
        QVERIFY2(said.contains(path + QStringLiteral(":6:")), qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("/policies/1")), qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("sync-waker-v9")), qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("sync-waker-v3")), qPrintable(said));  // what was expected
        expectScenarioAndEditsKept();
    }

    void anUnknownMachineTypedIntoTheFormKeepsTheEdit()
    {
        panel_->findChild<QComboBox*>(QStringLiteral("scenarioMachine"))->setCurrentText(QStringLiteral("no-such-box"));
        DialogWatcher watcher;
        apply();
        QCOMPARE(watcher.seen().size(), 1);
        const QString& said = watcher.seen().front();
        QVERIFY2(said.startsWith(QStringLiteral("Cannot use scenario: ")), qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("no-such-box")), qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("ampere-altra-80")), qPrintable(said));  // what was expected
        QCOMPARE(panel_->machineSpec(), QStringLiteral("no-such-box"));
        expectScenarioAndEditsKept();
    }

    void aPolicyTypedIntoTheFormKeepsTheEdit()
    {
        panel_->findChild<QComboBox*>(QStringLiteral("scenarioPolicy1"))
            ->setCurrentText(QStringLiteral("sync-waker-v9"));
        DialogWatcher watcher;
        apply();
        QCOMPARE(watcher.seen().size(), 1);
        const QString& said = watcher.seen().front();
        QVERIFY2(said.contains(QStringLiteral("sync-waker-v9")), qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("sync-waker-v3")), qPrintable(said));
        QCOMPARE(panel_->policySpecs(), (QStringList{QStringLiteral("baseline"), QStringLiteral("sync-waker-v9")}));
        expectScenarioAndEditsKept();
    }

    void aBadWorkloadParameterTypedIntoTheFormKeepsTheEdit()
    {
        panel_->findChild<QLineEdit*>(QStringLiteral("param_loops"))->setText(QStringLiteral("many"));
        DialogWatcher watcher;
        apply();
        QCOMPARE(watcher.seen().size(), 1);
        const QString& said = watcher.seen().front();
        QVERIFY2(said.contains(QStringLiteral("loops")), qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("many")), qPrintable(said));
        QCOMPARE(panel_->workloadSpec(), QStringLiteral("pipe:loops=many"));
        expectScenarioAndEditsKept();
    }

    // A window that was never given a handler reports through its dialog too.
    void aNewWindowShowsTheDialog()
    {
        MainWindow fresh;
        fresh.setRemembering(false);
        DialogWatcher watcher;
        QVERIFY(!fresh.loadMachine(QStringLiteral("no-such-box")));
        QCOMPARE(watcher.seen().size(), 1);
        QVERIFY2(watcher.seen().front().contains(QStringLiteral("No scenario is loaded.")),
                 qPrintable(watcher.seen().front()));
    }

private:
    void apply() { panel_->findChild<QPushButton*>(QStringLiteral("scenarioApply"))->click(); }

    void expectScenarioAndEditsKept()
    {
        QCOMPARE(QString::fromStdString(window_->scenario().name), QStringLiteral("teaching"));
        QCOMPARE(window_->scenario().policies, (std::vector<std::string>{"baseline", "sync-waker-v3"}));
        QCOMPARE(window_->machine().nr_cpus(), 8);
        QCOMPARE(window_->gridCount(), 2);
        QCOMPARE(panel_->findChild<QLineEdit*>(QStringLiteral("scenarioSeed"))->text(), QStringLiteral("42"));
    }

    MainWindow* window_ = nullptr;
    ScenarioPanel* panel_ = nullptr;
};

}  // namespace wb

QTEST_MAIN(wb::ErrorDialogTest)
#include "error_dialog_test.moc"

// SPDX-License-Identifier: Apache-2.0
//
// The window never loses the user's work (issue 16 §4): edits made in the
// scenario form and not applied survive a SIGKILL. The test starts itself
// again as a child that opens the window, edits the form and says so; the
// parent kills the child with SIGKILL, opens a window as the next start
// would, and finds the edits back in the form, unapplied, over the scenario
// they were made to.
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>
#include <cstdio>

#include "main_window.h"
#include "scenario_draft.h"
#include "sim/sim_session.h"
#include "teaching_window.h"
#include "widgets/scenario_panel.h"
#include "window_test_support.h"

namespace wb {

namespace {

const char* const kChild = "--edit-then-wait";

// The child: the window with the teaching scenario, remembered; two fields
// edited; "edited" on standard output; then it waits to be killed.
int edit_then_wait(int argc, char** argv)
{
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    MainWindow window;
    window.setErrorHandler([](const QString& title, const QString& message) {
        std::fprintf(stderr, "%s: %s\n", qPrintable(title), qPrintable(message));
    });
    window.show();
    if (!window.setScenario(test::teaching_scenario()))
        return 1;
    window.findChild<QLineEdit*>(QStringLiteral("scenarioSeed"))->setText(QStringLiteral("4242"));
    window.findChild<QLineEdit*>(QStringLiteral("param_loops"))->setText(QStringLiteral("777"));
    std::printf("edited\n");
    std::fflush(stdout);
    return app.exec();
}

}  // namespace

class ScenarioDraftTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        test::use_clean_settings();
        QFile::remove(QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
                          .filePath(QStringLiteral("draft-scenario.json")));
    }

    void unappliedEditsSurviveSigkill()
    {
        QProcess child;
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        child.start(QCoreApplication::applicationFilePath(), {QString::fromLatin1(kChild)});
        QVERIFY(child.waitForStarted(20000));
        QByteArray said;
        while (!said.contains("edited") && child.waitForReadyRead(60000))
            said += child.readAllStandardOutput();
        QVERIFY2(said.contains("edited"), said.constData());
        child.kill();  // SIGKILL: no destructor, no settings flushed at exit
        QVERIFY(child.waitForFinished(20000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);

        MainWindow next;
        next.setErrorHandler([](const QString& title, const QString& message) {
            QFAIL(qPrintable(title + QStringLiteral(": ") + message));
        });
        next.restoreLastScenario();
        QVERIFY(next.hasScenario());
        // The scenario the child ran...
        QCOMPARE(next.scenario(), test::teaching_scenario());
        // ...and its form, edited as the child left it, not applied.
        ScenarioPanel* panel = next.scenarioPanel();
        QVERIFY(panel->hasUnappliedEdits());
        QCOMPARE(panel->findChild<QLineEdit*>(QStringLiteral("scenarioSeed"))->text(), QStringLiteral("4242"));
        QCOMPARE(panel->workloadSpec(), QStringLiteral("pipe:loops=777"));
        QCOMPARE(panel->scenario().seed, std::uint64_t{4242});
    }

    // A draft over another scenario than the one restored is not applied to it.
    void aDraftOfAnotherScenarioIsLeftOut()
    {
        Scenario other = test::teaching_scenario();
        other.machine = "ampere-altra-80";
        Scenario edited = other;
        edited.seed = 99;
        QVERIFY(save_scenario_draft(MainWindow::draftFolder(), {other, edited, 0, QString()}));
        MainWindow next;
        next.restoreLastScenario();
        QCOMPARE(next.scenario(), test::teaching_scenario());
        QVERIFY(!next.scenarioPanel()->hasUnappliedEdits());
    }
};

}  // namespace wb

int main(int argc, char** argv)
{
    if (argc > 1 && qstrcmp(argv[1], wb::kChild) == 0)
        return wb::edit_then_wait(argc, argv);
    QApplication app(argc, argv);
    wb::ScenarioDraftTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "scenario_draft_test.moc"

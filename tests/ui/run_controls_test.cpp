// SPDX-License-Identifier: Apache-2.0
//
// The run's controls as people use them: the single-key shortcuts wherever
// focus is, except in a text field (which keeps its keys, and gives focus
// back on Escape); a restart that leaves nothing of the old run on screen;
// the status bar naming what each policy chose where they differ.
#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include "divergence_text.h"
#include "io/scenario_json.h"
#include "main_window.h"
#include "session/pace.h"
#include "sim/sim_session.h"
#include "sim/sim_worker.h"
#include "views/decision_overlay.h"
#include "views/topology_scene.h"
#include "views/topology_view.h"
#include "widgets/policy_grid.h"
#include "widgets/scenario_panel.h"
#include "window_test_support.h"

namespace wb {

namespace {

DecisionStep step(std::string_view function, std::string_view branch, CpuId result)
{
    return DecisionStep{function, branch, {}, result};
}

}  // namespace

class RunControlsTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::use_clean_settings(); }

    void init()
    {
        window_ = new MainWindow;
        window_->setRemembering(false);
        window_->setErrorHandler([this](const QString& title, const QString&) { errors_ << title; });
        window_->resize(1280, 800);
        window_->show();
        QApplication::setActiveWindow(window_);
        QVERIFY(QTest::qWaitForWindowActive(window_));
        QSignalSpy frames(window_->session(), &SimSession::frameReady);
        QVERIFY(window_->setScenario(test::teaching_scenario()));
        QVERIFY(frames.wait(20000));
        // The state follows the frame that shows it.
        QTRY_COMPARE(window_->session()->state(), SimState::Paused);
    }

    void cleanup()
    {
        delete window_;
        QVERIFY2(errors_.isEmpty(), qPrintable(errors_.join(QLatin1Char('\n'))));
        errors_.clear();
    }

    void focusStartsOnTheFirstGrid() { QCOMPARE(window_->focusWidget(), window_->grid(0)->view()); }

    void aFieldKeepsItsKeysAndEscapeLeavesIt()
    {
        auto* loops = window_->scenarioPanel()->findChild<QLineEdit*>(QStringLiteral("param_loops"));
        loops->setFocus();
        QTRY_COMPARE(QApplication::focusWidget(), loops);
        loops->setText(QStringLiteral("300"));
        QTest::keyClick(loops, Qt::Key_Space);
        QTest::keyClick(loops, Qt::Key_D);
        QTest::keyClick(loops, Qt::Key_Period);
        QCOMPARE(loops->text(), QStringLiteral("300 d."));
        QCOMPARE(window_->session()->state(), SimState::Paused);
        QCOMPARE(window_->session()->lastFrame().runs[0].decisions, std::uint64_t{0});

        QTest::keyClick(loops, Qt::Key_Escape);
        QCOMPARE(QApplication::focusWidget(), window_->grid(0)->view());
        QSignalSpy stepped(window_->session(), &SimSession::stepped);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Period);
        QVERIFY(stepped.wait(10000));
    }

    // A button would press itself on Space and a list move on Right: the
    // run's keys win there.
    void theRunKeysActFromAButtonAndAList()
    {
        auto* apply = window_->scenarioPanel()->findChild<QPushButton*>(QStringLiteral("scenarioApply"));
        apply->setFocus();
        QTRY_COMPARE(QApplication::focusWidget(), apply);
        QSignalSpy changed(window_, &MainWindow::scenarioChanged);
        QTest::keyClick(apply, Qt::Key_Space);
        QTRY_COMPARE_WITH_TIMEOUT(window_->session()->state(), SimState::Running, 10000);
        QTest::keyClick(apply, Qt::Key_Space);
        QTRY_COMPARE_WITH_TIMEOUT(window_->session()->state(), SimState::Paused, 10000);
        QCOMPARE(changed.count(), 0);  // Apply was not pressed

        auto* features = window_->scenarioPanel()->findChild<QListWidget*>(QStringLiteral("scenarioFeatures"));
        features->setFocus();
        QTRY_COMPARE(QApplication::focusWidget(), features);
        QSignalSpy stepped(window_->session(), &SimSession::stepped);
        QTest::keyClick(features, Qt::Key_Right);
        QVERIFY(stepped.wait(10000));
    }

    void aRestartClearsTheDecisionAndTheMessage()
    {
        // teaching-8 has SMT: only without its SMT condition does the patch differ.
        Scenario s = test::teaching_scenario();
        s.policies = {"baseline", "sync-waker-v3:smt_check=off"};
        QSignalSpy loaded(window_->session(), &SimSession::frameReady);
        QVERIFY(window_->setScenario(s));
        QVERIFY(loaded.wait(20000));
        QSignalSpy stepped(window_->session(), &SimSession::stepped);
        window_->nextDivergence();
        QVERIFY(stepped.wait(20000));
        auto* message = window_->findChild<QLabel*>(QStringLiteral("messageStatus"));
        // The stop's reason follows the step's records.
        QTRY_VERIFY2(message->text().startsWith(QStringLiteral("the policies diverge: #")),
                     qPrintable(message->text()));
        QVERIFY2(message->text().contains(QStringLiteral(", sync-waker-v3:smt_check=off → CPU ")),
                 qPrintable(message->text()));
        DecisionOverlay* overlay = window_->grid(0)->view()->topologyScene()->decisionOverlay();
        QVERIFY(overlay->hasRecord());

        QSignalSpy frames(window_->session(), &SimSession::frameReady);
        window_->restartSimulation();
        QVERIFY(frames.wait(20000));
        QVERIFY(!overlay->hasRecord());
        QCOMPARE(message->text(), QString());
        QCOMPARE(window_->findChild<QLabel*>(QStringLiteral("divergenceStatus"))->text(), QString());
    }

    // The default speed shows the scenario's first thousand decisions in
    // about ten seconds; a restart keeps the speed the user chose.
    void theDefaultSpeedFollowsTheScenariosPace()
    {
        Scenario s = test::teaching_scenario();
        s.cases = {{"pipe", "pipe:loops=100000"}};
        QSignalSpy paced(window_->session(), &SimSession::paced);
        QVERIFY(window_->setScenario(s));
        QVERIFY(paced.wait(20000));
        PaceProbe probe(make_session_setup(s, {}, 0));
        while (probe.wakeups() < SimWorker::kPacedWakeups && probe.advance()) {
        }
        const double wanted = probe.estimate(SimWorker::kPacedWakeups).to_seconds() / 10;
        // The slider's steps go 1, 2, 5: the nearest is within a factor of 1.6.
        QVERIFY2(window_->speed() > wanted / 1.6 && window_->speed() < wanted * 1.6,
                 qPrintable(QStringLiteral("%1 for %2").arg(window_->speed()).arg(wanted)));

        window_->setSpeed(0.5);
        QSignalSpy frames(window_->session(), &SimSession::frameReady);
        window_->restartSimulation();
        QVERIFY(frames.wait(20000));
        QTest::qWait(100);
        QCOMPARE(window_->speed(), 0.5);
    }

    void theDivergenceNamesEachChoiceAndWhy()
    {
        DecisionRecord mainline;
        mainline.chosen = 2;
        mainline.steps = {step("select_task_rq_fair", "wake_affine", 0), step("select_idle_sibling", "prev idle", 2)};
        DecisionRecord patched;
        patched.chosen = 3;
        patched.steps = {step("sync-waker-v3", "reciprocal sync pair: waker cpu", 3)};
        QCOMPARE(
            divergence_text(3, {{QStringLiteral("baseline"), &mainline},
                                {QStringLiteral("sync-waker-v3:smt_check=off"), &patched}}),
            QStringLiteral("#3: baseline → CPU 2 (prev idle), sync-waker-v3:smt_check=off → CPU 3 (sync-waker-v3)"));
        // A run that has ended has no record and is left out.
        QCOMPARE(divergence_text(4, {{QStringLiteral("baseline"), &mainline}, {QStringLiteral("x"), nullptr}}),
                 QStringLiteral("#4: baseline → CPU 2 (prev idle)"));
    }

private:
    MainWindow* window_ = nullptr;
    QStringList errors_;
};

}  // namespace wb

QTEST_MAIN(wb::RunControlsTest)
#include "run_controls_test.moc"

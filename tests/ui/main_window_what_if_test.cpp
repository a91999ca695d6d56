// SPDX-License-Identifier: Apache-2.0
//
// What if at a simulated wakeup: View ▸ What if shows the dock; each
// stepped wakeup lists every policy of the scenario, asked in the first
// run's state (so its first row is that run's own choice), and a flipped
// feature adds mainline with it switched; off, the dock goes and nothing
// is asked.
#include <QAction>
#include <QDockWidget>
#include <QSignalSpy>
#include <QTest>

#include "decision/what_if_panel.h"
#include "main_window.h"
#include "sim/sim_session.h"
#include "teaching_window.h"
#include "window_test_support.h"

namespace wb {

class MainWindowWhatIfTest : public QObject {
    Q_OBJECT

    // Steps one wakeup and returns what the session sent for it.
    StepRecords step()
    {
        QSignalSpy stepped(window_->session(), &SimSession::stepped);
        window_->stepWakeup();
        if (!stepped.wait(20000))
            return {};
        return stepped.takeFirst().at(0).value<StepRecords>();
    }

private slots:
    void initTestCase() { test::use_clean_settings(); }
    void init()
    {
        QVERIFY(test::open_teaching_window(window_, errors_));
        window_->setRemembering(false);
        window_->pauseSimulation();
    }
    void cleanup()
    {
        delete window_;
        window_ = nullptr;
    }

    void offByDefaultAndAsksNothing()
    {
        auto* dock = window_->findChild<QDockWidget*>(QStringLiteral("whatIfDock"));
        QVERIFY(dock);
        QVERIFY(!dock->isVisible());
        QVERIFY(!window_->whatIfShown());
        const StepRecords s = step();
        QVERIFY(!s.records.empty());
        for (const WhatIfChoices& c : s.what_if)
            QVERIFY(c.empty());
    }

    void eachStepListsEveryPolicyInTheFirstRunsState()
    {
        auto* action = window_->findChild<QAction*>(QStringLiteral("whatIfAction"));
        QVERIFY(action);
        action->trigger();
        QVERIFY(window_->whatIfShown());
        QTRY_VERIFY(window_->findChild<QDockWidget*>(QStringLiteral("whatIfDock"))->isVisible());
        WhatIfPanel* panel = window_->whatIfPanel();
        int compared = 0;
        for (int k = 0; k < 20; ++k) {
            const StepRecords s = step();
            QVERIFY(!s.records.empty() && s.records.front());
            if (s.what_if.front().empty())
                continue;  // woken in place: nothing selected
            QCOMPARE(panel->rowCount(), 2);
            QCOMPARE(panel->policyAt(0), QStringLiteral("baseline"));
            QCOMPARE(panel->policyAt(1), QStringLiteral("sync-waker-v3"));
            // Asked in baseline's own state, baseline answers what it chose.
            QCOMPARE(panel->chosenAt(0), s.records.front()->chosen);
            QVERIFY(panel->heading().contains(QStringLiteral("in baseline's state")));
            ++compared;
        }
        QVERIFY(compared > 10);
        QVERIFY(errors_.isEmpty());
    }

    void aFlippedFeatureAddsMainlineWithIt()
    {
        window_->setWhatIfShown(true);
        WhatIfPanel* panel = window_->whatIfPanel();
        panel->setFlips({QStringLiteral("NO_WA_IDLE")});
        QCOMPARE(panel->flips(), QStringList{QStringLiteral("NO_WA_IDLE")});
        bool seen = false;
        for (int k = 0; k < 10 && !seen; ++k) {
            const StepRecords s = step();
            if (s.what_if.empty() || s.what_if.front().empty())
                continue;
            QCOMPARE(panel->rowCount(), 3);
            QCOMPARE(panel->policyAt(2), QStringLiteral("baseline NO_WA_IDLE"));
            const DecisionRecord* rec = panel->recordAt(2);
            QVERIFY(rec);
            for (const DecisionStep& st : rec->steps)
                QVERIFY(st.function != "wake_affine_idle");
            seen = true;
        }
        QVERIFY(seen);
    }

    void offAgainTheDockGoesAndNothingIsAsked()
    {
        window_->setWhatIfShown(true);
        step();
        window_->setWhatIfShown(false);
        QVERIFY(!window_->findChild<QDockWidget*>(QStringLiteral("whatIfDock"))->isVisible());
        step();  // a record made in the same event as the last asked one may still carry its answer
        for (int k = 0; k < 5; ++k)
            for (const WhatIfChoices& c : step().what_if)
                QVERIFY(c.empty());
    }

private:
    MainWindow* window_ = nullptr;
    QStringList errors_;
};

}  // namespace wb

QTEST_MAIN(wb::MainWindowWhatIfTest)
#include "main_window_what_if_test.moc"

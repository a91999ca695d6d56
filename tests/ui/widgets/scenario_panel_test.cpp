// SPDX-License-Identifier: Apache-2.0
#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QObject>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QToolButton>

#include "io/scenario_json.h"
#include "main_window.h"
#include "policies/sync_waker_v3.h"
#include "widgets/scenario_panel.h"
#include "window_test_support.h"

namespace wb {

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// Row 1 of test::teaching_scenario() is sync-waker-v3.
QToolButton* sync_waker_switches(const QWidget& panel)
{
    return panel.findChild<QToolButton*>(QStringLiteral("scenarioSwitches1"));
}

QAction* switch_action(const QToolButton* button, const QString& name)
{
    for (QAction* a : button->menu()->actions())
        if (a->text() == name)
            return a;
    return nullptr;
}

}  // namespace

class ScenarioPanelTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::use_clean_settings(); }

    void switchActionsShowTheirMeaningAndDefault()
    {
        ScenarioPanel panel;
        panel.setScenario(test::teaching_scenario(), 0);
        QToolButton* button = sync_waker_switches(panel);
        QVERIFY(button);
        QVERIFY(button->menu()->toolTipsVisible());
        const std::vector<PolicySwitch>& switches = SyncWakerV3::info().switches;
        QCOMPARE(button->menu()->actions().size(), static_cast<qsizetype>(switches.size()));
        for (const PolicySwitch& sw : switches) {
            QAction* a = switch_action(button, qs(sw.name));
            QVERIFY2(a, sw.name.data());
            QVERIFY2(a->toolTip().contains(qs(sw.meaning)), qPrintable(a->toolTip()));
            QVERIFY2(
                a->toolTip().contains(sw.default_on ? QStringLiteral("default on") : QStringLiteral("default off")),
                qPrintable(a->toolTip()));
        }
    }

    void theMenuStaysOpenWhileSwitchesAreToggled()
    {
        ScenarioPanel panel;
        panel.setScenario(test::teaching_scenario(), 0);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QMenu* menu = sync_waker_switches(panel)->menu();
        menu->popup(panel.mapToGlobal(QPoint(10, 10)));
        QVERIFY(QTest::qWaitForWindowExposed(menu));

        QAction* smt = switch_action(sync_waker_switches(panel), QStringLiteral("smt_check"));
        QVERIFY(smt->isChecked());
        QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(smt).center());
        QVERIFY(!smt->isChecked());
        QVERIFY(menu->isVisible());

        // The keyboard toggles in place too.
        QAction* sync = switch_action(sync_waker_switches(panel), QStringLiteral("sync"));
        menu->setActiveAction(sync);
        QTest::keyClick(menu, Qt::Key_Space);
        QVERIFY(!sync->isChecked());
        QVERIFY(menu->isVisible());
        QCOMPARE(panel.policySpecs().at(1), QStringLiteral("sync-waker-v3:sync=off,smt_check=off"));
        menu->close();
    }

    void theButtonCountsSwitchesOffTheirDefault()
    {
        ScenarioPanel panel;
        panel.setScenario(test::teaching_scenario(), 0);
        QToolButton* button = sync_waker_switches(panel);
        QCOMPARE(button->text(), QStringLiteral("switches"));

        switch_action(button, QStringLiteral("smt_check"))->trigger();
        QCOMPARE(button->text(), QStringLiteral("switches (1 off)"));
        QVERIFY2(button->toolTip().contains(QStringLiteral("smt_check off (default on)")),
                 qPrintable(button->toolTip()));

        // A scenario that sets switches marks them as it loads.
        Scenario s = test::teaching_scenario();
        s.policies[1] = "sync-waker-v3:smt_check=off,reciprocal=off";
        panel.setScenario(s, 0);
        QCOMPARE(button->text(), QStringLiteral("switches (2 off)"));
        QVERIFY2(button->toolTip().contains(QStringLiteral("reciprocal off (default on)")),
                 qPrintable(button->toolTip()));

        // Back at its default, a switch is no longer counted.
        switch_action(button, QStringLiteral("reciprocal"))->trigger();
        QCOMPARE(button->text(), QStringLiteral("switches (1 off)"));
    }

    void editsAreMarkedUntilAScenarioIsSet()
    {
        ScenarioPanel panel;
        panel.setScenario(test::teaching_scenario(), 0);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto* apply = panel.findChild<QPushButton*>(QStringLiteral("scenarioApply"));
        auto* label = panel.findChild<QLabel*>(QStringLiteral("scenarioUnapplied"));
        const QString plain = apply->text();
        QVERIFY(!panel.hasUnappliedEdits());
        QVERIFY(!label->isVisible());

        QSignalSpy changed(&panel, &ScenarioPanel::unappliedEditsChanged);
        auto* loops = panel.findChild<QLineEdit*>(QStringLiteral("param_loops"));
        QVERIFY(loops);
        loops->setText(QStringLiteral("500"));
        QVERIFY(panel.hasUnappliedEdits());
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.at(0).at(0).toBool(), true);
        QVERIFY(apply->text() != plain);
        QVERIFY(apply->font().bold());
        QVERIFY(label->isVisible());

        // Undoing the edit by hand leaves nothing to apply.
        loops->setText(QStringLiteral("300"));
        QVERIFY(!panel.hasUnappliedEdits());
        QCOMPARE(changed.size(), 2);

        // A switch is an edit as well; setting a scenario clears the mark.
        QAction* fits = switch_action(sync_waker_switches(panel), QStringLiteral("fits"));
        fits->trigger();
        QVERIFY(panel.hasUnappliedEdits());
        panel.setScenario(test::teaching_scenario(), 0);
        QVERIFY(!panel.hasUnappliedEdits());
        // The form shows the scenario set, not the toggle made before it.
        QVERIFY(fits->isChecked());
        QCOMPARE(changed.last().at(0).toBool(), false);
        QCOMPARE(apply->text(), plain);
        QVERIFY(!apply->font().bold());
        QVERIFY(!label->isVisible());
    }

    void theCopiedCommandIsWhatTheFormShows()
    {
        MainWindow window;
        window.setErrorHandler([](const QString&, const QString&) {});
        QVERIFY(window.setScenario(test::teaching_scenario(), QString(), 0));
        ScenarioPanel* panel = window.scenarioPanel();
        auto* copy = panel->findChild<QPushButton*>(QStringLiteral("copyWakesimCommand"));
        auto* loops = panel->findChild<QLineEdit*>(QStringLiteral("param_loops"));
        loops->setText(QStringLiteral("77"));
        switch_action(sync_waker_switches(*panel), QStringLiteral("smt_check"))->trigger();
        QVERIFY(panel->hasUnappliedEdits());

        QApplication::clipboard()->clear();
        QTest::mouseClick(copy, Qt::LeftButton);
        const QString text = QApplication::clipboard()->text();
        QVERIFY2(text.contains(QStringLiteral("--workload pipe:loops=77")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("--policy sync-waker-v3:smt_check=off")), qPrintable(text));
        // Copying applies nothing.
        QVERIFY(panel->hasUnappliedEdits());

        // Edits that are no scenario: nothing copied, and the status bar says why.
        loops->setText(QStringLiteral("many"));
        QApplication::clipboard()->setText(QStringLiteral("before"));
        QTest::mouseClick(copy, Qt::LeftButton);
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("before"));
        auto* status = window.findChild<QLabel*>(QStringLiteral("messageStatus"));
        QVERIFY2(status->text().startsWith(QStringLiteral("nothing copied")), qPrintable(status->text()));
        QVERIFY2(status->text().contains(QStringLiteral("loops")), qPrintable(status->text()));
    }
};

}  // namespace wb

QTEST_MAIN(wb::ScenarioPanelTest)
#include "scenario_panel_test.moc"

// SPDX-License-Identifier: Apache-2.0
//
// Policy plugins in the window: loaded from the menu's code path, offered in
// the scenario panel, run side by side with mainline, reloaded after a
// rebuild, remembered for the next start, named in the wakesim command and
// in the saved scenario; and a plugin that breaks the hook contract stops
// its run with the error while the window and its scenario stay.
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include "engine/batch.h"
#include "io/scenario_json.h"
#include "io/topology_library.h"
#include "main_window.h"
#include "plugin/plugin_loader.h"
#include "policies/registry.h"
#include "sim/sim_session.h"
#include "topology/machine.h"
#include "widgets/policy_grid.h"
#include "widgets/scenario_panel.h"
#include "teaching_window.h"
#include "window_test_support.h"

namespace wb {

namespace {

// The loader's identity of a plugin: absolute and normalised.
QString plugin_path(const char* built)
{
    return QDir::cleanPath(QFileInfo(QString::fromUtf8(built)).absoluteFilePath());
}

const QString kExample = QStringLiteral("prefer-idle-prev-llc");

QStringList choices(const MainWindow& window, int row)
{
    auto* combo = window.findChild<QComboBox*>(QStringLiteral("scenarioPolicy%1").arg(row));
    QStringList out;
    for (int i = 0; combo && i < combo->count(); ++i)
        out << combo->itemText(i);
    return out;
}

const PolicyInfo* catalog_entry(const QString& name)
{
    for (const PolicyInfo* info : policy_catalog())
        if (QString::fromUtf8(info->name.data(), static_cast<qsizetype>(info->name.size())) == name)
            return info;
    return nullptr;
}

bool has_step_of(const std::vector<DecisionRecord>& records, std::string_view function)
{
    for (const DecisionRecord& r : records)
        for (const DecisionStep& s : r.steps)
            if (s.function == function)
                return true;
    return false;
}

Scenario with_policies(std::vector<std::string> policies)
{
    Scenario s = test::teaching_scenario();
    s.policies = std::move(policies);
    return s;
}

}  // namespace

class MainWindowPluginsTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::use_clean_settings(); }

    void init()
    {
        test::use_clean_settings();
        QVERIFY(test::open_teaching_window(window_, errors_));
    }

    void cleanup() { delete window_; }

    // First, while no plugin is loaded in this process (QTest keeps the
    // order written): the example's policy is offered only once loaded, and
    // loading keeps what the form shows, switch edits included.
    void aLoadedPluginsPoliciesJoinTheChoices()
    {
        auto* reload = window_->findChild<QAction*>(QStringLiteral("reloadPluginsAction"));
        QVERIFY(reload);
        QVERIFY(!reload->isEnabled());
        QVERIFY(!choices(*window_, 0).contains(kExample));
        // An unapplied edit: sync-waker-v3's first switch toggled.
        auto* switches = window_->findChild<QToolButton*>(QStringLiteral("scenarioSwitches1"));
        QVERIFY(switches && !switches->menu()->actions().isEmpty());
        QAction* first = switches->menu()->actions().front();
        const QString first_name = first->text();
        const bool toggled = !first->isChecked();
        first->setChecked(toggled);
        const QStringList specs = window_->scenarioPanel()->policySpecs();
        QVERIFY(window_->scenarioPanel()->hasUnappliedEdits());

        QVERIFY2(window_->loadPlugin(QStringLiteral(WB_PLUGIN_EXAMPLE)), qPrintable(errors_.join('\n')));
        QVERIFY(errors_.isEmpty());
        for (int row = 0; row < ScenarioPanel::kPolicyRows; ++row)
            QVERIFY2(choices(*window_, row).contains(kExample), qPrintable(choices(*window_, row).join(',')));
        QCOMPARE(window_->scenarioPanel()->policySpecs(), specs);
        QVERIFY(window_->scenarioPanel()->hasUnappliedEdits());
        QAction* again =
            window_->findChild<QToolButton*>(QStringLiteral("scenarioSwitches1"))->menu()->actions().front();
        QCOMPARE(again->text(), first_name);
        QCOMPARE(again->isChecked(), toggled);
        QVERIFY(reload->isEnabled());
        QCOMPARE(reload->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_R));
        QCOMPARE(window_->rememberedPlugins(), QStringList{plugin_path(WB_PLUGIN_EXAMPLE)});
        // The choice's tooltip says where the policy comes from.
        auto* combo = window_->findChild<QComboBox*>(QStringLiteral("scenarioPolicy0"));
        const QString tip = combo->itemData(combo->findText(kExample), Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(plugin_path(WB_PLUGIN_EXAMPLE)), qPrintable(tip));
    }

    void aFileThatIsNoPluginIsReportedAndChangesNothing()
    {
        const std::size_t before = policy_catalog().size();
        QVERIFY(!window_->loadPlugin(QStringLiteral(WB_TEST_DATA "/no-such-plugin.so")));
        QCOMPARE(errors_.size(), 1);
        QVERIFY2(errors_[0].startsWith(QStringLiteral("Cannot load plugin: ")), qPrintable(errors_[0]));
        QVERIFY2(errors_[0].contains(QStringLiteral("no-such-plugin.so")), qPrintable(errors_[0]));
        QVERIFY2(errors_[0].contains(QStringLiteral("no such file")), qPrintable(errors_[0]));
        QCOMPARE(policy_catalog().size(), before);
        QVERIFY(!window_->rememberedPlugins().contains(QStringLiteral(WB_TEST_DATA "/no-such-plugin.so")));
        QCOMPARE(window_->gridCount(), 2);
    }

    // The plugin's policy runs in the window as core's run_one() runs it,
    // and its hook is seen deciding in the records.
    void mainlineAgainstThePluginRunsToTheEndWithFigures()
    {
        QVERIFY(window_->loadPlugin(QStringLiteral(WB_PLUGIN_EXAMPLE)));
        QVERIFY(window_->setScenario(with_policies({"baseline", kExample.toStdString()})));
        QCOMPARE(window_->grid(1)->policy(), kExample);
        window_->setSpeed(0);
        window_->runSimulation();
        QTRY_COMPARE_WITH_TIMEOUT(window_->session()->state(), SimState::Finished, 120000);
        QVERIFY2(errors_.isEmpty(), qPrintable(errors_.join('\n')));
        const SimFrame& frame = window_->session()->lastFrame();
        QCOMPARE(frame.runs.size(), std::size_t{2});
        const RunSnapshot& snap = frame.runs[1];
        QVERIFY(snap.finished);
        QVERIFY(snap.headline.value > 0);
        const RunOutcome core = run_one(resolve_machine("teaching-8"),
                                        RunRequest{"pipe:loops=300", kExample.toStdString(), FeatureSet(), 1});
        QCOMPARE(snap.headline.value, core.headline.value);
        QCOMPARE(snap.metrics.wakeups, core.metrics.wakeups);
        QVERIFY2(window_->grid(1)->figuresText().contains(QString::number(snap.headline.value, 'f', 3)),
                 qPrintable(window_->grid(1)->figuresText()));
        QVERIFY(has_step_of(frame.recent[1], kExample.toStdString()));
        QVERIFY(!has_step_of(frame.recent[0], kExample.toStdString()));
    }

    // Reload loads the file again (a new copy: new PolicyInfo), keeps the
    // policy on screen and restarts the runs from time 0, at the speed chosen.
    void reloadKeepsThePolicyAndRestartsTheRuns()
    {
        QVERIFY(window_->loadPlugin(QStringLiteral(WB_PLUGIN_EXAMPLE)));
        Scenario longer = with_policies({"baseline", kExample.toStdString()});
        longer.cases[0].workload = "pipe:loops=20000";  // still going at 2 ms
        QVERIFY(window_->setScenario(longer));
        QSignalSpy stopped(window_->session(), &SimSession::stopped);
        window_->runTo(Time::ms(2));
        QVERIFY(stopped.wait(60000));
        QVERIFY(window_->session()->lastFrame().runs[1].now >= Time::ms(1));
        QVERIFY(window_->session()->lastFrame().runs[1].decisions > 0);
        const PolicyInfo* before = catalog_entry(kExample);
        QVERIFY(before);
        window_->setSpeed(2e-3);

        QSignalSpy frames(window_->session(), &SimSession::frameReady);
        window_->findChild<QAction*>(QStringLiteral("reloadPluginsAction"))->trigger();
        QVERIFY2(errors_.isEmpty(), qPrintable(errors_.join('\n')));
        QVERIFY(frames.wait(20000));
        QTRY_COMPARE_WITH_TIMEOUT(window_->session()->state(), SimState::Paused, 20000);
        const PolicyInfo* after = catalog_entry(kExample);
        QVERIFY(after);
        QVERIFY(after != before);  // the policy now comes from the new copy
        QCOMPARE(window_->gridCount(), 2);
        QCOMPARE(window_->grid(1)->policy(), kExample);
        QVERIFY(choices(*window_, 1).contains(kExample));
        QCOMPARE(window_->session()->lastFrame().runs[1].now, Time());
        QCOMPARE(window_->session()->lastFrame().runs[1].decisions, std::uint64_t{0});
        QCOMPARE(window_->speed(), 2e-3);
        // The restarted runs go on, on the new build.
        QSignalSpy steps(window_->session(), &SimSession::stepped);
        for (int k = 0; k < 20; ++k) {
            window_->stepWakeup();
            QTRY_COMPARE_WITH_TIMEOUT(steps.count(), k + 1, 10000);
        }
        QVERIFY(window_->session()->lastFrame().runs[1].decisions > 0);
        QVERIFY(window_->session()->lastFrame().runs[1].now > Time());
    }

    // Every line names the plugins its own policies come from, before the
    // command word, and the plugin's line runs in wakesim as shown.
    void wakesimCommandLoadsThePluginFirst()
    {
        QVERIFY(window_->loadPlugin(QStringLiteral(WB_PLUGIN_EXAMPLE)));
        const std::string spec = kExample.toStdString() + ":sync=off";
        QVERIFY(window_->setScenario(with_policies({"baseline", spec})));
        const QStringList lines = window_->wakesimCommand().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 3);
        const QString plugin = QStringLiteral("wakesim --plugin ") + plugin_path(WB_PLUGIN_EXAMPLE) + QLatin1Char(' ');
        QVERIFY2(lines[0].startsWith(QStringLiteral("wakesim run ")), qPrintable(lines[0]));
        QVERIFY2(!lines[0].contains(QStringLiteral("--plugin")), qPrintable(lines[0]));
        QVERIFY2(lines[1].startsWith(plugin + QStringLiteral("run ")), qPrintable(lines[1]));
        QVERIFY2(lines[1].endsWith(QStringLiteral("--policy ") + QString::fromStdString(spec)), qPrintable(lines[1]));
        QVERIFY2(lines[2].startsWith(plugin + QStringLiteral("compare ")), qPrintable(lines[2]));

        QTemporaryDir dir;
        const QString json = dir.filePath(QStringLiteral("r.json"));
        const QString command = QStringLiteral(WB_WAKESIM_BIN) + lines[1].mid(QStringLiteral("wakesim").size());
        QProcess wakesim;
        wakesim.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), command + QStringLiteral(" --json ") + json});
        QVERIFY(wakesim.waitForFinished(120000));
        QVERIFY2(wakesim.exitCode() == 0, wakesim.readAllStandardError().constData());
        QFile file(json);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const double value = QJsonDocument::fromJson(file.readAll())
                                 .object()
                                 .value(QStringLiteral("headline"))
                                 .toObject()
                                 .value(QStringLiteral("value"))
                                 .toDouble();
        const RunOutcome core =
            run_one(resolve_machine("teaching-8"), RunRequest{"pipe:loops=300", spec, FeatureSet(), 1});
        QCOMPARE(value, core.headline.value);
    }

    // A hook that throws, met while running: the run stops with the
    // engine's message (policy, hook, wakeup); the window, its scenario and
    // its form stay, and Restart runs again.
    void aThrowingHookStopsTheRunAndTheWindowStays()
    {
        QVERIFY(window_->loadPlugin(QStringLiteral(WB_PLUGIN_MISBEHAVING)));
        const Scenario scenario = with_policies({"baseline", "throws-in-hook"});
        QVERIFY(window_->setScenario(scenario));
        window_->setSpeed(0);
        window_->runSimulation();
        QTRY_COMPARE_WITH_TIMEOUT(window_->session()->state(), SimState::Failed, 60000);
        QTRY_COMPARE_WITH_TIMEOUT(errors_.size(), 1, 10000);
        const QString& error = errors_.front();
        QVERIFY2(error.startsWith(QStringLiteral("The run stopped: ")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("policy 'throws-in-hook'")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("hook before_select_idle_sibling")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("wakeup of task")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("my idea is not finished")), qPrintable(error));
        QVERIFY2(window_->findChild<QLabel*>(QStringLiteral("messageStatus"))->text().contains("throws-in-hook"),
                 qPrintable(window_->findChild<QLabel*>(QStringLiteral("messageStatus"))->text()));
        QVERIFY(window_->isVisible());
        QCOMPARE(window_->scenario(), scenario);
        QCOMPARE(window_->gridCount(), 2);
        QCOMPARE(window_->scenarioPanel()->policySpecs(),
                 (QStringList{QStringLiteral("baseline"), QStringLiteral("throws-in-hook")}));
        QVERIFY(!window_->findChild<QAction*>(QStringLiteral("runAction"))->isEnabled());
        QVERIFY(!window_->findChild<QAction*>(QStringLiteral("stepAction"))->isEnabled());
        // Nothing more comes from the broken run.
        QSignalSpy frames(window_->session(), &SimSession::frameReady);
        QTest::qWait(200);
        QCOMPARE(frames.count(), 0);

        window_->restartSimulation();
        QTRY_COMPARE_WITH_TIMEOUT(window_->session()->state(), SimState::Paused, 20000);
        QCOMPARE(window_->session()->lastFrame().runs[1].now, Time());
        QCOMPARE(errors_.size(), 1);
    }

    // The same through a step, with a CPU the machine does not have.
    void aStepToAnImpossibleCpuIsReported()
    {
        QVERIFY(window_->loadPlugin(QStringLiteral(WB_PLUGIN_MISBEHAVING)));
        QVERIFY(window_->setScenario(with_policies({"baseline", "returns-cpu-outside"})));
        QSignalSpy steps(window_->session(), &SimSession::stepped);
        for (int k = 0; k < 50 && errors_.isEmpty(); ++k) {
            window_->stepWakeup();
            QTRY_VERIFY_WITH_TIMEOUT(steps.count() == k + 1 || !errors_.isEmpty(), 10000);
        }
        QCOMPARE(errors_.size(), 1);
        QVERIFY2(errors_[0].contains(QStringLiteral("policy 'returns-cpu-outside'")), qPrintable(errors_[0]));
        QVERIFY2(errors_[0].contains(QStringLiteral("returned cpu 8, outside the machine's CPUs 0-7")),
                 qPrintable(errors_[0]));
        QCOMPARE(window_->session()->state(), SimState::Failed);
        QCOMPARE(window_->machine().nr_cpus(), 8);
    }

    // The comparison's runs, on their own threads, report it the same way.
    void theComparisonReportsAPolicyError()
    {
        QVERIFY(window_->loadPlugin(QStringLiteral(WB_PLUGIN_MISBEHAVING)));
        QVERIFY(window_->setScenario(with_policies({"baseline", "throws-in-hook"})));
        window_->startComparison();
        QTRY_VERIFY_WITH_TIMEOUT(!errors_.isEmpty(), 60000);
        QVERIFY2(errors_[0].startsWith(QStringLiteral("Comparison failed: ")), qPrintable(errors_[0]));
        QVERIFY2(errors_[0].contains(QStringLiteral("policy 'throws-in-hook', hook before_select_idle_sibling")),
                 qPrintable(errors_[0]));
        QVERIFY(!window_->comparison());
        QCOMPARE(window_->gridCount(), 2);
    }

    // A scenario file's plugins (relative to its folder) load when it is
    // opened, survive saving (re-pointed when the folder changes) and the
    // next start's restore; a policy from a menu-loaded plugin is added.
    void scenarioPluginsOpenSaveAndRestore()
    {
        QTemporaryDir dir;
        QTemporaryDir elsewhere;
        const QString relative = QDir(dir.path()).relativeFilePath(plugin_path(WB_PLUGIN_EXAMPLE));
        QVERIFY(relative.startsWith(QStringLiteral("..")));
        Scenario s = with_policies({"baseline", kExample.toStdString()});
        s.plugins = {relative.toStdString()};
        const QString path = dir.filePath(QStringLiteral("with-plugin.json"));
        QVERIFY(test::write_file(path, QByteArray::fromStdString(scenario_to_json(s))));
        QVERIFY2(window_->openScenario(path), qPrintable(errors_.join('\n')));
        QCOMPARE(window_->scenario().plugins, s.plugins);
        QCOMPARE(window_->grid(1)->policy(), kExample);

        // Same folder: the entry as written. Another: the same file, absolute.
        const QString same = dir.filePath(QStringLiteral("again.json"));
        QVERIFY(window_->saveScenario(same));
        QCOMPARE(load_scenario_file(same.toStdString()).plugins, s.plugins);
        const QString moved = elsewhere.filePath(QStringLiteral("moved.json"));
        QVERIFY(window_->saveScenario(moved));
        const Scenario reread = load_scenario_file(moved.toStdString());
        QCOMPARE(reread.plugins, std::vector<std::string>{plugin_path(WB_PLUGIN_EXAMPLE).toStdString()});
        QCOMPARE(reread.policies, s.policies);
        // Saved again where it now lives, the entry still names the file.
        QVERIFY(window_->saveScenario(moved));
        QCOMPARE(load_scenario_file(moved.toStdString()).plugins, reread.plugins);

        // Restored at the next start from the settings, its relative plugin
        // read against its file's folder, not the working directory.
        QVERIFY(window_->openScenario(path));
        MainWindow next;
        next.setRemembering(false);
        next.restoreLastScenario();
        QCOMPARE(next.scenario(), window_->scenario());
        QCOMPARE(next.scenarioPath(), path);

        // A policy of a plugin loaded from the menu, saved: the file lists it.
        QVERIFY(window_->setScenario(with_policies({"baseline", kExample.toStdString()})));
        QVERIFY(window_->scenario().plugins.empty());
        const QString listed = elsewhere.filePath(QStringLiteral("listed.json"));
        QVERIFY(window_->saveScenario(listed));
        QCOMPARE(load_scenario_file(listed.toStdString()).plugins,
                 std::vector<std::string>{plugin_path(WB_PLUGIN_EXAMPLE).toStdString()});
        QVERIFY2(errors_.isEmpty(), qPrintable(errors_.join('\n')));
    }

    // The next start loads the remembered plugins; one that no longer loads
    // is reported, forgotten, and the window still comes up.
    void rememberedPluginsLoadAtTheNextStart()
    {
        const QString sdk = plugin_path(WB_PLUGIN_SYNC_WAKER_SDK);
        const QString gone = QStringLiteral(WB_TEST_DATA "/removed-since.so");
        QVERIFY(!catalog_entry(QStringLiteral("sync-waker-v3-sdk")));  // not loaded in this process yet
        QSettings(QSettings::IniFormat, QSettings::UserScope, QStringLiteral("wakebench"), QStringLiteral("wakebench"))
            .setValue(QStringLiteral("plugins"), QStringList{gone, sdk});

        QStringList seen;
        MainWindow next;
        next.setErrorHandler([&](const QString& title, const QString& message) { seen << title + ": " + message; });
        QVERIFY(!next.restorePlugins());
        QVERIFY(catalog_entry(QStringLiteral("sync-waker-v3-sdk")));
        QCOMPARE(QString::fromStdString(policy_plugin("sync-waker-v3-sdk")), sdk);
        QVERIFY(choices(next, 0).contains(QStringLiteral("sync-waker-v3-sdk")));
        QCOMPARE(next.rememberedPlugins(), QStringList{sdk});
        next.restoreLastScenario();
        QVERIFY(next.hasScenario());
        // Reported once the event loop runs.
        QTRY_COMPARE(seen.size(), 1);
        QVERIFY2(seen[0].startsWith(QStringLiteral("Cannot load a remembered plugin: ")), qPrintable(seen[0]));
        QVERIFY2(seen[0].contains(gone), qPrintable(seen[0]));
        QVERIFY2(!seen[0].contains(sdk), qPrintable(seen[0]));

        // Next time, nothing to report.
        MainWindow third;
        third.setErrorHandler([&](const QString& title, const QString& message) { seen << title + ": " + message; });
        QVERIFY(third.restorePlugins());
        QTest::qWait(50);
        QCOMPARE(seen.size(), 1);
    }

private:
    MainWindow* window_ = nullptr;
    QStringList errors_;
};

}  // namespace wb

QTEST_MAIN(wb::MainWindowPluginsTest)
#include "main_window_plugins_test.moc"

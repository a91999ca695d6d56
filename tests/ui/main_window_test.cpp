// SPDX-License-Identifier: Apache-2.0
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <algorithm>
#include <cmath>

#include "decision/decision_diagram.h"
#include "decision/diagram_ink.h"
#include "decision/recent_wakeups.h"
#include "engine/batch.h"
#include "io/scenario_json.h"
#include "io/topology_library.h"
#include "main_window.h"
#include "sim/sim_session.h"
#include "topology/machine.h"
#include "topology/sched_domains.h"
#include "views/decision_overlay.h"
#include "views/topology_items.h"
#include "views/topology_scene.h"
#include "views/topology_view.h"
#include "widgets/domain_panel.h"
#include "widgets/policy_grid.h"
#include "widgets/scenario_panel.h"
#include "teaching_window.h"
#include "window_test_support.h"

namespace wb {

namespace {

}  // namespace

class MainWindowTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::use_clean_settings(); }

    void init() { QVERIFY(test::open_teaching_window(window_, errors_)); }

    void cleanup() { delete window_; }

    void statusNamesTheMachine()
    {
        QCOMPARE(window_->statusText(), QStringLiteral("teaching-8 · 8 CPUs · 2 LLCs"));
        QVERIFY(window_->windowTitle().contains(QStringLiteral("teaching-8")));
        auto* combo = window_->findChild<QComboBox*>(QStringLiteral("scenarioMachine"));
        QVERIFY(combo);
        QCOMPARE(combo->count(), static_cast<int>(list_shipped_topologies().size()));
        QCOMPARE(combo->currentText(), QStringLiteral("teaching-8"));
    }

    void importsAHostTreeAsAMachineFileWakesimCanRead()
    {
        const QString root = QStringLiteral(WB_TEST_DATA "/sysfs/x86-2s-smt");
        QVERIFY(window_->importHostMachine(root));
        QCOMPARE(window_->machine().nr_cpus(), 32);
        QCOMPARE(window_->machineSpec(), window_->importedMachinePath());
        QVERIFY(window_->importedMachinePath().endsWith(QStringLiteral("/machines/imported-xeon-2s.json")));
        QVERIFY(QFile::exists(window_->importedMachinePath()));
        QVERIFY(errors_.isEmpty());
    }

    // The measured import runs on a worker: the window keeps answering, and
    // the machine it loads carries measured costs.
    void measuringTheHostRunsOffTheWindowThreadAndLoadsMeasuredCosts()
    {
        auto* measure = window_->findChild<QAction*>(QStringLiteral("scenarioImportMeasuredHost"));
        QVERIFY(measure);
        QVERIFY(window_->importAndMeasureHost(1000));
        QVERIFY(window_->isMeasuringHost());
        QVERIFY(!window_->importAndMeasureHost(1000));  // one at a time
        QCOMPARE(window_->machine().nr_cpus(), 8);      // still teaching-8 while it measures
        QTRY_VERIFY_WITH_TIMEOUT(!window_->isMeasuringHost(), 60000);
        QVERIFY2(errors_.isEmpty(), qPrintable(errors_.join(QLatin1Char('\n'))));
        const CostValue& cs = window_->machine().costs.at(Cost::context_switch);
        QVERIFY2(QString::fromStdString(cs.source).startsWith(QStringLiteral("measured on ")), cs.source.c_str());
        QVERIFY(cs.value > 100 && cs.value < 100000);
    }

    void closingTheWindowStopsAMeasurement()
    {
        QVERIFY(window_->importAndMeasureHost(20000));
        QElapsedTimer t;
        t.start();
        delete window_;
        window_ = nullptr;
        QVERIFY2(t.elapsed() < 15000, "the window waited for the whole budget");
    }

    void aTreeThatIsNotSysfsKeepsTheMachine()
    {
        QVERIFY(!window_->importHostMachine(QStringLiteral(WB_TEST_DATA "/no-such-tree")));
        QCOMPARE(window_->machine().nr_cpus(), 8);
        QCOMPARE(errors_.size(), 1);
        QVERIFY(errors_[0].startsWith(QStringLiteral("Cannot import this host: ")));
        QVERIFY(errors_[0].contains(QStringLiteral("Still showing teaching-8.")));
    }

    void oneGridPerPolicyFramedInItsColour()
    {
        QCOMPARE(window_->gridCount(), 2);
        QCOMPARE(window_->grid(0)->policy(), QStringLiteral("baseline"));
        QCOMPARE(window_->grid(1)->policy(), QStringLiteral("sync-waker-v3"));
        QCOMPARE(window_->grid(0)->colour(), QColor(0x00, 0x72, 0xb2));
        QCOMPARE(window_->grid(1)->colour(), QColor(0xd5, 0x5e, 0x00));
        for (int i = 0; i < 2; ++i)
            QCOMPARE(window_->grid(i)->view()->topologyScene()->nrCpus(), 8);
        Scenario four = test::teaching_scenario();
        four.policies = {"baseline", "sync-waker-v3", "sync-waker-v4", "sis-sync-stack"};
        QVERIFY(window_->setScenario(four));
        QCOMPARE(window_->gridCount(), 4);
        // 2 x 2: the third grid sits under the first.
        QCOMPARE(window_->grid(2)->x(), window_->grid(0)->x());
        QVERIFY(window_->grid(2)->y() > window_->grid(0)->y());
    }

    void selectingCpu5ShowsItsDomainsInEveryGrid()
    {
        window_->selectCpu(5);
        const DomainPanel* panel = window_->domainPanel();
        QCOMPARE(panel->domainCount(), 3);
        QCOMPARE(panel->levelName(0), QStringLiteral("SMT"));
        QCOMPARE(panel->spanText(1), QStringLiteral("4-7"));
        QCOMPARE(window_->grid(1)->view()->selectedCpu(), 5);
        // The LLC is preselected and outlined in both grids.
        QCOMPARE(window_->grid(0)->view()->topologyScene()->highlightedSpan(), CpuMask::range(8, 4, 7));
        QCOMPARE(window_->grid(1)->view()->topologyScene()->highlightedSpan(), CpuMask::range(8, 4, 7));
        window_->selectCpu(-1);
        QCOMPARE(window_->domainPanel()->domainCount(), 0);
    }

    void clickingACpuSelectsItEverywhere()
    {
        TopologyView* view = window_->grid(1)->view();
        const QPoint at = view->mapFromScene(view->topologyScene()->layout().cells[6].center());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier, at);
        QCOMPARE(view->selectedCpu(), 6);
        QCOMPARE(window_->grid(0)->view()->selectedCpu(), 6);
        QCOMPARE(window_->domainPanel()->spanText(0), QStringLiteral("6-7"));
    }

    // A step restyles the cells from the snapshot and draws the record on
    // each grid; the diagram and the list show it too.
    void stepShowsTheDecisionEverywhere()
    {
        QSignalSpy steps(window_->session(), &SimSession::stepped);
        QSignalSpy frames(window_->session(), &SimSession::frameReady);
        for (int k = 0; k < 3; ++k) {
            window_->stepWakeup();
            QTRY_COMPARE_WITH_TIMEOUT(steps.count(), k + 1, 10000);
        }
        QTRY_VERIFY_WITH_TIMEOUT(frames.count() >= 3, 10000);
        const auto step = steps.last().at(0).value<StepRecords>();
        for (int i = 0; i < 2; ++i) {
            TopologyScene* scene = window_->grid(i)->view()->topologyScene();
            const DecisionRecord& rec = *step.records[static_cast<std::size_t>(i)];
            QVERIFY(scene->decisionOverlay()->hasRecord());
            QCOMPARE(scene->decisionOverlay()->record().seq, rec.seq);
            QCOMPARE(scene->decisionOverlay()->record().chosen, rec.chosen);
            // The cells carry the last frame's values.
            const RunSnapshot& snap = window_->session()->lastFrame().runs[static_cast<std::size_t>(i)];
            for (const CpuSnapshot& c : snap.cpus) {
                const CpuCellItem* cell = scene->cell(c.cpu);
                QVERIFY(cell->hasLive());
                QCOMPARE(cell->live().nr_running, c.nr_running);
                QCOMPARE(cell->live().has_curr, c.curr != kNoTask);
                QCOMPARE(cell->live().idle, c.idle);
            }
            QVERIFY2(scene->liveToolTip(rec.chosen).contains(QStringLiteral("nr_running")),
                     qPrintable(scene->liveToolTip(rec.chosen)));
            QVERIFY(scene->liveToolTip(rec.chosen).contains(QStringLiteral("has_idle_cores")));
        }
        QVERIFY(window_->decisionDiagram()->record());
        QCOMPARE(window_->decisionDiagram()->record()->seq, step.records[0]->seq);
        QVERIFY(window_->simStatusText().contains(QStringLiteral("simulated")));
    }

    // Results ▸ Export the runs as a trace: one file per policy, the runs to
    // the time the grids show, byte for byte what the wakesim command the
    // status bar gives writes.
    void exportedTracesAreWakesims()
    {
        window_->pauseSimulation();
        QSignalSpy steps(window_->session(), &SimSession::stepped);
        QSignalSpy frames(window_->session(), &SimSession::frameReady);
        for (int k = 0; k < 20; ++k) {
            window_->stepWakeup();
            QTRY_COMPARE_WITH_TIMEOUT(steps.count(), k + 1, 10000);
        }
        QTRY_VERIFY_WITH_TIMEOUT(frames.count() >= 1, 10000);
        QTemporaryDir dir;
        const QStringList files = window_->exportRunTraces(dir.filePath(QStringLiteral("run.txt")));
        QCOMPARE(files, (QStringList{dir.filePath(QStringLiteral("run-baseline.txt")),
                                     dir.filePath(QStringLiteral("run-sync-waker-v3.txt"))}));
        QVERIFY(errors_.isEmpty());
        const QStringList commands =
            window_->statusBar()->findChild<QLabel*>(QStringLiteral("messageStatus"))->toolTip().mid(17).split(
                QStringLiteral("; "));
        QCOMPARE(commands.size(), 2);
        for (int i = 0; i < 2; ++i) {
            QString command = commands[i];
            QVERIFY2(command.startsWith(QStringLiteral("wakesim run ")), qPrintable(command));
            QVERIFY(command.endsWith(QStringLiteral(" --trace ") + files[i]));
            const QString again = dir.filePath(QStringLiteral("again.txt"));
            command.replace(QStringLiteral(" --trace ") + files[i], QStringLiteral(" --trace ") + again);
            command.replace(0, 7, QStringLiteral(WB_WAKESIM_BIN));
            QProcess wakesim;
            wakesim.start(QStringLiteral("sh"), {QStringLiteral("-c"), command});
            QVERIFY(wakesim.waitForFinished(60000));
            QCOMPARE(wakesim.exitCode(), 0);
            QFile a(files[i]), b(again);
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            const QByteArray text = a.readAll();
            QVERIFY(text.contains("sched_switch"));
            QVERIFY(text == b.readAll());
        }
        // An extension that is neither format is refused, by name.
        QVERIFY(window_->exportRunTraces(dir.filePath(QStringLiteral("run.csv"))).isEmpty());
        QCOMPARE(errors_.size(), 1);
        QVERIFY(errors_.front().contains(QStringLiteral("expected a file name ending in .txt")));
    }

    // What the window reports is what core's run_one() and the wakesim
    // binary report for the same scenario.
    void figuresEqualWakesim()
    {
        QSignalSpy stopped(window_->session(), &SimSession::stopped);
        window_->setSpeed(0);
        window_->runSimulation();
        QTRY_COMPARE_WITH_TIMEOUT(window_->session()->state(), SimState::Finished, 120000);
        const SimFrame& frame = window_->session()->lastFrame();
        QCOMPARE(frame.runs.size(), std::size_t{2});
        const Machine machine = resolve_machine("teaching-8");
        for (std::size_t i = 0; i < 2; ++i) {
            const RunSnapshot& snap = frame.runs[i];
            QVERIFY(snap.finished);
            const RunRequest request{"pipe:loops=300", test::teaching_scenario().policies[i], FeatureSet(), 1};
            const RunOutcome core = run_one(machine, request);
            QCOMPARE(snap.headline.value, core.headline.value);
            QCOMPARE(snap.metrics.events, core.metrics.events);
            QCOMPARE(snap.metrics.wakeups, core.metrics.wakeups);

            QTemporaryDir dir;
            const QString json = dir.filePath(QStringLiteral("r.json"));
            QProcess wakesim;
            wakesim.start(QStringLiteral(WB_WAKESIM_BIN),
                          {QStringLiteral("run"), QStringLiteral("--topology"), QStringLiteral("teaching-8"),
                           QStringLiteral("--workload"), QStringLiteral("pipe:loops=300"), QStringLiteral("--policy"),
                           QString::fromStdString(request.policy), QStringLiteral("--json"), json});
            QVERIFY(wakesim.waitForFinished(120000));
            QCOMPARE(wakesim.exitCode(), 0);
            QFile file(json);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QJsonObject result = QJsonDocument::fromJson(file.readAll()).object();
            QCOMPARE(result.value(QStringLiteral("headline")).toObject().value(QStringLiteral("value")).toDouble(),
                     snap.headline.value);
            QCOMPARE(static_cast<qint64>(result.value(QStringLiteral("elapsed_ns")).toDouble()), snap.now.ns());
            // The grid's figures line shows the same value.
            QVERIFY2(window_->grid(static_cast<int>(i))
                         ->figuresText()
                         .contains(QString::number(snap.headline.value, 'f', 3)),
                     qPrintable(window_->grid(static_cast<int>(i))->figuresText()));
        }
    }

    void wakesimCommandReproducesTheGrids()
    {
        const QString cmd = window_->wakesimCommand();
        QVERIFY2(cmd.contains(QStringLiteral(
                     "wakesim run --topology teaching-8 --seed 1 --workload pipe:loops=300 --policy baseline")),
                 qPrintable(cmd));
        QVERIFY2(cmd.contains(QStringLiteral("--policy sync-waker-v3")), qPrintable(cmd));
        QVERIFY2(cmd.contains(QStringLiteral("wakesim compare")), qPrintable(cmd));
    }

    void badScenarioFileKeepsThePreviousScenario()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.json"));
        QVERIFY(test::write_file(path,
                                 "{\n  \"schema_version\": 1,\n  \"name\": \"bad\",\n  \"machine\": \"teaching-8\",\n"
                                 "  \"cases\": [{\"workload\": \"pipe:nope=1\"}]\n}\n"));
        QVERIFY(!window_->openScenario(path));
        QCOMPARE(errors_.size(), 1);
        // file:line:col: pointer: what was wrong.
        QVERIFY2(errors_.front().contains(path + QStringLiteral(":5:")), qPrintable(errors_.front()));
        QVERIFY2(errors_.front().contains(QStringLiteral("/cases/0/workload")), qPrintable(errors_.front()));
        QVERIFY2(errors_.front().contains(QStringLiteral("Still showing teaching")), qPrintable(errors_.front()));
        QCOMPARE(QString::fromStdString(window_->scenario().name), QStringLiteral("teaching"));
        QCOMPARE(window_->gridCount(), 2);
        QCOMPARE(window_->machine().nr_cpus(), 8);

        QVERIFY(test::write_file(path, "{ \"schema_version\": 1, "));
        QVERIFY(!window_->openScenario(path));
        QCOMPARE(errors_.size(), 2);
        QVERIFY2(errors_.back().contains(path + QStringLiteral(":1:")), qPrintable(errors_.back()));
        QCOMPARE(QString::fromStdString(window_->scenario().name), QStringLiteral("teaching"));
    }

    void badMachineIsReportedAndThePreviousOneStays()
    {
        window_->selectCpu(5);
        QVERIFY(!window_->loadMachine(QStringLiteral("no-such-machine")));
        QCOMPARE(errors_.size(), 1);
        QVERIFY2(errors_.front().contains(QStringLiteral("no-such-machine")), qPrintable(errors_.front()));
        QCOMPARE(window_->machineSpec(), QStringLiteral("teaching-8"));
        QCOMPARE(window_->statusText(), QStringLiteral("teaching-8 · 8 CPUs · 2 LLCs"));
        QCOMPARE(window_->topologyView()->selectedCpu(), 5);
    }

    void syntheticMachineFromThePanel()
    {
        auto* combo = window_->findChild<QComboBox*>(QStringLiteral("scenarioMachine"));
        combo->setCurrentText(QStringLiteral("synthetic:node=2,llc=2,core=2,smt=2"));
        window_->findChild<QPushButton*>(QStringLiteral("scenarioApply"))->click();
        QVERIFY2(errors_.isEmpty(), qPrintable(errors_.join('\n')));
        QCOMPARE(window_->machine().nr_cpus(), 16);
        QCOMPARE(window_->grid(0)->view()->topologyScene()->nrCpus(), 16);
        QCOMPARE(window_->scenario().machine, std::string("synthetic:node=2,llc=2,core=2,smt=2"));
    }

    void panelEditsBecomeTheScenario()
    {
        ScenarioPanel* panel = window_->scenarioPanel();
        QCOMPARE(panel->workloadSpec(), QStringLiteral("pipe:loops=300"));
        QCOMPARE(panel->policySpecs(), (QStringList{QStringLiteral("baseline"), QStringLiteral("sync-waker-v3")}));
        panel->findChild<QLineEdit*>(QStringLiteral("param_cpus"))->setText(QStringLiteral("2-3"));
        panel->findChild<QComboBox*>(QStringLiteral("scenarioPolicy2"))
            ->setCurrentText(QStringLiteral("sync-waker-v4"));
        window_->findChild<QPushButton*>(QStringLiteral("scenarioApply"))->click();
        QVERIFY2(errors_.isEmpty(), qPrintable(errors_.join('\n')));
        QCOMPARE(window_->scenario().cases[0].workload, std::string("pipe:loops=300,cpus=2-3"));
        QCOMPARE(window_->gridCount(), 3);
        // A bad value is refused; the runs stay and the form keeps the edit to correct.
        panel->findChild<QLineEdit*>(QStringLiteral("param_loops"))->setText(QStringLiteral("many"));
        window_->findChild<QPushButton*>(QStringLiteral("scenarioApply"))->click();
        QCOMPARE(errors_.size(), 1);
        QVERIFY2(errors_.front().contains(QStringLiteral("loops")), qPrintable(errors_.front()));
        QCOMPARE(window_->scenario().cases[0].workload, std::string("pipe:loops=300,cpus=2-3"));
        QCOMPARE(panel->workloadSpec(), QStringLiteral("pipe:loops=many,cpus=2-3"));
    }

    void savedScenarioReopensAndIsRestoredNextTime()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("saved.json"));
        QVERIFY(window_->saveScenario(path));
        const Scenario saved = load_scenario_file(path.toStdString());
        QCOMPARE(saved, window_->scenario());
        QVERIFY(window_->recentScenarios().contains(QFileInfo(path).absoluteFilePath()));

        MainWindow next;
        next.setRemembering(false);
        next.restoreLastScenario();
        QVERIFY(next.hasScenario());
        QCOMPARE(next.scenario(), saved);
        QCOMPARE(next.scenarioPath(), path);
    }

    void presentationModeAndThemes()
    {
        const qreal normal = window_->font().pointSizeF();
        auto* figures = window_->grid(0)->findChild<QLabel*>(QStringLiteral("policyFigures"));
        const int header_px = QFontInfo(figures->font()).pixelSize();
        window_->setPresentationMode(true);
        QVERIFY(window_->presentationMode());
        QVERIFY(window_->font().pointSizeF() > normal * 1.3);
        // Everything scales: the grids' headers and the names over their boxes too.
        QVERIFY(QFontInfo(figures->font()).pixelSize() > header_px * 1.3);
        const auto titles = window_->grid(0)->view()->overlaidTitles();
        QVERIFY(!titles.empty());
        QVERIFY(titles.front().rect.height() > QFontMetricsF(figures->font()).height());
        // At 1280 px the run toolbar fits: no action is pushed into its overflow menu.
        window_->resize(1280, 800);
        auto* bar = window_->findChild<QToolBar*>(QStringLiteral("runToolbar"));
        QTRY_VERIFY(bar->width() <= 1280);
        for (QAction* a : bar->actions())
            if (!a->isSeparator())
                QVERIFY2(bar->widgetForAction(a) && bar->widgetForAction(a)->isVisible(), qPrintable(a->text()));
        window_->setPresentationMode(false);
        QCOMPARE(window_->font().pointSizeF(), normal);
        auto* run = window_->findChild<QAction*>(QStringLiteral("runAction"));
        const qint64 light_icon = run->icon().cacheKey();
        window_->setDarkTheme(true);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 80);
        // The toolbar's icons are drawn light on the dark background.
        const QImage icon = run->icon().pixmap(16, 16).toImage();
        int ink = 0;
        for (int y = 0; y < icon.height(); ++y)
            for (int x = 0; x < icon.width(); ++x)
                if (QColor c = icon.pixelColor(x, y); c.alpha() > 128) {
                    QVERIFY2(c.lightness() > 150, qPrintable(c.name()));
                    ++ink;
                }
        QVERIFY(ink > 10);
        QVERIFY(window_->grid(0)->view()->topologyScene()->backgroundBrush().color().lightness() < 80);
        // The machine's boxes turn dark too, their names light (WCAG AA: 4.5:1).
        for (const TopoBoxItem* box : window_->grid(0)->view()->topologyScene()->boxes()) {
            QVERIFY(box->colours().titled_fill[0].lightness() < 80);
            QVERIFY(box->colours().core_fill.lightness() < 100);
            QVERIFY(test::contrast(box->colours().title_text, box->colours().titled_fill[0]) >= 4.5);
            QVERIFY(test::contrast(box->colours().title_text, box->colours().titled_fill[1]) >= 4.5);
        }
        // So does the decision diagram: its paper, nodes and ink.
        const DiagramInk& paper = window_->decisionDiagram()->ink();
        QVERIFY(window_->decisionDiagram()->scene()->backgroundBrush().color().lightness() < 80);
        QVERIFY(paper.node_fill.lightness() < 80);
        QVERIFY(test::contrast(paper.ink, paper.node_fill) >= 4.5);
        QVERIFY(test::contrast(paper.quiet_ink, paper.node_fill) >= 4.5);
        window_->setDarkTheme(false);
        QVERIFY(window_->decisionDiagram()->ink().node_fill.lightness() > 200);
        QCOMPARE(run->icon().cacheKey(), light_icon);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 150);
        QVERIFY(window_->grid(0)->view()->topologyScene()->backgroundBrush().color().lightness() > 150);
    }

    void exportsTheFocusedGridAsPngAndSvg()
    {
        QTemporaryDir dir;
        window_->grid(1)->view()->setFocus();
        QCOMPARE(window_->focusedView(), window_->grid(1)->view());
        QVERIFY(window_->exportView(window_->focusedView(), dir.filePath(QStringLiteral("grid.png"))));
        QVERIFY(QImage(dir.filePath(QStringLiteral("grid.png"))).width() > 100);
        QVERIFY(window_->exportView(window_->focusedView(), dir.filePath(QStringLiteral("grid.svg"))));
        QFile svg(dir.filePath(QStringLiteral("grid.svg")));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(svg.readAll().contains("<svg"));
    }

private:
    MainWindow* window_ = nullptr;
    QStringList errors_;
};

}  // namespace wb

QTEST_MAIN(wb::MainWindowTest)
#include "main_window_test.moc"

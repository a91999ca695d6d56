// SPDX-License-Identifier: Apache-2.0
//
// A recorded trace in the window: File ▸ Open trace… replays the committed
// pipe trace on its lscpu machine in a worker and enters trace mode with as
// many wakeups as `wakesim trace replay` replays; stepping walks them and
// the diagram follows; a wakeup where baseline is not the kernel is flagged
// on the grid, in the status bar and in the What if dock; a trace that does
// not parse is reported by file:line and the scenario stays; a cancelled
// load enters nothing; closing the trace gives the simulation back as it was.
#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QTest>

#include "decision/decision_diagram.h"
#include "decision/what_if_panel.h"
#include "io/trace_input.h"
#include "main_window.h"
#include "sim/sim_session.h"
#include "sim/trace_job.h"
#include "views/decision_overlay.h"
#include "views/topology_scene.h"
#include "views/topology_view.h"
#include "widgets/policy_grid.h"
#include "teaching_window.h"
#include "window_test_support.h"

namespace wb {

namespace {

const QString kTrace = QStringLiteral(WB_TEST_DATA "/traces/pipe.tracefs.txt.gz");
const QString kLscpu = QStringLiteral("lscpu:" WB_TEST_DATA "/traces/lscpu.txt");

// wakesim's count of replayed wakeups for the same trace, machine and policies.
int wakesim_replayed(const QStringList& policies)
{
    QProcess p;
    p.start(QStringLiteral(WB_WAKESIM_BIN),
            {QStringLiteral("trace"), QStringLiteral("replay"), kTrace, QStringLiteral("--lscpu"),
             QStringLiteral(WB_TEST_DATA "/traces/lscpu.txt"), QStringLiteral("--policies"),
             policies.join(QLatin1Char(','))});
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        return -1;
    const QRegularExpression re(QStringLiteral("(\\d+) replayed"));
    const auto m = re.match(QString::fromUtf8(p.readAllStandardOutput()));
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

int frame_of_line(const MainWindow& w, int line)
{
    for (int i = 0; i < static_cast<int>(w.trace()->frames.size()); ++i)
        if (w.trace()->frames[static_cast<std::size_t>(i)].line == line)
            return i;
    return -1;
}

}  // namespace

class MainWindowTraceTest : public QObject {
    Q_OBJECT

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

    void opensTheTraceWithWakesimsWakeups()
    {
        QSignalSpy loaded(window_, &MainWindow::traceLoaded);
        QVERIFY(window_->openTrace(kTrace, kLscpu));
        QVERIFY(loaded.wait(60000));
        QVERIFY(errors_.isEmpty());
        QVERIFY(window_->inTraceMode());
        // The scenario's policies were asked, baseline the reference.
        QCOMPARE(window_->trace()->options.policies, (std::vector<std::string>{"baseline", "sync-waker-v3"}));
        const int expected = wakesim_replayed({QStringLiteral("baseline"), QStringLiteral("sync-waker-v3")});
        QVERIFY(expected > 3000);
        QCOMPARE(window_->traceFrameCount(), expected);
        QCOMPARE(window_->trace()->result.replayed, static_cast<std::uint64_t>(expected));
        QCOMPARE(window_->traceFrameIndex(), 0);
        // The trace's grids, one per policy, on the 2-CPU machine it was recorded on.
        auto* stack = window_->findChild<QStackedWidget*>(QStringLiteral("centralStack"));
        QVERIFY(stack);
        QCOMPARE(stack->currentWidget()->objectName(), QStringLiteral("traceArea"));
        QCOMPARE(window_->traceGridCount(), 2);
        QCOMPARE(window_->traceGrid(0)->view()->topologyScene()->nrCpus(), 2);
        QCOMPARE(window_->gridCount(), 2);  // the simulation's stay behind
        QCOMPARE(window_->grid(0)->view()->topologyScene()->nrCpus(), 8);
        QVERIFY(window_->traceStatusText().startsWith(
            QStringLiteral("trace pipe.tracefs.txt.gz — wakeup 1 of %1, line ").arg(expected)));
        QVERIFY(window_->traceCommand().contains(QStringLiteral("--lscpu")));
        QVERIFY(window_->traceCommand().endsWith(QStringLiteral("--policies baseline,sync-waker-v3")));
    }

    void steppingWalksTheWakeups()
    {
        QSignalSpy loaded(window_, &MainWindow::traceLoaded);
        QVERIFY(window_->openTrace(kTrace, kLscpu, {QStringLiteral("baseline")}));
        QVERIFY(loaded.wait(60000));
        const ReplayFrame first = *window_->traceFrame();
        QVERIFY(window_->decisionDiagram()->record());
        QCOMPARE(window_->decisionDiagram()->record()->wakee, first.choices.front().second.wakee);
        const QString status = window_->traceStatusText();
        auto* step = window_->findChild<QAction*>(QStringLiteral("stepAction"));
        QVERIFY(step && step->isEnabled());
        step->trigger();
        QCOMPARE(window_->traceFrameIndex(), 1);
        const ReplayFrame& second = *window_->traceFrame();
        QVERIFY(second.line > first.line);
        QVERIFY(window_->traceStatusText() != status);
        QVERIFY(window_->traceStatusText().contains(QStringLiteral("line %1:").arg(second.line)));
        // The diagram shows the new wakeup's record, the grid its decision.
        const DecisionRecord* shown = window_->decisionDiagram()->record();
        QVERIFY(shown);
        QCOMPARE(shown->seq, second.choices.front().second.seq);
        QVERIFY(shown->seq != first.choices.front().second.seq || shown->time != first.choices.front().second.time);
        const DecisionOverlay* overlay = window_->traceGrid(0)->view()->topologyScene()->decisionOverlay();
        QCOMPARE(overlay->record().chosen, second.choices.front().second.chosen);
        QCOMPARE(overlay->kernelCpu(), second.kernel_cpu);
        // The grid shows the state the wakeup was decided in.
        const auto& snap = window_->traceGrid(0)->view()->topologyScene()->snapshot();
        QCOMPARE(snap.size(), second.cpus.size());
        for (std::size_t c = 0; c < snap.size(); ++c) {
            QCOMPARE(snap[c].nr_running, second.cpus[c].nr_running);
            QCOMPARE(snap[c].idle, second.cpus[c].idle);
        }
        // Back.
        window_->stepTraceBack();
        QCOMPARE(window_->traceFrameIndex(), 0);
        QCOMPARE(window_->traceStatusText(), status);
    }

    void aDisagreementWithTheKernelIsFlagged()
    {
        QSignalSpy loaded(window_, &MainWindow::traceLoaded);
        QVERIFY(window_->openTrace(kTrace, kLscpu));
        QVERIFY(loaded.wait(60000));
        auto* flag = window_->findChild<QLabel*>(QStringLiteral("traceFlag"));
        QVERIFY(flag);
        // Line 698: the kernel kept CPU 1, baseline's scan took CPU 0.
        const int at = frame_of_line(*window_, 698);
        QVERIFY(at >= 0);
        window_->showTraceFrame(at);
        const ReplayFrame& f = *window_->traceFrame();
        QCOMPARE(f.kernel_cpu, 1);
        QCOMPARE(f.choices.front().second.chosen, 0);
        QVERIFY(window_->traceStatusText().endsWith(
            QStringLiteral("line 698: kernel CPU 1, baseline CPU 0 (llc_scan)")));
        QVERIFY(!flag->isHidden());
        QVERIFY(flag->text().contains(QStringLiteral("differs: kernel → CPU 1, baseline → CPU 0")));
        const DecisionOverlay* overlay = window_->traceGrid(0)->view()->topologyScene()->decisionOverlay();
        QCOMPARE(overlay->kernelCpu(), 1);
        QCOMPARE(overlay->record().chosen, 0);
        WhatIfPanel* what_if = window_->whatIfPanel();
        QCOMPARE(what_if->rowCount(), 2);
        QCOMPARE(what_if->policyAt(0), QStringLiteral("baseline"));
        QCOMPARE(what_if->chosenAt(0), 0);
        QVERIFY(what_if->differsAt(0));
        QVERIFY(what_if->pathAt(0).startsWith(QStringLiteral("llc_scan")));
        QCOMPARE(what_if->chosenAt(1), f.choices[1].second.chosen);
        QVERIFY(what_if->heading().contains(QStringLiteral("line 698")));
        // A wakeup where they agree is not flagged.
        int agree = -1;
        for (int i = 0; i < window_->traceFrameCount() && agree < 0; ++i) {
            const ReplayFrame& g = window_->trace()->frames[static_cast<std::size_t>(i)];
            bool all = true;
            for (const auto& c : g.choices)
                all = all && c.second.chosen == g.kernel_cpu;
            if (all)
                agree = i;
        }
        QVERIFY(agree >= 0);
        window_->showTraceFrame(agree);
        QVERIFY(flag->isHidden());
        QVERIFY(!what_if->differsAt(0));
        // D goes to the next wakeup where baseline is not the kernel.
        window_->nextDivergence();
        const ReplayFrame& next = *window_->traceFrame();
        QVERIFY(window_->traceFrameIndex() > agree);
        QVERIFY(next.choices.front().second.chosen != next.kernel_cpu);
    }

    void aBadTraceIsReportedAndTheScenarioStays()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.txt"));
        QStringList lines = QString::fromStdString(read_trace_file(kTrace.toStdString())).split(QLatin1Char('\n'));
        lines = lines.mid(0, 40);
        lines[19] = QStringLiteral("          <idle>-0       [001] d..2.  1609.209120: sched_switch: prev_comm=x prev_pid=oops");
        QVERIFY(test::write_file(path, lines.join(QLatin1Char('\n')).toUtf8()));
        QSignalSpy stopped(window_, &MainWindow::traceLoadStopped);
        QVERIFY(window_->openTrace(path, kLscpu));
        QVERIFY(stopped.wait(60000));
        QVERIFY(!window_->inTraceMode());
        QCOMPARE(errors_.size(), 1);
        QVERIFY2(errors_.front().contains(path + QStringLiteral(":20:")), qPrintable(errors_.front()));
        QCOMPARE(QString::fromStdString(window_->scenario().name), QStringLiteral("teaching"));
        QCOMPARE(window_->grid(0)->view()->topologyScene()->nrCpus(), 8);
        // A machine that lacks the trace's CPUs: the replay says so.
        errors_.clear();
        QVERIFY(window_->openTrace(kTrace, QStringLiteral("synthetic:cpus=1")) || !errors_.isEmpty());
        if (errors_.isEmpty())
            QVERIFY(stopped.wait(60000));
        QVERIFY(!window_->inTraceMode());
        QCOMPARE(errors_.size(), 1);
    }

    void cancelStopsTheLoad()
    {
        QSignalSpy loaded(window_, &MainWindow::traceLoaded);
        QSignalSpy stopped(window_, &MainWindow::traceLoadStopped);
        QVERIFY(window_->openTrace(kTrace, kLscpu));
        QVERIFY(window_->isLoadingTrace());
        window_->cancelTraceLoad();
        QVERIFY(!window_->isLoadingTrace());
        QCOMPARE(stopped.count(), 1);
        // Long enough for the whole replay to have finished had it not stopped.
        QTest::qWait(2500);
        QCOMPARE(loaded.count(), 0);
        QVERIFY(!window_->inTraceMode());
        QVERIFY(errors_.isEmpty());

        // The job itself: cancelled from its first progress report, it
        // delivers nothing.
        TraceJob job;
        QSignalSpy done(&job, &TraceJob::finished);
        connect(&job, &TraceJob::progress, &job, [&job] { job.cancel(); });
        ReplayOptions options;
        job.start(kTrace, kLscpu, window_->machine(), options);
        QTest::qWait(2500);
        QCOMPARE(done.count(), 0);
    }

    void closingGivesTheSimulationBack()
    {
        auto* stack = window_->findChild<QStackedWidget*>(QStringLiteral("centralStack"));
        const QString title = window_->windowTitle();
        const QString machine = window_->statusText();
        QSignalSpy loaded(window_, &MainWindow::traceLoaded);
        QVERIFY(window_->openTrace(kTrace, kLscpu));
        QVERIFY(loaded.wait(60000));
        QVERIFY(window_->statusText() != machine);
        auto* what_if = window_->findChild<QDockWidget*>(QStringLiteral("whatIfDock"));
        QVERIFY(what_if && what_if->isVisible());
        auto* close = window_->findChild<QAction*>(QStringLiteral("closeTraceAction"));
        QVERIFY(close && close->isEnabled());
        close->trigger();
        QVERIFY(!window_->inTraceMode());
        QCOMPARE(stack->currentWidget()->objectName(), QStringLiteral("gridArea"));
        QCOMPARE(window_->windowTitle(), title);
        QCOMPARE(window_->statusText(), machine);
        QCOMPARE(window_->gridCount(), 2);
        QVERIFY(!close->isEnabled());
        QVERIFY(!what_if->isVisible());
        // Stepping steps the simulation again.
        QSignalSpy stepped(window_->session(), &SimSession::stepped);
        window_->stepWakeup();
        QVERIFY(stepped.wait(20000));
        // Opening a scenario leaves a trace too.
        QVERIFY(window_->openTrace(kTrace, kLscpu));
        QVERIFY(loaded.wait(60000));
        QVERIFY(window_->setScenario(test::teaching_scenario()));
        QVERIFY(!window_->inTraceMode());
    }

private:
    MainWindow* window_ = nullptr;
    QStringList errors_;
};

}  // namespace wb

QTEST_MAIN(wb::MainWindowTraceTest)
#include "main_window_trace_test.moc"

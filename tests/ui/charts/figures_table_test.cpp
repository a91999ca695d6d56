// SPDX-License-Identifier: Apache-2.0
#include <QApplication>
#include <QFile>
#include <QHeaderView>
#include <QIcon>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

#include "charts/charts_panel.h"
#include "charts/figures_table.h"
#include "decision/palette.h"
#include "engine/batch.h"
#include "engine/simulator.h"
#include "io/topology_library.h"
#include "main_window.h"
#include "metrics/run_figures.h"
#include "session/run_snapshot.h"
#include "sim/sim_session.h"
#include "topology/machine.h"
#include "widgets/policy_grid.h"
#include "window_test_support.h"

namespace wb {
namespace {

const QList<QColor> kColours{palette::policy_colour(0), palette::policy_colour(1)};

int row(std::string_view name)
{
    const int r = FiguresTable::rowOf(name);
    if (r < 0)
        qFatal("no figure %s", std::string(name).c_str());
    return r;
}

// Half a second of two CPUs with counts whose rates are easy to check:
// 1000 voluntary switches (2,000/s), 1500 ops (3,000/s), a quarter of the
// CPU time busy and a quarter iowait, 40 ms of run delay over 400 ms of
// runtime.
RunMetrics known_metrics()
{
    RunMetrics m;
    m.voluntary_switches = 1000;
    m.workload_voluntary_switches = 600;
    m.workload_involuntary_switches = 5;
    m.migrations[3] = 250;
    m.yields = 12345;
    m.idle_entries = 4000;
    m.cpu_times = {{Time::ms(250), Time::ms(250), Time::ms(250)}, {Time::ms(0), Time::ms(500), Time::ms(0)}};
    m.runtime = Time::ms(400);
    for (int i = 0; i < 4; ++i)
        m.run_delay.record(10'000'000);
    return m;
}

const Headline kHeadline{"usecs/op", 333.3, "us", true};

}  // namespace

class FiguresTableTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::use_clean_settings(); }

    void formatsEachKindReadably()
    {
        QCOMPARE(format_figure("context_switches_per_sec", 2000), QStringLiteral("2,000"));
        QCOMPARE(format_figure("ops_per_sec", 345678.9), QStringLiteral("345,679"));
        QCOMPARE(format_figure("cpu_migrations_per_sec", 12.54), QStringLiteral("12.5"));
        QCOMPARE(format_figure("cpu_migrations_per_sec", 0), QStringLiteral("0"));
        QCOMPARE(format_figure("context_switches_per_sec", 1234567), QStringLiteral("1.23 M"));
        QCOMPARE(format_figure("busy_pct", 97.3456), QStringLiteral("97.35%"));
        QCOMPARE(format_figure("sched_yield_calls", 12345), QStringLiteral("12,345"));
        QCOMPARE(format_figure("run_delay_per_runtime", 0.0123456), QStringLiteral("0.01235"));
        // Rounding that carries into a new digit keeps 4 digits.
        QCOMPARE(format_figure("run_delay_per_runtime", 999.96), QStringLiteral("1,000"));
        QCOMPARE(format_figure("run_delay_per_runtime", 12345.6), QStringLiteral("12,346"));
        // The headline as the grid shows it.
        QCOMPARE(format_figure("headline", 3.40712), QStringLiteral("3.407"));
        QCOMPARE(format_figure("headline", 0.0091), QStringLiteral("0.009"));
        QCOMPARE(format_figure("headline", 1234567.89), QStringLiteral("1,234,568"));
    }

    void aRowPerFigureAColumnPerPolicy()
    {
        FiguresTable t;
        t.setPolicies({"baseline", "sync-waker-v3"}, kColours);
        QAbstractItemModel* m = t.model();
        QCOMPARE(m->rowCount(), static_cast<int>(run_figure_table().size()));
        QCOMPARE(m->columnCount(), 2);
        for (int r = 0; r < m->rowCount(); ++r) {
            const RunFigureInfo& info = run_figure_table()[static_cast<std::size_t>(r)];
            QCOMPARE(m->headerData(r, Qt::Vertical).toString(),
                     QString::fromUtf8(info.label.data(), info.label.size()));
            // The row names its key in wakesim's JSON.
            const QString tip = m->headerData(r, Qt::Vertical, Qt::ToolTipRole).toString();
            QVERIFY2(tip.contains(QStringLiteral("figures.") + QString::fromUtf8(info.name.data(), info.name.size())) &&
                         tip.contains(QStringLiteral("wakesim run --json")),
                     qPrintable(tip));
            QVERIFY(t.cellText(r, 0).isEmpty());
        }
        QCOMPARE(m->headerData(1, Qt::Horizontal).toString(), QStringLiteral("sync-waker-v3"));
        QVERIFY(!m->headerData(1, Qt::Horizontal, Qt::DecorationRole).value<QIcon>().isNull());
        // Each header in its policy's hue, readable on the header.
        const QColor button = t.horizontalHeader()->palette().color(QPalette::Button);
        for (int p = 0; p < 2; ++p) {
            const QColor text = m->headerData(p, Qt::Horizontal, Qt::ForegroundRole).value<QBrush>().color();
            QVERIFY2(test::contrast(text, button) >= 4.5, qPrintable(text.name() + " on " + button.name()));
            QCOMPARE(text, t.figuresModel()->headerColour(p));
        }
        // Blue reads on a light header as it is.
        QCOMPARE(t.figuresModel()->headerColour(0), kColours[0]);
    }

    void aFrameFillsItsPolicysColumn()
    {
        FiguresTable t;
        t.setPolicies({"baseline", "sync-waker-v3"}, kColours);
        const RunFigures f = run_figures(known_metrics(), Time::ms(500), 1500, kHeadline);
        t.setFigures(1, f, kHeadline);
        QCOMPARE(t.cellText(row("context_switches_per_sec"), 1), QStringLiteral("2,000"));
        QCOMPARE(t.cellText(row("workload_voluntary_switches_per_sec"), 1), QStringLiteral("1,200"));
        QCOMPARE(t.cellText(row("workload_involuntary_switches_per_sec"), 1), QStringLiteral("10.0"));
        QCOMPARE(t.cellText(row("cpu_migrations_per_sec"), 1), QStringLiteral("500"));
        QCOMPARE(t.cellText(row("ops_per_sec"), 1), QStringLiteral("3,000"));
        QCOMPARE(t.cellText(row("busy_pct"), 1), QStringLiteral("25.00%"));
        QCOMPARE(t.cellText(row("idle_pct"), 1), QStringLiteral("50.00%"));
        QCOMPARE(t.cellText(row("iowait_pct"), 1), QStringLiteral("25.00%"));
        QCOMPARE(t.cellText(row("sched_yield_calls"), 1), QStringLiteral("12,345"));
        QCOMPARE(t.cellText(row("sched_yield_per_sec"), 1), QStringLiteral("24,690"));
        QCOMPARE(t.cellText(row("run_delay_per_runtime"), 1), QStringLiteral("0.1000"));
        QCOMPARE(t.cellText(row("cpuidle_entries_per_sec"), 1), QStringLiteral("8,000"));
        QCOMPARE(t.cellText(row("headline"), 1), QStringLiteral("333.300"));
        // The other policy has had no frame.
        QVERIFY(t.cellText(row("ops_per_sec"), 0).isEmpty());
        // The headline row says what the workload measures.
        QCOMPARE(t.model()->headerData(row("headline"), Qt::Vertical).toString(), QStringLiteral("headline: usecs/op"));
        // A cell's tooltip has the value as the JSON writes it.
        const QString tip =
            t.model()->data(t.model()->index(row("context_switches_per_sec"), 1), Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral(": 2000\n")) && tip.contains(QStringLiteral("sync-waker-v3")) &&
                     tip.contains(QStringLiteral("figures.context_switches_per_sec")),
                 qPrintable(tip));
    }

    void theNextFrameUpdatesInPlaceAndClearEmpties()
    {
        FiguresTable t;
        t.setPolicies({"baseline", "sync-waker-v3"}, kColours);
        RunMetrics m = known_metrics();
        t.setFigures(0, run_figures(m, Time::ms(500), 1500, kHeadline), kHeadline);
        QCOMPARE(t.cellText(row("context_switches_per_sec"), 0), QStringLiteral("2,000"));

        QSignalSpy resets(t.model(), &QAbstractItemModel::modelReset);
        QSignalSpy changes(t.model(), &QAbstractItemModel::dataChanged);
        m.voluntary_switches = 3000;
        m.involuntary_switches = 1'500'000;
        t.setFigures(0, run_figures(m, Time::ms(500), 1500, kHeadline), kHeadline);
        QCOMPARE(t.cellText(row("context_switches_per_sec"), 0), QStringLiteral("3.01 M"));
        QCOMPARE(*t.figuresModel()->value(row("context_switches_per_sec"), 0), 3'006'000.0);
        // One column's change, not a rebuilt table.
        QCOMPARE(resets.count(), 0);
        QCOMPARE(changes.count(), 1);
        QCOMPARE(changes.at(0).at(0).toModelIndex().column(), 0);
        QCOMPARE(changes.at(0).at(1).toModelIndex().column(), 0);

        t.clear();
        QCOMPARE(t.model()->columnCount(), 2);
        for (int r = 0; r < t.model()->rowCount(); ++r)
            QVERIFY(t.cellText(r, 0).isEmpty());
        QVERIFY(!t.figuresModel()->value(row("ops_per_sec"), 0));
        QCOMPARE(t.model()->headerData(row("headline"), Qt::Vertical).toString(), QStringLiteral("headline"));
    }

    void theFifthChartTab()
    {
        ChartsPanel panel;
        QCOMPARE(panel.count(), 5);
        QCOMPARE(panel.widget(4), panel.figures());
        QCOMPARE(panel.tabText(4), QStringLiteral("Figures"));
        panel.setPolicies({"baseline", "sync-waker-v3"}, kColours);
        QCOMPARE(panel.figures()->model()->columnCount(), 2);
        panel.figures()->setFigures(1, run_figures(known_metrics(), Time::ms(500), 1500, kHeadline), kHeadline);
        panel.clear();
        QCOMPARE(panel.figures()->model()->columnCount(), 2);
        QVERIFY(panel.figures()->cellText(row("ops_per_sec"), 1).isEmpty());

        // Presentation mode: the application's font times the scale, applied
        // twice without compounding; the header keeps its bold.
        const qreal normal = QApplication::font().pointSizeF();
        panel.setFontScale(1.5);
        panel.setFontScale(1.5);
        QCOMPARE(panel.figures()->font().pointSizeF(), 1.5 * normal);
        QCOMPARE(panel.figures()->horizontalHeader()->font().pointSizeF(), 1.5 * normal);
        QVERIFY(panel.figures()->horizontalHeader()->font().bold());
        QCOMPARE(panel.figures()->verticalHeader()->font().pointSizeF(), 1.5 * normal);
        panel.setFontScale(1.0);
        QCOMPARE(panel.figures()->font().pointSizeF(), normal);

        // The dark theme: dark cells, light text, headers still readable.
        panel.setDark(true);
        const QPalette p = panel.figures()->palette();
        QVERIFY(test::luminance(p.color(QPalette::Base)) < 0.05);
        QVERIFY(test::contrast(p.color(QPalette::Text), p.color(QPalette::Base)) >= 4.5);
        QVERIFY(test::contrast(p.color(QPalette::Text), p.color(QPalette::AlternateBase)) >= 4.5);
        for (int i = 0; i < 2; ++i) {
            const QColor header = panel.figures()->figuresModel()->headerColour(i);
            for (const QPalette::ColorRole role : {QPalette::Button, QPalette::Window, QPalette::Base})
                QVERIFY2(test::contrast(header, p.color(role)) >= 4.5, qPrintable(header.name()));
        }
        panel.setDark(false);
        QVERIFY(test::luminance(panel.figures()->palette().color(QPalette::Base)) > 0.8);
    }

    // The engine adds up runtime when a run ends; a snapshot of a run still
    // going adds it up itself, so run delay / runtime is right mid-run, and
    // the finished run's is the engine's, as wakesim reports it.
    void runtimeIsTheRunSoFar()
    {
        const Machine machine = resolve_machine("teaching-8");
        PreparedRun run = prepare_run(machine, {"pipe:loops=300", "baseline", FeatureSet(), 1});
        for (int i = 0; i < 200; ++i)
            QVERIFY(run.sim->step_wakeup());
        const RunSnapshot mid = take_snapshot(*run.sim, "baseline");
        QVERIFY(!mid.finished);
        QCOMPARE(run.sim->metrics().runtime, Time());
        Time sum;
        for (const Task& t : run.sim->state().tasks)
            sum += Time::ns(static_cast<std::int64_t>(t.se.sum_exec_runtime));
        QVERIFY(sum > Time());
        QCOMPARE(mid.metrics.runtime, sum);
        // Some of the CPUs' busy time, never more than all of it.
        Time busy;
        for (const CpuTimes& c : mid.metrics.cpu_times)
            busy += c.busy;
        QVERIFY2(mid.metrics.runtime <= busy + Time::ms(1),
                 qPrintable(QStringLiteral("%1 > %2").arg(mid.metrics.runtime.ns()).arg(busy.ns())));

        run.sim->run();
        const RunSnapshot end = take_snapshot(*run.sim, "baseline");
        QVERIFY(end.finished);
        QVERIFY(end.metrics.runtime > mid.metrics.runtime);
        QCOMPARE(end.metrics.runtime, run.sim->metrics().runtime);
    }

    // The house rule: the window's figures are wakesim's. The teaching
    // scenario run to the end in the window shows, for each policy, what
    // run_figures() gives for its final snapshot, and for the first what
    // `wakesim run --json` writes under "figures".
    void theWindowShowsWakesimsFigures()
    {
        MainWindow window;
        QStringList errors;
        window.setErrorHandler([&](const QString& title, const QString& message) { errors << title + ": " + message; });
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy frames(window.session(), &SimSession::frameReady);
        QVERIFY(window.setScenario(test::teaching_scenario(), QString(), 0));
        QVERIFY(frames.wait(20000));
        window.chartsPanel()->setCurrentWidget(window.chartsPanel()->figures());
        window.setSpeed(0);
        window.runSimulation();
        QTRY_COMPARE_WITH_TIMEOUT(window.session()->state(), SimState::Finished, 120000);
        const SimFrame& frame = window.session()->lastFrame();
        QCOMPARE(frame.runs.size(), std::size_t{2});
        FiguresTable* table = window.chartsPanel()->figures();
        const int ops = row("ops_per_sec");
        for (int i = 0; i < 2; ++i) {
            const RunSnapshot& snap = frame.runs[static_cast<std::size_t>(i)];
            QVERIFY(snap.finished);
            const RunFigures f = run_figures(snap.metrics, snap.now, snap.ops, snap.headline);
            QVERIFY(f.ops_per_sec > 0);
            QTRY_COMPARE_WITH_TIMEOUT(table->figuresModel()->value(ops, i).value_or(-1), f.ops_per_sec, 10000);
            QCOMPARE(table->cellText(ops, i), format_figure("ops_per_sec", f.ops_per_sec));
            // The grid's header and the table give the same headline.
            const QString headline = table->cellText(row("headline"), i);
            QVERIFY2(window.grid(i)->figuresText().contains(headline),
                     qPrintable(window.grid(i)->figuresText() + " / " + headline));
        }

        QTemporaryDir dir;
        const QString json = dir.filePath(QStringLiteral("r.json"));
        QProcess wakesim;
        wakesim.start(QStringLiteral(WB_WAKESIM_BIN), {"run", "--topology", "teaching-8", "--workload",
                                                       "pipe:loops=300", "--policy", "baseline", "--json", json});
        QVERIFY(wakesim.waitForFinished(120000));
        QCOMPARE(wakesim.exitCode(), 0);
        QFile file(json);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject figures =
            QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("figures")).toObject();
        QCOMPARE(figures.size(), static_cast<qsizetype>(run_figure_table().size()));
        for (const RunFigureInfo& info : run_figure_table()) {
            const QString key = QString::fromUtf8(info.name.data(), info.name.size());
            QVERIFY2(figures.contains(key), qPrintable(key));
            const double expected = figures.value(key).toDouble();
            const int r = row(info.name);
            QCOMPARE(table->figuresModel()->value(r, 0).value_or(-1), expected);
            QCOMPARE(table->cellText(r, 0), format_figure(info.name, expected));
        }
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }
};

}  // namespace wb

QTEST_MAIN(wb::FiguresTableTest)
#include "figures_table_test.moc"

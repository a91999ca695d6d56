// SPDX-License-Identifier: Apache-2.0
#include <QAreaSeries>
#include <QChart>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>
#include <cmath>

#include "sweep/sweep_chart.h"
#include "sweep/sweep_curves.h"
#include "sweep/sweep_result.h"
#include "sweep/sweep_window.h"

namespace wb {

namespace {

// Short hackbench runs on teaching-8 at three group counts, 2 policies that
// place its wakeups differently, 3 seeds.
const char* const kSweep = R"({"schema_version": 1, "name": "ui", "machines": ["teaching-8"],
  "workloads": [{"label": "hackbench", "workload": "hackbench:loops=10", "parameters": {"groups": [1, 2, 4]}}],
  "policies": ["baseline", "prev-cpu-hot"], "seeds": {"from": 1, "to": 3}})";

QByteArray read_all(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class SweepWindowTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        QFile file(dir_.filePath(QStringLiteral("ui.json")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(kSweep);
        file.close();
        // The window runs the sweep on its worker, then opens what it wrote.
        result_ = dir_.filePath(QStringLiteral("ui-result.json"));
        QSignalSpy opened(&window_, &SweepWindow::resultOpened);
        window_.runSweep(file.fileName(), result_, 2);
        QVERIFY(window_.running());
        QVERIFY(opened.wait(120000));
        QVERIFY(!window_.running());
        QVERIFY(QFile::exists(result_));
        QVERIFY(!QFile::exists(result_ + QStringLiteral(".partial")));
        window_.resize(1100, 700);
        window_.show();
    }

    void theHeadlineIsALinePerPolicyThroughTheMeansWithABand()
    {
        QVERIFY(window_.setFigure(QStringLiteral("headline")));
        QCOMPARE(window_.charts().size(), std::size_t{1});
        SweepChart* chart = window_.charts()[0];
        QCOMPARE(chart->policyCount(), 2);
        QCOMPARE(chart->chart()->title(), QStringLiteral("Time"));  // hackbench's own headline
        QCOMPARE(chart->line(1)->name(), QStringLiteral("prev-cpu-hot"));
        // The same numbers as the curves the core computes (and `wakesim
        // sweep curves` prints).
        const SweepResult& r = *window_.result();
        const std::vector<Curve> curves =
            sweep_curves(r.grid(), r.by_index(), {}, *find_sweep_figure("headline"));
        for (int p = 0; p < 2; ++p) {
            const QList<QPointF> line = chart->line(p)->points();
            QCOMPARE(line.size(), 3);
            const QList<QPointF> upper = chart->band(p)->upperSeries()->points();
            const QList<QPointF> lower = chart->band(p)->lowerSeries()->points();
            for (int i = 0; i < 3; ++i) {
                const CurvePoint& c = curves[static_cast<std::size_t>(p)].points[static_cast<std::size_t>(i)];
                QCOMPARE(line[i], QPointF(*c.x, c.summary.mean));
                QVERIFY(c.summary.ci95);
                QCOMPARE(upper[i].y(), c.summary.mean + *c.summary.ci95);
                QCOMPARE(lower[i].y(), c.summary.mean - *c.summary.ci95);
            }
        }
        QVERIFY(qobject_cast<QValueAxis*>(chart->xAxis()));
    }

    void logAxesWhereAsked()
    {
        window_.setLogAxes(true, true);
        SweepChart* chart = window_.charts()[0];
        QVERIFY(chart->isLogX());
        QVERIFY(chart->isLogY());
        QVERIFY(qobject_cast<QLogValueAxis*>(chart->xAxis()));
        QVERIFY(qobject_cast<QLogValueAxis*>(chart->yAxis()));
        window_.setLogAxes(false, false);
        QVERIFY(!window_.charts()[0]->isLogX());
    }

    void latencyPercentilesGetAPanelEach()
    {
        QVERIFY(window_.setFigure(QStringLiteral("wakeup latency")));
        QCOMPARE(window_.charts().size(), std::size_t{4});
        QCOMPARE(window_.charts()[0]->chart()->title(), QStringLiteral("wakeup latency p50"));
        QCOMPARE(window_.charts()[3]->chart()->title(), QStringLiteral("wakeup latency p99.9"));
        // p99 at or above p50 for every point of every policy.
        for (int p = 0; p < 2; ++p)
            for (int i = 0; i < 3; ++i)
                QVERIFY(window_.charts()[2]->line(p)->at(i).y() >= window_.charts()[0]->line(p)->at(i).y());
    }

    void exportsThePictureAtTheChosenSize()
    {
        const QString png = dir_.filePath(QStringLiteral("curves.png"));
        QString error;
        QVERIFY2(window_.exportPicture(png, QSize(1280, 720), &error), qPrintable(error));
        const QImage image(png);
        QCOMPARE(image.size(), QSize(1280, 720));
        QVERIFY(window_.exportFrame().title.startsWith(QStringLiteral("hackbench on teaching-8")));
        QCOMPARE(window_.exportFrame().legend.size(), std::size_t{2});
        // For a look by hand: WB_SWEEP_SCREENSHOT=DIR keeps the pictures.
        const QString keep = qEnvironmentVariable("WB_SWEEP_SCREENSHOT");
        if (!keep.isEmpty()) {
            QFile::remove(keep + QStringLiteral("/sweep-latency.png"));
            QFile::copy(png, keep + QStringLiteral("/sweep-latency.png"));
            window_.grab().save(keep + QStringLiteral("/sweep-window.png"));
            window_.setFigure(QStringLiteral("headline"));
            window_.exportPicture(keep + QStringLiteral("/sweep-headline.png"), QSize(1280, 720), &error);
        }
    }

    void csvIsWhatWakesimWritesAndJsonIsTheResult()
    {
        const QString csv = dir_.filePath(QStringLiteral("points.csv"));
        const QString json = dir_.filePath(QStringLiteral("copy.json"));
        QString error;
        QVERIFY2(window_.exportCsv(csv, &error), qPrintable(error));
        QVERIFY2(window_.exportJson(json, &error), qPrintable(error));
        QCOMPARE(read_all(json), read_all(result_));
        QProcess wakesim;
        wakesim.start(QStringLiteral(WB_WAKESIM_BIN), {QStringLiteral("sweep"), QStringLiteral("csv"), result_});
        QVERIFY(wakesim.waitForFinished(60000));
        QCOMPARE(wakesim.exitCode(), 0);
        const QByteArray printed = wakesim.readAllStandardOutput();
        QCOMPARE(read_all(csv), printed);
        QCOMPARE(printed.count('\n'), 1 + 18);  // a header and 3 x 2 x 3 points
    }

    void aBrokenFileIsRefusedAndTheCurvesStay()
    {
        const QString bad = dir_.filePath(QStringLiteral("bad.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"schema_version\": 1, \"fingerprint\": \"x\",\n \"points\": [}");
        f.close();
        QString error;
        QVERIFY(!window_.openResult(bad, &error));
        QVERIFY2(error.contains(bad + QStringLiteral(":2:")), qPrintable(error));
        QVERIFY(window_.result());
        QVERIFY(!window_.charts().empty());
    }

private:
    QTemporaryDir dir_;
    QString result_;
    SweepWindow window_;
};

}  // namespace wb

QTEST_MAIN(wb::SweepWindowTest)
#include "sweep_window_test.moc"

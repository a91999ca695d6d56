// SPDX-License-Identifier: Apache-2.0
//
// The wakebench program run as a user runs it: options, exit codes, messages
// and the screenshot it writes.
#include <QColor>
#include <QFile>
#include <QImage>
#include <QObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run {
    int status = -1;
    QString out;
    QString err;
};

Run run_wakebench(const QStringList& args)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(WB_WAKEBENCH_BIN), args);
    Run run;
    if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit)
        return run;
    run.status = process.exitCode();
    run.out = QString::fromLocal8Bit(process.readAllStandardOutput());
    run.err = QString::fromLocal8Bit(process.readAllStandardError());
    return run;
}

int distinct_colours(const QImage& image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    return static_cast<int>(colours.size());
}

int pixels_of(const QImage& image, QRgb colour)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            n += (image.pixel(x, y) & 0xffffff) == (colour & 0xffffff);
    return n;
}

}  // namespace

class WakebenchMainTest : public QObject {
    Q_OBJECT

private slots:
    void screenshotOfTheDefaultScenario()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("shot.png"));
        const Run run = run_wakebench({QStringLiteral("--screenshot"), png});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(1280, 800));
        QVERIFY2(distinct_colours(image) > 5, qPrintable(QString::number(distinct_colours(image))));
        // Side by side: the frames in the first two policy colours.
        QVERIFY(pixels_of(image, qRgb(0x00, 0x72, 0xb2)) > 1000);
        QVERIFY(pixels_of(image, qRgb(0xd5, 0x5e, 0x00)) > 1000);
    }

    // --at runs the scenario to that time first: the picture changes and is
    // anything but blank.
    void screenshotAtATimeShowsTheRun()
    {
        QTemporaryDir dir;
        const QString start = dir.filePath(QStringLiteral("start.png"));
        const QString later = dir.filePath(QStringLiteral("later.png"));
        const QString scenario = QStringLiteral(WB_SOURCE_DIR "/resources/scenarios/altra-pipe-side-by-side.json");
        Run run = run_wakebench({QStringLiteral("--scenario"), scenario, QStringLiteral("--screenshot"), start});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        run = run_wakebench({QStringLiteral("--scenario"), scenario, QStringLiteral("--screenshot"), later,
                             QStringLiteral("--at"), QStringLiteral("500us")});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        const QImage a(start);
        const QImage b(later);
        QCOMPARE(b.size(), QSize(1280, 800));
        QVERIFY(distinct_colours(b) > 20);
        QVERIFY(a != b);
    }

    void badScenarioNamesTheProblem()
    {
        QTemporaryDir dir;
        const QString scenario = dir.filePath(QStringLiteral("s.json"));
        QFile file(scenario);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{}\n");
        file.close();
        const Run run = run_wakebench({QStringLiteral("--scenario"), scenario, QStringLiteral("--screenshot"),
                                       dir.filePath(QStringLiteral("s.png"))});
        QCOMPARE(run.status, 2);
        QVERIFY2(run.err.contains(scenario + QStringLiteral(":1:")), qPrintable(run.err));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("s.png"))));
    }

    void missingScenarioIsAnError()
    {
        const Run run = run_wakebench({QStringLiteral("--scenario"), QStringLiteral("/nonexistent/altra-pipe.json")});
        QCOMPARE(run.status, 2);
        QVERIFY2(run.err.contains(QStringLiteral("--scenario")), qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("/nonexistent/altra-pipe.json")), qPrintable(run.err));
    }

    void badTimeIsAnError_data()
    {
        QTest::addColumn<QString>("value");
        QTest::newRow("no unit") << QStringLiteral("500");
        QTest::newRow("unknown unit") << QStringLiteral("5parsecs");
        QTest::newRow("negative") << QStringLiteral("-1ms");
    }

    void badTimeIsAnError()
    {
        QFETCH(QString, value);
        const Run run = run_wakebench(
            {QStringLiteral("--at"), value, QStringLiteral("--screenshot"), QStringLiteral("/tmp/never.png")});
        QCOMPARE(run.status, 2);
        QVERIFY2(run.err.contains(QStringLiteral("--at")), qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("500us, 5ms or 2s")), qPrintable(run.err));
    }

    void unknownCaseIsAnError()
    {
        const Run run =
            run_wakebench({QStringLiteral("--scenario"),
                           QStringLiteral(WB_SOURCE_DIR "/resources/scenarios/altra-pipe-side-by-side.json"),
                           QStringLiteral("--case"), QStringLiteral("nope")});
        QCOMPARE(run.status, 2);
        QVERIFY2(run.err.contains(QStringLiteral("two-cpu-78-79")), qPrintable(run.err));
    }

    void badMachineIsAnError()
    {
        const Run run = run_wakebench({QStringLiteral("--machine"), QStringLiteral("no-such-machine")});
        QCOMPARE(run.status, 2);
        QVERIFY2(run.err.contains(QStringLiteral("--machine")), qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("no-such-machine")), qPrintable(run.err));
    }

    void badCpuIsAnError_data()
    {
        QTest::addColumn<QString>("value");
        QTest::newRow("past the last CPU") << QStringLiteral("8");
        QTest::newRow("negative") << QStringLiteral("-1");
        QTest::newRow("not a number") << QStringLiteral("five");
    }

    void badCpuIsAnError()
    {
        QFETCH(QString, value);
        const Run run = run_wakebench(
            {QStringLiteral("--machine"), QStringLiteral("teaching-8"), QStringLiteral("--select-cpu"), value});
        QCOMPARE(run.status, 2);
        QVERIFY2(run.err.contains(QStringLiteral("--select-cpu")), qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("0 to 7")), qPrintable(run.err));
    }

    void unknownOptionIsAnError()
    {
        const Run run = run_wakebench({QStringLiteral("--frobnicate")});
        QCOMPARE(run.status, 2);
        QVERIFY2(run.err.contains(QStringLiteral("frobnicate")), qPrintable(run.err));
    }

    void unwritableScreenshotIsAnError()
    {
        const Run run = run_wakebench({QStringLiteral("--machine"), QStringLiteral("teaching-8"),
                                       QStringLiteral("--screenshot"), QStringLiteral("/nonexistent/dir/x.png")});
        QCOMPARE(run.status, 2);
        QVERIFY2(run.err.contains(QStringLiteral("--screenshot")), qPrintable(run.err));
    }

    void helpListsTheOptions()
    {
        const Run run = run_wakebench({QStringLiteral("--help")});
        QCOMPARE(run.status, 0);
        for (const char* option : {"--machine", "--scenario", "--screenshot", "--at", "--case", "--select-cpu"})
            QVERIFY2(run.out.contains(QLatin1String(option)), option);
        QVERIFY2(run.out.contains(QStringLiteral("wakebench")), qPrintable(run.out));
    }
};

QTEST_GUILESS_MAIN(WakebenchMainTest)
#include "wakebench_main_test.moc"

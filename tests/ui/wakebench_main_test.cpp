// SPDX-License-Identifier: Apache-2.0
//
// The wakebench program run as a user runs it: options, exit codes, messages
// and the screenshot it writes.
#include <QColor>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

namespace {

struct Run {
    int status = -1;
    QString out;
    QString err;
};

// `config_home`, when given, holds the window's settings for this run
// (XDG_CONFIG_HOME), so that a run that remembers writes there.
Run run_wakebench(const QStringList& args, const QString& config_home = {})
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    if (!config_home.isEmpty())
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), config_home);
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

QString read_text(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// An SVG's size as a browser takes it: the root's width and height, in
// CSS pixels (96 to the inch), and its viewBox.
struct SvgSize {
    bool parsed = false;
    QSizeF css_px;
    QString view_box;
};

SvgSize svg_size(const QString& path)
{
    QFile file(path);
    SvgSize size;
    if (!file.open(QIODevice::ReadOnly))
        return size;
    QXmlStreamReader xml(&file);
    if (!xml.readNextStartElement() || xml.name() != QLatin1String("svg"))
        return size;
    const auto css_px = [](QStringView length) {
        if (length.endsWith(QLatin1String("mm")))
            return length.chopped(2).toDouble() * 96 / 25.4;
        if (length.endsWith(QLatin1String("px")))
            return length.chopped(2).toDouble();
        return length.toDouble();
    };
    size.css_px = QSizeF(css_px(xml.attributes().value(QLatin1String("width"))),
                         css_px(xml.attributes().value(QLatin1String("height"))));
    size.view_box = xml.attributes().value(QLatin1String("viewBox")).toString();
    while (!xml.atEnd())
        xml.readNext();
    size.parsed = !xml.hasError();
    return size;
}

const QString kAltra = QStringLiteral(WB_SOURCE_DIR "/resources/scenarios/altra-pipe-side-by-side.json");

// teaching-8 under mainline and the example plugin's policy, without a
// "plugins" entry: only --plugin makes its second policy known.
bool write_plugin_scenario(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) &&
           file.write(
               "{\"schema_version\": 1, \"name\": \"p\", \"machine\": \"teaching-8\",\n"
               " \"cases\": [{\"label\": \"pipe\", \"workload\": \"pipe:loops=300\"}],\n"
               " \"policies\": [\"baseline\", \"prefer-idle-prev-llc\"]}\n") > 0;
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

    void badViewIsAnError()
    {
        const Run run = run_wakebench({QStringLiteral("--view"), QStringLiteral("foo"), QStringLiteral("--screenshot"),
                                       QStringLiteral("/tmp/x.png")});
        QCOMPARE(run.status, 2);
        QVERIFY2(
            run.err.contains(QStringLiteral(
                "--view 'foo': expected one of window, grids, decision, throughput, latency, headline, placement")),
            qPrintable(run.err));
    }

    void badSizeIsAnError_data()
    {
        QTest::addColumn<QString>("value");
        QTest::newRow("no height") << QStringLiteral("12x");
        QTest::newRow("words") << QStringLiteral("wide");
        QTest::newRow("too small") << QStringLiteral("319x200");
        QTest::newRow("too large") << QStringLiteral("7681x1080");
        QTest::newRow("negative") << QStringLiteral("-1920x1080");
    }

    void badSizeIsAnError()
    {
        QFETCH(QString, value);
        const Run run = run_wakebench(
            {QStringLiteral("--size"), value, QStringLiteral("--screenshot"), QStringLiteral("/tmp/never.png")});
        QCOMPARE(run.status, 2);
        QVERIFY2(run.err.contains(QStringLiteral("--size '%1'").arg(value)), qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("WIDTHxHEIGHT")), qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("320 to 7680")), qPrintable(run.err));
        QVERIFY(!QFile::exists(QStringLiteral("/tmp/never.png")));
    }

    void unknownPictureFormatIsAnError()
    {
        QTemporaryDir dir;
        const QString jpg = dir.filePath(QStringLiteral("x.jpg"));
        const Run run = run_wakebench({QStringLiteral("--screenshot"), jpg});
        QCOMPARE(run.status, 2);
        QVERIFY2(run.err.contains(QStringLiteral("--screenshot '%1'").arg(jpg)), qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral(".png or .svg")), qPrintable(run.err));
        QVERIFY(!QFile::exists(jpg));
    }

    void viewAndSizeNeedAScreenshot_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("value");
        QTest::newRow("view") << QStringLiteral("--view") << QStringLiteral("grids");
        QTest::newRow("size") << QStringLiteral("--size") << QStringLiteral("1920x1080");
    }

    void viewAndSizeNeedAScreenshot()
    {
        QFETCH(QString, option);
        QFETCH(QString, value);
        const Run run = run_wakebench({option, value});
        QCOMPARE(run.status, 2);
        QVERIFY2(run.err.contains(option + QStringLiteral(" needs --screenshot")), qPrintable(run.err));
    }

    void flipNeedsWhatIf()
    {
        const Run run = run_wakebench({QStringLiteral("--flip"), QStringLiteral("NO_SIS_UTIL")});
        QCOMPARE(run.status, 2);
        QVERIFY2(run.err.contains(QStringLiteral("--flip needs --what-if")), qPrintable(run.err));
    }

    void anUnknownFlipNamesTheFeatures()
    {
        const Run run = run_wakebench({QStringLiteral("--what-if"), QStringLiteral("--flip"), QStringLiteral("NO_SIS_FOO")});
        QCOMPARE(run.status, 2);
        QVERIFY2(run.err.contains(QStringLiteral("--flip")), qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("SIS_FOO")), qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("SIS_UTIL")), qPrintable(run.err));  // the valid ones
    }

    void theWindowAtTheSizeAsked()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("window.png"));
        const Run run = run_wakebench({QStringLiteral("--scenario"), kAltra, QStringLiteral("--size"),
                                       QStringLiteral("1920x1080"), QStringLiteral("--screenshot"), png});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        // Qt did not take --plugin for one of its own (a generic input plugin).
        QVERIFY2(!run.err.contains(QStringLiteral("No such plugin")), qPrintable(run.err));
        const QImage image(png);
        QCOMPARE(image.size(), QSize(1920, 1080));
        // The window laid out at that size, not a smaller one scaled up:
        // both policies' frames and plenty of detail.
        QVERIFY(pixels_of(image, qRgb(0x00, 0x72, 0xb2)) > 1000);
        QVERIFY(pixels_of(image, qRgb(0xd5, 0x5e, 0x00)) > 1000);
        QVERIFY(distinct_colours(image) > 20);
    }

    void theGridsAsSvg()
    {
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("grids.svg"));
        const Run run =
            run_wakebench({QStringLiteral("--scenario"), kAltra, QStringLiteral("--view"), QStringLiteral("grids"),
                           QStringLiteral("--size"), QStringLiteral("1920x1080"), QStringLiteral("--screenshot"), svg});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        const SvgSize size = svg_size(svg);
        QVERIFY(size.parsed);
        QCOMPARE(size.view_box, QStringLiteral("0 0 1920 1080"));
        QVERIFY2(qAbs(size.css_px.width() - 1920) < 1 && qAbs(size.css_px.height() - 1080) < 1,
                 qPrintable(QStringLiteral("%1 x %2").arg(size.css_px.width()).arg(size.css_px.height())));
        const QString text = read_text(svg);
        QVERIFY(text.contains(QStringLiteral(">baseline<")));
        QVERIFY(text.contains(QStringLiteral(">sync-waker-v3<")));
        QVERIFY(text.contains(QStringLiteral("altra-pipe-side-by-side")));
        QVERIFY(text.contains(QStringLiteral("ampere-altra-80")));
        QVERIFY(text.contains(QStringLiteral("usecs/op")));
        QVERIFY(!text.contains(QStringLiteral("<image")));
    }

    // The dock's chart is a strip; the picture is the slide's shape.
    void aChartAtSlideSize()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("throughput.png"));
        const Run run =
            run_wakebench({QStringLiteral("--scenario"), kAltra, QStringLiteral("--at"), QStringLiteral("1ms"),
                           QStringLiteral("--view"), QStringLiteral("throughput"), QStringLiteral("--size"),
                           QStringLiteral("1280x720"), QStringLiteral("--screenshot"), png});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        // Qt did not take --plugin for one of its own (a generic input plugin).
        QVERIFY2(!run.err.contains(QStringLiteral("No such plugin")), qPrintable(run.err));
        const QImage image(png);
        QCOMPARE(image.size(), QSize(1280, 720));
        QVERIFY(pixels_of(image, qRgb(0x00, 0x72, 0xb2)) > 500);
        QVERIFY(pixels_of(image, qRgb(0xd5, 0x5e, 0x00)) > 500);
    }

    // The headline view waits for the comparison: every case, every run.
    void theHeadlineRunsTheComparison()
    {
        QTemporaryDir dir;
        const QString scenario = dir.filePath(QStringLiteral("small.json"));
        QFile file(scenario);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"schema_version": 1, "name": "small-comparison", "machine": "teaching-8",
                       "cases": [{"label": "pipe", "workload": "pipe:loops=2000"},
                                 {"label": "pinned", "workload": "pipe:loops=2000,cpus=3"}],
                       "policies": ["baseline", "sync-waker-v3"], "seed": 1, "runs": 2})");
        file.close();
        const QString svg = dir.filePath(QStringLiteral("headline.svg"));
        const Run run = run_wakebench({QStringLiteral("--scenario"), scenario, QStringLiteral("--view"),
                                       QStringLiteral("headline"), QStringLiteral("--screenshot"), svg});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        const QString text = read_text(svg);
        QVERIFY2(text.contains(QStringLiteral("every case, 2 runs per policy")), qPrintable(text.left(3000)));
        // Both cases on the chart's axis, not only the one on screen.
        QVERIFY(text.contains(QStringLiteral(">pinned<")));
        QCOMPARE(svg_size(svg).view_box, QStringLiteral("0 0 1280 800"));
    }

    void aPluginThatDoesNotLoadIsAUsageError_data()
    {
        QTest::addColumn<QString>("plugin");
        QTest::addColumn<QString>("expected");
        QTest::newRow("missing") << QStringLiteral("/nonexistent/libmine.so") << QStringLiteral("no such file");
        QTest::newRow("other ABI") << QStringLiteral(WB_PLUGIN_ABI_MISMATCH) << QStringLiteral("hook ABI version");
        QTest::newRow("not a library") << kAltra << QStringLiteral("cannot load the plugin: ");
    }

    // Before any display: the loader's message, naming the file, and status 2.
    void aPluginThatDoesNotLoadIsAUsageError()
    {
        QFETCH(QString, plugin);
        QFETCH(QString, expected);
        const Run run = run_wakebench({QStringLiteral("--plugin"), plugin});
        QCOMPARE(run.status, 2);
        QVERIFY2(run.err.startsWith(QStringLiteral("wakebench: --plugin ") + plugin + QStringLiteral(": cannot load")),
                 qPrintable(run.err));
        QVERIFY2(run.err.contains(QFileInfo(plugin).fileName()), qPrintable(run.err));
        QVERIFY2(run.err.contains(expected), qPrintable(run.err));
    }

    // --plugin loads before the scenario is read: its policies may be named.
    void aScenarioMayNameAPluginsPolicy()
    {
        QTemporaryDir dir;
        const QString scenario = dir.filePath(QStringLiteral("p.json"));
        QVERIFY(write_plugin_scenario(scenario));
        const QString png = dir.filePath(QStringLiteral("p.png"));
        Run run = run_wakebench({QStringLiteral("--scenario"), scenario, QStringLiteral("--screenshot"), png});
        QCOMPARE(run.status, 2);
        QVERIFY2(run.err.contains(QStringLiteral("prefer-idle-prev-llc")), qPrintable(run.err));
        QVERIFY(!QFile::exists(png));
        run = run_wakebench({QStringLiteral("--plugin"), QStringLiteral(WB_PLUGIN_EXAMPLE),
                             QStringLiteral("--scenario"), scenario, QStringLiteral("--at"), QStringLiteral("50us"),
                             QStringLiteral("--screenshot"), png});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        // Qt did not take --plugin for one of its own (a generic input plugin).
        QVERIFY2(!run.err.contains(QStringLiteral("No such plugin")), qPrintable(run.err));
        const QImage image(png);
        QCOMPARE(image.size(), QSize(1280, 800));
        QVERIFY(pixels_of(image, qRgb(0xd5, 0x5e, 0x00)) > 1000);  // the second policy's frame
    }

    // A window (not a picture) remembers the plugins given with --plugin.
    void aPluginGivenAtStartIsRemembered()
    {
        QTemporaryDir config;
        const Run run = run_wakebench({QStringLiteral("--plugin"), QStringLiteral(WB_PLUGIN_EXAMPLE),
                                       QStringLiteral("--frame-stats"), QStringLiteral("0.2")},
                                      config.path());
        QVERIFY2(run.status == 0, qPrintable(run.err));
        const QString ini = read_text(config.filePath(QStringLiteral("wakebench/wakebench.ini")));
        QVERIFY2(
            ini.contains(QStringLiteral("plugins=") + QFileInfo(QStringLiteral(WB_PLUGIN_EXAMPLE)).absoluteFilePath()),
            qPrintable(ini));
    }

    void helpListsTheOptions()
    {
        const Run run = run_wakebench({QStringLiteral("--help")});
        QCOMPARE(run.status, 0);
        for (const char* option : {"--machine", "--scenario", "--screenshot", "--at", "--case", "--select-cpu",
                                   "--view", "--size", "--plugin"})
            QVERIFY2(run.out.contains(QLatin1String(option)), option);
        QVERIFY2(run.out.contains(QStringLiteral("wakebench")), qPrintable(run.out));
    }
};

QTEST_GUILESS_MAIN(WakebenchMainTest)
#include "wakebench_main_test.moc"

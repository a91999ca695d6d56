// SPDX-License-Identifier: Apache-2.0
#include <QChart>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>
#include <algorithm>

#include "charts/placement_chart.h"
#include "charts/throughput_chart.h"
#include "decision/decision_diagram.h"
#include "decision/palette.h"
#include "export/export_frame.h"
#include "sched/decision.h"

namespace wb {
namespace {

QString read(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// The pixel size of the first <g> of the SVG that holds `text`: the
// generator writes each run of text inside a group carrying its font.
double font_px_of(const QString& svg, const QString& text)
{
    const qsizetype at = svg.indexOf(QLatin1Char('>') + text + QLatin1Char('<'));
    if (at < 0)
        return -1;
    const qsizetype group = svg.lastIndexOf(QStringLiteral("<g "), at);
    static const QRegularExpression size(QStringLiteral("font-size=\"([0-9.]+)\""));
    const QRegularExpressionMatch m = size.match(svg.mid(group, at - group));
    return m.hasMatch() ? m.captured(1).toDouble() : -1;
}

void fill(ThroughputChart& chart)
{
    chart.setPolicies({"baseline", "sync-waker-v3"}, {palette::policy_colour(0), palette::policy_colour(1)});
    for (int i = 1; i <= 20; ++i) {
        chart.addSample(0, i * 1e-3, 1000.0 * i);
        chart.addSample(1, i * 1e-3, 1200.0 * i);
    }
}

ExportFrame frame_of(QWidget* view)
{
    ExportFrame frame;
    frame.title = QStringLiteral("altra-pipe-side-by-side \u00b7 ampere-altra-80 \u00b7 simulated 5ms");
    frame.panels = {{view, {}, {}}};
    frame.legend = {{"baseline", palette::policy_colour(0), "usecs/op 3.960"},
                    {"sync-waker-v3", palette::policy_colour(1), "usecs/op 3.230"}};
    return frame;
}

}  // namespace

class ExportFrameTest : public QObject {
    Q_OBJECT

private slots:
    void init() { QVERIFY(dir_.isValid()); }

    // The dock's chart is a wide strip; its export is the size asked for,
    // with the title and every policy's name and figure.
    void aChartAtSlideSizeHasTitleAndLegend()
    {
        ThroughputChart chart;
        fill(chart);
        chart.resize(1900, 180);
        const ExportFrame frame = frame_of(&chart);

        QString error;
        const QString png = dir_.filePath("chart.png");
        QVERIFY2(write_export_frame(frame, {1920, 1080}, png, &error), qPrintable(error));
        QCOMPARE(QImage(png).size(), QSize(1920, 1080));

        const QString svg_path = dir_.filePath("chart.svg");
        QVERIFY2(write_export_frame(frame, {1920, 1080}, svg_path, &error), qPrintable(error));
        const QString svg = read(svg_path);
        QVERIFY(svg.contains("viewBox=\"0 0 1920 1080\""));
        for (const char* text : {"altra-pipe-side-by-side", "baseline", "usecs/op 3.960", "sync-waker-v3",
                                 "usecs/op 3.230", "simulated time (ms)"})
            QVERIFY2(svg.contains(QString::fromUtf8(text)), text);
        QVERIFY(!svg.contains("<image"));
    }

    // Fonts follow the picture: at 1920 x 1080 the axis labels and titles
    // read from the back of a room, and a larger picture has larger ones.
    void chartFontsGrowWithThePicture()
    {
        ThroughputChart chart;
        fill(chart);
        chart.resize(1900, 180);
        const ExportFrame frame = frame_of(&chart);
        QString error;
        const QString big = dir_.filePath("big.svg");
        const QString small = dir_.filePath("small.svg");
        QVERIFY2(write_export_frame(frame, {1920, 1080}, big, &error), qPrintable(error));
        QVERIFY2(write_export_frame(frame, {1280, 720}, small, &error), qPrintable(error));
        const QString label = chart.timeAxis()->titleText();
        const double at_1080 = font_px_of(read(big), label);
        const double at_720 = font_px_of(read(small), label);
        QVERIFY2(at_1080 >= 18, qPrintable(QString::number(at_1080)));
        QVERIFY2(at_1080 > at_720, qPrintable(QStringLiteral("%1 <= %2").arg(at_1080).arg(at_720)));
        QVERIFY2(font_px_of(read(big), chart.chart()->title()) >= 24, qPrintable(read(big).left(4000)));
        QVERIFY2(font_px_of(read(big), "baseline") >= 24, "legend");
    }

    // The lines widen with the picture too: 2 px in the dock, 3 at 1920 x 1080.
    void chartLinesWidenWithThePicture()
    {
        ThroughputChart chart;
        fill(chart);
        chart.resize(1900, 180);
        QString error;
        const QString svg = dir_.filePath("lines.svg");
        QVERIFY2(write_export_frame(frame_of(&chart), {1920, 1080}, svg, &error), qPrintable(error));
        const QString line = QStringLiteral("stroke=\"%1\"[^>]*stroke-width=\"([0-9.]+)\"[^>]*>\\s*<polyline")
                                 .arg(palette::policy_colour(0).name());
        const QRegularExpressionMatch m = QRegularExpression(line).match(read(svg));
        QVERIFY2(m.hasMatch(), qPrintable(line));
        QCOMPARE(m.captured(1).toDouble(), chart.series(0)->pen().widthF() * 1.5);
    }

    // The window's chart is as it was: size, fonts, legend.
    void theChartComesBackAsItWas()
    {
        ThroughputChart chart;
        fill(chart);
        chart.resize(900, 200);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const QSizeF size = chart.chart()->size();
        const QFont labels = chart.timeAxis()->labelsFont();
        const QFont title = chart.chart()->titleFont();
        const bool legend = chart.chart()->legend()->isVisible();
        const QPen pen = chart.series(0)->pen();
        QString error;
        QVERIFY2(write_export_frame(frame_of(&chart), {1920, 1080}, dir_.filePath("c.png"), &error), qPrintable(error));
        QCOMPARE(chart.chart()->size(), size);
        QCOMPARE(chart.timeAxis()->labelsFont(), labels);
        QCOMPARE(chart.chart()->titleFont(), title);
        QCOMPARE(chart.chart()->legend()->isVisible(), legend);
        QCOMPARE(chart.series(0)->pen(), pen);
    }

    // A chart legend of the policies repeats the picture's and is left out;
    // the placement chart's legend of distance classes is kept.
    void aChartLegendIsKeptOnlyWhenItSaysSomethingElse()
    {
        ThroughputChart lines;
        fill(lines);
        lines.resize(800, 300);
        QString error;
        const QString lines_svg = dir_.filePath("lines.svg");
        QVERIFY2(write_export_frame(frame_of(&lines), {1280, 720}, lines_svg, &error), qPrintable(error));
        QCOMPARE(read(lines_svg).count(">sync-waker-v3<"), 1);

        PlacementChart placement;
        placement.setPolicies({"baseline", "sync-waker-v3"}, {});
        placement.resize(800, 300);
        const QString placement_svg = dir_.filePath("placement.svg");
        QVERIFY2(write_export_frame(frame_of(&placement), {1280, 720}, placement_svg, &error), qPrintable(error));
        QVERIFY(read(placement_svg).contains(">smt sibling<"));
    }

    // A scene (here the decision diagram) is drawn from the scene into its
    // panel, framed under the panel's label.
    void aLabelledScenePanel()
    {
        DecisionDiagram d;
        d.setAnimationInterval(0);
        d.resize(300, 200);
        DecisionRecord r;
        r.waker_cpu = 0;
        r.prev_cpu = 1;
        r.target = 0;
        r.chosen = 0;
        r.path = WakePath::TargetIdle;
        r.steps = {{"select_idle_sibling", "target idle", "cpu 0 idle", 0}};
        d.showRecord(r, palette::policy_colour(1));
        ExportFrame frame = frame_of(&d);
        frame.panels = {{&d, "sync-waker-v3 panel", palette::policy_colour(1)}};
        QString error;
        const QString svg_path = dir_.filePath("scene.svg");
        QVERIFY2(write_export_frame(frame, {1280, 720}, svg_path, &error), qPrintable(error));
        const QString svg = read(svg_path);
        QVERIFY(svg.contains("sync-waker-v3 panel"));
        QVERIFY(svg.contains("select_idle_sibling"));
        // The frame is the panel's colour.
        QVERIFY(svg.contains(palette::policy_colour(1).name(), Qt::CaseInsensitive));
    }

    void refusesAnUnknownFormat()
    {
        QLabel label("x");
        QString error;
        const QString jpg = dir_.filePath("view.jpg");
        QVERIFY(!write_export_frame(frame_of(&label), {1280, 720}, jpg, &error));
        QVERIFY2(error.contains("'.jpg'") && error.contains(".png or .svg"), qPrintable(error));
        QVERIFY(!QFileInfo::exists(jpg));
        QVERIFY(!write_export_frame(frame_of(&label), {1280, 720}, dir_.filePath("no/such/dir/v.png"), &error));
        QVERIFY2(error.contains("no/such/dir/v.png"), qPrintable(error));
    }

private:
    QTemporaryDir dir_;
};

}  // namespace wb

QTEST_MAIN(wb::ExportFrameTest)
#include "export_frame_test.moc"

// SPDX-License-Identifier: Apache-2.0
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QObject>
#include <QTemporaryDir>
#include <QTest>

#include "charts/throughput_chart.h"
#include "decision/decision_diagram.h"
#include "decision/palette.h"
#include "export/export_view.h"
#include "sched/decision.h"

namespace wb {
namespace {

bool has_foreground(const QImage& image)
{
    const QRgb background = image.pixel(0, 0);
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (image.pixel(x, y) != background)
                return true;
    return false;
}

QByteArray read(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

DecisionRecord small_record()
{
    DecisionRecord r;
    r.waker_cpu = 0;
    r.prev_cpu = 1;
    r.target = 0;
    r.chosen = 0;
    r.path = WakePath::TargetIdle;
    r.steps = {{"wake_wide", "not wide", "wakee_flips 0/0", kNoCpu},
               {"select_idle_sibling", "target idle", "cpu 0 idle", 0}};
    return r;
}

}  // namespace

class ExportViewTest : public QObject {
    Q_OBJECT

private slots:
    void init() { QVERIFY(dir_.isValid()); }

    void theDiagramAsPngAndSvg()
    {
        DecisionDiagram d;
        d.setAnimationInterval(0);
        d.resize(400, 300);  // smaller than the diagram: the export is still whole
        d.showRecord(small_record(), palette::policy_colour(1));

        QString error;
        const QString png = dir_.filePath("diagram.png");
        QVERIFY2(export_view(&d, png, &error), qPrintable(error));
        const QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.height() > 2 * d.height());
        QVERIFY(has_foreground(image));

        const QString svg = dir_.filePath("diagram.svg");
        QVERIFY2(export_view(&d, svg, &error), qPrintable(error));
        const QByteArray text = read(svg);
        QVERIFY(text.contains("<svg"));
        // Vectors and text, not an embedded bitmap.
        QVERIFY(text.contains("select_idle_sibling"));
        QVERIFY(!text.contains("<image"));
    }

    void aChartAsSvgKeepsItsText()
    {
        ThroughputChart c;
        c.setPolicies({"baseline"}, {});
        for (int i = 1; i <= 20; ++i)
            c.addSample(0, i * 1e-3, 1000.0 * i);
        c.resize(640, 400);
        c.show();
        QVERIFY(QTest::qWaitForWindowExposed(&c));

        QString error;
        const QString svg = dir_.filePath("chart.svg");
        QVERIFY2(export_view(&c, svg, &error), qPrintable(error));
        const QByteArray text = read(svg);
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains("simulated time (ms)"));

        const QString png = dir_.filePath("chart.png");
        QVERIFY2(export_view(&c, png, &error), qPrintable(error));
        const QImage image(png);
        QCOMPARE(image.size(), c.viewport()->size() * 2);
        QVERIFY(has_foreground(image));
    }

    void aPlainWidgetToo()
    {
        QLabel label("wakebench");
        label.resize(200, 40);
        QString error;
        const QString png = dir_.filePath("label.png");
        QVERIFY2(export_view(&label, png, &error), qPrintable(error));
        QVERIFY(has_foreground(QImage(png)));
    }

    void refusesWhatItCannotWrite()
    {
        QLabel label("x");
        QString error;
        const QString bmpx = dir_.filePath("view.bmpx");
        QVERIFY(!export_view(&label, bmpx, &error));
        QVERIFY2(error.contains("'.bmpx'") && error.contains(".png or .svg"), qPrintable(error));
        QVERIFY(!QFileInfo::exists(bmpx));

        const QString missing = dir_.filePath("no/such/dir/view.svg");
        QVERIFY(!export_view(&label, missing, &error));
        QVERIFY2(error.contains(missing), qPrintable(error));
        QVERIFY(!export_view(&label, dir_.filePath("no/such/dir/view.png"), &error));
        QVERIFY2(error.contains("no/such/dir/view.png"), qPrintable(error));
        QVERIFY(!export_view(nullptr, dir_.filePath("x.png"), &error));
        QVERIFY(!error.isEmpty());
    }

private:
    QTemporaryDir dir_;
};

}  // namespace wb

QTEST_MAIN(wb::ExportViewTest)
#include "export_view_test.moc"

// SPDX-License-Identifier: Apache-2.0
#include <QAbstractAxis>
#include <QBarCategoryAxis>
#include <QChart>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QObject>
#include <QTest>
#include <cmath>

#include "charts/charts_panel.h"
#include "charts/figures_table.h"
#include "charts/headline_chart.h"
#include "charts/latency_cdf_chart.h"
#include "charts/placement_chart.h"
#include "charts/throughput_chart.h"
#include "decision/palette.h"
#include "metrics/comparison.h"
#include "metrics/histogram.h"
#include "window_test_support.h"

namespace wb {
namespace {

// A panel with something in every chart: two policies' lines, a latency
// curve wide enough for the log axis, the headline's bars and labels.
void fill(ChartsPanel& panel)
{
    panel.setPolicies({"baseline", "sync-waker-v3"}, {palette::policy_colour(0), palette::policy_colour(1)});
    panel.throughput()->addSample(0, 0.001, 5000);
    Histogram wide;
    for (int i = 0; i < 100; ++i)
        wide.record(i < 90 ? 2000 : 4'000'000);
    panel.latency()->setDistribution(0, wide);
    panel.headline()->setComparison(test::two_policy_comparison());
    panel.placement()->setComparison(test::two_policy_comparison());
}

QList<QChartView*> views(const ChartsPanel& panel)
{
    return {panel.throughput(), panel.latency(), panel.headline(), panel.placement()};
}

// Every text colour a chart shows, with what it names, for the failure message.
QList<std::pair<QString, QColor>> text_colours(QChartView* view)
{
    QChart* c = view->chart();
    QList<std::pair<QString, QColor>> out{{"title", c->titleBrush().color()}, {"legend", c->legend()->labelColor()}};
    for (QLegendMarker* m : c->legend()->markers())
        out.append({"legend marker " + m->label(), m->labelBrush().color()});
    for (QAbstractAxis* axis : c->axes()) {
        out.append({"axis labels of " + axis->titleText(), axis->labelsBrush().color()});
        out.append({"axis title " + axis->titleText(), axis->titleBrush().color()});
    }
    if (auto* headline = qobject_cast<HeadlineChart*>(view)) {
        for (int p = 0; p < 2; ++p) {
            out.append({"whisker " + QString::number(p), headline->whisker(p, 0)->pen().color()});
            out.append(
                {"bar label " + headline->valueLabel(p, 0)->text(), headline->valueLabel(p, 0)->brush().color()});
        }
    }
    return out;
}

// The point sizes of every font a chart draws with.
QList<qreal> font_sizes(QChartView* view)
{
    QChart* c = view->chart();
    QList<qreal> out{c->titleFont().pointSizeF(), c->legend()->font().pointSizeF()};
    for (QLegendMarker* m : c->legend()->markers())
        out.append(m->font().pointSizeF());
    for (QAbstractAxis* axis : c->axes()) {
        out.append(axis->labelsFont().pointSizeF());
        out.append(axis->titleFont().pointSizeF());
    }
    if (auto* headline = qobject_cast<HeadlineChart*>(view))
        for (int p = 0; p < 2; ++p)
            out.append(headline->valueLabel(p, 0)->font().pointSizeF());
    return out;
}

QStringList shown_texts(QChartView* view)
{
    QStringList out;
    for (QGraphicsItem* item : view->scene()->items())
        if (auto* text = dynamic_cast<QGraphicsTextItem*>(item))
            out << text->toPlainText();
    return out;
}

}  // namespace

class ChartsPanelTest : public QObject {
    Q_OBJECT

private slots:
    void fiveTabsShareThePolicies()
    {
        ChartsPanel panel;
        QCOMPARE(panel.count(), 5);
        QCOMPARE(panel.widget(0), panel.throughput());
        QCOMPARE(panel.widget(1), panel.latency());
        QCOMPARE(panel.widget(2), panel.headline());
        QCOMPARE(panel.widget(3), panel.placement());
        QCOMPARE(panel.widget(4), panel.figures());

        const QList<QColor> colours{palette::policy_colour(0), palette::policy_colour(1)};
        panel.setPolicies({"baseline", "sync-waker-v3"}, colours);
        QCOMPARE(panel.throughput()->seriesCount(), 2);
        QCOMPARE(panel.latency()->seriesCount(), 2);
        QCOMPARE(panel.latency()->series(1)->pen().color(), colours[1]);
        QCOMPARE(panel.placement()->policyAxis()->categories(), QStringList({"baseline", "sync-waker-v3"}));

        panel.throughput()->addSample(0, 0.001, 5000);
        panel.clear();
        QCOMPARE(panel.throughput()->series(0)->count(), 0);
        QCOMPARE(panel.throughput()->seriesCount(), 2);

        panel.setCurrentIndex(2);
        QCOMPARE(panel.currentChart(), panel.headline());
    }

    void darkThemeTextMeetsAaContrast()
    {
        ChartsPanel panel;
        panel.setDark(true);
        // Filled after the switch: series, markers and labels made later follow it too.
        fill(panel);
        QVERIFY(panel.latency()->isLogScale());
        for (QChartView* view : views(panel)) {
            QChart* c = view->chart();
            const QColor plot = c->plotAreaBackgroundBrush().color();
            QVERIFY(c->isPlotAreaBackgroundVisible());
            QVERIFY2(test::luminance(c->backgroundBrush().color()) < 0.05, qPrintable(c->title()));
            QVERIFY2(test::luminance(plot) < 0.05, qPrintable(c->title()));
            for (const auto& [what, colour] : text_colours(view)) {
                QVERIFY2(test::contrast(colour, plot) >= 4.5, qPrintable(c->title() + ": " + what));
                QVERIFY2(test::contrast(colour, c->backgroundBrush().color()) >= 4.5,
                         qPrintable(c->title() + ": " + what));
            }
        }

        // And back: light backgrounds, still readable.
        panel.setDark(false);
        for (QChartView* view : views(panel)) {
            const QColor plot = view->chart()->plotAreaBackgroundBrush().color();
            QVERIFY(test::luminance(plot) > 0.8);
            for (const auto& [what, colour] : text_colours(view))
                QVERIFY2(test::contrast(colour, plot) >= 4.5, qPrintable(what));
        }
    }

    void fontScaleReachesEveryText()
    {
        ChartsPanel panel;
        fill(panel);
        QList<QList<qreal>> normal;
        for (QChartView* view : views(panel))
            normal.append(font_sizes(view));

        // Twice the same scale is that scale, not its square.
        panel.setFontScale(1.5);
        panel.setFontScale(1.5);
        for (qsizetype v = 0; v < normal.size(); ++v) {
            const QList<qreal> scaled = font_sizes(views(panel)[v]);
            QCOMPARE(scaled.size(), normal[v].size());
            for (qsizetype i = 0; i < scaled.size(); ++i) {
                QVERIFY(normal[v][i] > 0);
                QVERIFY2(
                    std::abs(scaled[i] - 1.5 * normal[v][i]) < 0.01,
                    qPrintable(
                        QStringLiteral("chart %1 font %2: %3 for %4").arg(v).arg(i).arg(scaled[i]).arg(normal[v][i])));
            }
        }
        // A headline rebuilt under the scale keeps it.
        panel.headline()->setComparison(test::two_policy_comparison());
        const QList<qreal> rebuilt = font_sizes(panel.headline());
        QCOMPARE(rebuilt.size(), normal[2].size());
        for (qsizetype i = 0; i < rebuilt.size(); ++i)
            QVERIFY(std::abs(rebuilt[i] - 1.5 * normal[2][i]) < 0.01);

        panel.setFontScale(1.0);
        for (qsizetype v = 0; v < normal.size(); ++v)
            QCOMPARE(font_sizes(views(panel)[v]), normal[v]);
    }

    void latencyAxisTitlesAndDecadesAreWholeWhenDocked()
    {
        // The dock's size in a 1280 x 800 window, and presentation mode full screen.
        for (const auto& [size, scale] : {std::pair{QSize(900, 240), 1.0}, std::pair{QSize(1900, 330), 1.45}}) {
            ChartsPanel panel;
            fill(panel);
            panel.setFontScale(scale);
            panel.setCurrentIndex(1);
            panel.resize(size);
            panel.show();
            QVERIFY(QTest::qWaitForWindowExposed(&panel));
            QCoreApplication::processEvents();
            const QStringList texts = shown_texts(panel.latency());
            const QChart* c = panel.latency()->chart();
            for (const QString& title :
                 {c->axes(Qt::Horizontal).front()->titleText(), c->axes(Qt::Vertical).front()->titleText()})
                QVERIFY2(texts.contains(title), qPrintable(title + " not among: " + texts.join(" | ")));
            // The log axis's decades read as numbers.
            QVERIFY2(texts.contains("1000") && !texts.contains("1e+03"), qPrintable(texts.join(" | ")));
        }
    }
};

}  // namespace wb

QTEST_MAIN(wb::ChartsPanelTest)
#include "charts_panel_test.moc"

// SPDX-License-Identifier: Apache-2.0
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QObject>
#include <QTest>
#include <QValueAxis>

#include "charts/headline_chart.h"
#include "decision/palette.h"
#include "metrics/comparison.h"

namespace wb {
namespace {

// Two policies x two pipe cases, three runs each.
Comparison pipe_comparison()
{
    Comparison c;
    c.cases = {"pipe", "pipe-T"};
    c.workloads = {"pipe:loops=1000", "pipe:loops=1000,threads=1"};
    c.policies = {"baseline", "sync-waker-v3"};
    c.runs = 3;
    const std::vector<std::vector<double>> values{{5.0, 5.2, 5.4}, {4.0, 4.1, 4.2}, {3.0, 3.3, 3.6}, {2.9, 3.0, 3.1}};
    for (std::size_t p = 0; p < 2; ++p) {
        for (std::size_t k = 0; k < 2; ++k) {
            ComparisonCell cell;
            cell.policy = c.policies[p];
            cell.case_label = c.cases[k];
            cell.metric = "usecs/op";
            cell.unit = "us";
            cell.values = values[p * 2 + k];
            c.cells.push_back(cell);
        }
    }
    finish_comparison(c);
    return c;
}

}  // namespace

class HeadlineChartTest : public QObject {
    Q_OBJECT

private slots:
    void meanBarsWithStddevWhiskers()
    {
        const Comparison cmp = pipe_comparison();
        HeadlineChart c;
        c.setPolicies({"baseline", "sync-waker-v3"}, {palette::policy_colour(0), palette::policy_colour(1)});
        c.setComparison(cmp);

        QVERIFY(c.bars());
        QCOMPARE(c.bars()->count(), 2);
        QCOMPARE(c.caseAxis()->categories(), QStringList({"pipe", "pipe-T"}));
        QCOMPARE(c.valueAxis()->titleText(), QStringLiteral("usecs/op (us)"));
        QVERIFY(!c.isRelative());
        // 2 bar series' sets + 4 whiskers.
        QCOMPARE(c.chart()->series().size(), 5);
        for (int p = 0; p < 2; ++p) {
            QBarSet* set = c.bars()->barSets().at(p);
            QCOMPARE(set->label(), QString::fromStdString(cmp.policies[static_cast<std::size_t>(p)]));
            QCOMPARE(set->color(), palette::policy_colour(p));
            for (int k = 0; k < 2; ++k) {
                const ComparisonCell& cell = cmp.cell(static_cast<std::size_t>(p), static_cast<std::size_t>(k));
                QCOMPARE(set->at(k), cell.summary.mean);
                QLineSeries* w = c.whisker(p, k);
                QVERIFY(w);
                QCOMPARE(w->count(), 6);
                QCOMPARE(w->at(2).y(), cell.summary.mean - *cell.summary.stddev);
                QCOMPARE(w->at(3).y(), cell.summary.mean + *cell.summary.stddev);
                // At the bar's centre: QBarSeries splits 0.8 of a category in two.
                QCOMPARE(w->at(3).x(), k - 0.4 + (p + 0.5) * 0.4);
                QVERIFY(!c.chart()->legend()->markers(w).front()->isVisible());
            }
        }
        QVERIFY(c.valueAxis()->max() >= cmp.cell(0, 0).summary.mean + *cmp.cell(0, 0).summary.stddev);
        QVERIFY2(c.chart()->title().contains("stddev over 3 runs"), qPrintable(c.chart()->title()));
    }

    void confidenceIntervalWhiskers()
    {
        const Comparison cmp = pipe_comparison();
        HeadlineChart c;
        c.setErrorBars(HeadlineChart::ErrorBars::Ci95);
        c.setComparison(cmp);
        const ComparisonCell& cell = cmp.cell(1, 0);
        QVERIFY(*cell.summary.ci95 > *cell.summary.stddev);
        QCOMPARE(c.whisker(1, 0)->at(3).y(), cell.summary.mean + *cell.summary.ci95);
    }

    void eachBarIsLabelledWithItsMeanAndChange()
    {
        const Comparison cmp = pipe_comparison();
        HeadlineChart c;
        c.resize(800, 400);
        c.show();
        QVERIFY(QTest::qWaitForWindowExposed(&c));
        c.setComparison(cmp);
        QCoreApplication::processEvents();

        // The reference bar: its mean only. Past it: mean, then the change in wakesim's words.
        QVERIFY(c.valueLabel(0, 0));
        QCOMPARE(c.valueLabel(0, 0)->text(), QStringLiteral("5.200 us"));
        const QString change = QString::fromStdString(format_change(cmp.cell(1, 1).change));
        QVERIFY2(change.startsWith("-26.8% +/- "), qPrintable(change));
        QCOMPARE(c.valueLabel(1, 1)->text(), QStringLiteral("3.000 us\n") + change);
        QVERIFY(!c.valueLabel(2, 0));

        // Above its whisker's top, centred on the bar, inside the plot.
        for (int p = 0; p < 2; ++p) {
            for (int k = 0; k < 2; ++k) {
                const QGraphicsSimpleTextItem* label = c.valueLabel(p, k);
                const QPointF top = c.chart()->mapToPosition(c.whisker(p, k)->at(3), c.whisker(p, k));
                const QRectF box = label->mapRectToParent(label->boundingRect());
                QVERIFY2(box.bottom() <= top.y(), qPrintable(label->text()));
                QVERIFY(std::abs(box.center().x() - top.x()) < 1.0);
                QVERIFY(c.chart()->plotArea().contains(box));
            }
        }
    }

    void oneRunSaysThereIsNoInterval()
    {
        Comparison cmp = pipe_comparison();
        cmp.runs = 1;
        for (ComparisonCell& cell : cmp.cells)
            cell.values.resize(1);
        finish_comparison(cmp);
        for (HeadlineChart::ErrorBars bars : {HeadlineChart::ErrorBars::Stddev, HeadlineChart::ErrorBars::Ci95}) {
            HeadlineChart c;
            c.setErrorBars(bars);
            c.setComparison(cmp);
            QVERIFY2(c.chart()->title().contains("1 run, no interval"), qPrintable(c.chart()->title()));
            QVERIFY2(!c.chart()->title().contains("stddev") && !c.chart()->title().contains("CI"),
                     qPrintable(c.chart()->title()));
            // Bars only: no whisker where there is no spread.
            QCOMPARE(c.chart()->series().size(), 1);
            QCOMPARE(c.bars()->barSets().at(1)->at(0), 3.0);
            QVERIFY(!c.whisker(1, 0));
            QCOMPARE(c.valueLabel(1, 0)->text(), QStringLiteral("3.000 us\n-40.0% n/a"));
        }
    }

    void casesOfDifferentUnitsAreShownRelative()
    {
        Comparison cmp = pipe_comparison();
        for (ComparisonCell& cell : cmp.cells) {
            if (cell.case_label == "pipe-T") {
                cell.metric = "Time";
                cell.unit = "s";
            }
        }
        HeadlineChart c;
        c.setComparison(cmp);
        QVERIFY(c.isRelative());
        QCOMPARE(c.bars()->barSets().at(0)->at(0), 100.0);
        QCOMPARE(c.bars()->barSets().at(0)->at(1), 100.0);
        QCOMPARE(c.bars()->barSets().at(1)->at(0), 100.0 * cmp.cell(1, 0).summary.mean / cmp.cell(0, 0).summary.mean);
        QCOMPARE(c.valueAxis()->titleText(), QStringLiteral("mean (% of baseline)"));

        c.clear();
        QVERIFY(!c.bars());
        QVERIFY(c.chart()->series().isEmpty());
    }
};

}  // namespace wb

QTEST_MAIN(wb::HeadlineChartTest)
#include "headline_chart_test.moc"

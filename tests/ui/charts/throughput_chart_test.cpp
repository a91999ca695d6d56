// SPDX-License-Identifier: Apache-2.0
#include <QChart>
#include <QLineSeries>
#include <QObject>
#include <QSignalSpy>
#include <QTest>
#include <QValueAxis>

#include "charts/throughput_chart.h"
#include "decision/palette.h"

namespace wb {

class ThroughputChartTest : public QObject {
    Q_OBJECT

private slots:
    void oneLinePerPolicyInItsColour()
    {
        ThroughputChart c;
        c.setPolicies({"baseline", "sync-waker-v3"}, {palette::policy_colour(0), palette::policy_colour(1)});
        QCOMPARE(c.seriesCount(), 2);
        QCOMPARE(c.chart()->series().size(), 2);
        QCOMPARE(c.series(0)->name(), QStringLiteral("baseline"));
        QCOMPARE(c.series(1)->pen().color(), palette::policy_colour(1));
        QCOMPARE(c.timeAxis()->titleText(), QStringLiteral("simulated time (ms)"));
        QCOMPARE(c.throughputAxis()->titleText(), QStringLiteral("ops/s"));

        c.setPolicies({"a", "b", "c"}, {});
        QCOMPARE(c.seriesCount(), 3);
        QCOMPARE(c.chart()->series().size(), 3);
        QCOMPARE(c.series(2)->pen().color(), palette::policy_colour(2));
    }

    void appendsTheSamplesGiven()
    {
        ThroughputChart c;
        c.setPolicies({"baseline", "patch"}, {});
        c.addSample(1, 0.002, 125000);
        c.addSample(1, 0.004, 131000);
        c.addSample(0, 0.004, 99000);
        c.addSample(7, 0.004, 1);  // no such policy: ignored
        QCOMPARE(c.series(1)->count(), 2);
        QCOMPARE(c.series(1)->at(1), QPointF(4.0, 131000));
        QCOMPARE(c.series(0)->count(), 1);
        QCOMPARE(c.series(0)->at(0), QPointF(4.0, 99000));
        QVERIFY(c.timeAxis()->max() >= 4.0);
        QVERIFY(c.throughputAxis()->max() >= 131000);

        c.clear();
        QCOMPARE(c.series(0)->count(), 0);
        QCOMPARE(c.series(1)->count(), 0);
    }

    void rescalesRarelyAndStaysBounded()
    {
        ThroughputChart c;
        c.setPolicies({"baseline"}, {});
        QSignalSpy x_changes(c.timeAxis(), &QValueAxis::rangeChanged);
        QSignalSpy y_changes(c.throughputAxis(), &QValueAxis::rangeChanged);
        const int n = 3 * ThroughputChart::kMaxPoints;
        for (int i = 1; i <= n; ++i)
            c.addSample(0, i * 1e-4, 1000.0 * i);
        QVERIFY2(x_changes.count() < 20, qPrintable(QString::number(x_changes.count())));
        QVERIFY2(y_changes.count() < 20, qPrintable(QString::number(y_changes.count())));
        QVERIFY(c.series(0)->count() <= ThroughputChart::kMaxPoints);
        QVERIFY(c.series(0)->count() >= ThroughputChart::kMaxPoints / 2);
        QCOMPARE(c.series(0)->at(c.series(0)->count() - 1), QPointF(n * 1e-1, 1000.0 * n));
        QVERIFY(c.timeAxis()->max() >= n * 1e-1);
    }
};

}  // namespace wb

QTEST_MAIN(wb::ThroughputChartTest)
#include "throughput_chart_test.moc"

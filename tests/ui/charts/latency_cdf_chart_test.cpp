// SPDX-License-Identifier: Apache-2.0
#include <QChart>
#include <QLineSeries>
#include <QObject>
#include <QTest>
#include <QValueAxis>

#include "charts/latency_cdf_chart.h"
#include "decision/palette.h"
#include "metrics/histogram.h"

namespace wb {

class LatencyCdfChartTest : public QObject {
    Q_OBJECT

private slots:
    void theCurveEndsAtTheLargestLatency()
    {
        Histogram h;
        for (int i = 1; i <= 1000; ++i)
            h.record(1000 * i);  // 1 us .. 1 ms
        const QList<QPointF> points = LatencyCdfChart::cdf_points(h);
        QVERIFY(points.size() > 50);
        QCOMPARE(points.front().y(), 0.0);
        QCOMPARE(points.back().x(), static_cast<double>(h.percentile(1.0)) / 1e3);
        QCOMPARE(points.back().y(), 1.0);
        for (qsizetype i = 1; i < points.size(); ++i) {
            QVERIFY(points[i].x() > points[i - 1].x());
            QVERIFY(points[i].y() > points[i - 1].y());
        }
        // The median within the histogram's 1/128 precision.
        QVERIFY(std::abs(h.percentile(0.5) / 1e3 - 500) < 500 / 64.0);
    }

    void oneCurvePerPolicyOnAnAxisInMicroseconds()
    {
        LatencyCdfChart c;
        c.setPolicies({"baseline", "sync-waker-v3"}, {palette::policy_colour(0), palette::policy_colour(1)});
        QCOMPARE(c.seriesCount(), 2);
        QCOMPARE(c.chart()->series().size(), 2);
        QCOMPARE(c.series(1)->pen().color(), palette::policy_colour(1));

        Histogram narrow;
        for (int i = 0; i < 100; ++i)
            narrow.record(5000 + 10 * i);  // 5.0 .. 5.99 us
        c.setDistribution(1, narrow);
        QCOMPARE(c.series(0)->count(), 0);
        QCOMPARE(c.series(1)->points(), LatencyCdfChart::cdf_points(narrow));
        QVERIFY(!c.isLogScale());
        QCOMPARE(c.latencyAxis()->titleText(), QStringLiteral("wakeup latency (\u00b5s)"));
        QCOMPARE(c.fractionAxis()->titleText(), QStringLiteral("fraction of wakeups (cumulative)"));
        QCOMPARE(c.chart()->axes(Qt::Horizontal).size(), 1);

        // Three decades: the axis turns logarithmic, the curves stay.
        Histogram wide;
        for (int i = 0; i < 100; ++i)
            wide.record(i < 90 ? 2000 : 4'000'000);
        c.setDistribution(0, wide);
        QVERIFY(c.isLogScale());
        QCOMPARE(c.chart()->axes(Qt::Horizontal).size(), 1);
        QCOMPARE(c.chart()->axes(Qt::Horizontal).front(), c.latencyAxis());
        QCOMPARE(c.series(0)->attachedAxes().size(), 2);
        QVERIFY(c.series(0)->attachedAxes().contains(c.latencyAxis()));
        QCOMPARE(c.series(0)->at(c.series(0)->count() - 1).y(), 1.0);
        QCOMPARE(c.latencyAxis()->titleText(), QStringLiteral("wakeup latency (\u00b5s)"));

        // An empty distribution clears the curve, and the axis goes back.
        c.setDistribution(0, Histogram{});
        QCOMPARE(c.series(0)->count(), 0);
        QVERIFY(!c.isLogScale());
    }
};

}  // namespace wb

QTEST_MAIN(wb::LatencyCdfChartTest)
#include "latency_cdf_chart_test.moc"

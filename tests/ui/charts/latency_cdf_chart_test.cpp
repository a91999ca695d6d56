// SPDX-License-Identifier: Apache-2.0
#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
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
    void theCurveIsTheHistogramsStepFunction()
    {
        Histogram h;
        for (int i = 1; i <= 1000; ++i)
            h.record(1000 * i);  // 1 us .. 1 ms
        const QList<QPointF> points = LatencyCdfChart::cdf_points(h);
        const std::vector<CdfStep> steps = h.cdf_steps();
        QVERIFY(steps.size() > 50);
        QCOMPARE(points.size(), 2 * static_cast<qsizetype>(steps.size()));
        QCOMPARE(points.front(), QPointF(static_cast<double>(steps.front().value) / 1e3, 0.0));
        QCOMPARE(points.back().x(), static_cast<double>(h.percentile(1.0)) / 1e3);
        QCOMPARE(points.back().y(), 1.0);
        for (qsizetype i = 0; i < points.size(); i += 2) {
            // Vertical at the step: the two points share x and climb.
            const CdfStep& step = steps[static_cast<std::size_t>(i / 2)];
            QCOMPARE(points[i].x(), static_cast<double>(step.value) / 1e3);
            QCOMPARE(points[i + 1].x(), points[i].x());
            QCOMPARE(points[i + 1].y(), step.fraction);
            QVERIFY(points[i + 1].y() > points[i].y());
            // Flat to the next step.
            if (i + 2 < points.size()) {
                QCOMPARE(points[i + 2].y(), points[i + 1].y());
                QVERIFY(points[i + 2].x() > points[i + 1].x());
            }
        }
    }

    void oneValueIsOneVerticalStep()
    {
        Histogram h;
        for (int i = 0; i < 40; ++i)
            h.record(7300);
        QCOMPARE(LatencyCdfChart::cdf_points(h), QList<QPointF>({{7.3, 0.0}, {7.3, 1.0}}));

        // The axis is about that value, not 0 (or 1 ns) up to it.
        LatencyCdfChart c;
        c.setPolicies({"baseline"}, {palette::policy_colour(0)});
        c.setDistribution(0, h);
        QVERIFY(!c.isLogScale());
        const auto* axis = static_cast<const QValueAxis*>(c.latencyAxis());
        QVERIFY2(axis->min() >= 5 && axis->min() < 7.3, qPrintable(QString::number(axis->min())));
        QVERIFY2(axis->max() > 7.3 && axis->max() <= 10, qPrintable(QString::number(axis->max())));
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
        QCOMPARE(c.fractionAxis()->titleText(), QStringLiteral("fraction of wakeups"));
        // Starts near 5 us, not at 0.
        const auto* linear = static_cast<const QValueAxis*>(c.latencyAxis());
        QVERIFY2(linear->min() >= 4 && linear->min() <= 5, qPrintable(QString::number(linear->min())));
        QVERIFY(linear->max() >= 5.99);
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
        // From near the smallest step (2 us), not from 1 ns or the decade below.
        const auto* log_axis = static_cast<const QLogValueAxis*>(c.latencyAxis());
        QVERIFY2(log_axis->min() > 1 && log_axis->min() <= 2, qPrintable(QString::number(log_axis->min())));
        QVERIFY(log_axis->max() >= 4000);
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

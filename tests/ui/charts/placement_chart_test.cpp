// SPDX-License-Identifier: Apache-2.0
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QObject>
#include <QStackedBarSeries>
#include <QTest>
#include <QValueAxis>

#include "charts/placement_chart.h"
#include "decision/palette.h"
#include "metrics/comparison.h"

namespace wb {

class PlacementChartTest : public QObject {
    Q_OBJECT

private slots:
    void oneSegmentPerDistanceClass()
    {
        PlacementChart c;
        c.setPolicies({"baseline", "sync-waker-v3"}, {});
        QCOMPARE(c.policyAxis()->categories(), QStringList({"baseline", "sync-waker-v3"}));
        QCOMPARE(c.bars()->count(), static_cast<int>(kDistanceClassCount));
        QCOMPARE(c.percentAxis()->titleText(), QStringLiteral("wakeups (%)"));
        QCOMPARE(c.percentAxis()->max(), 100.0);
        QCOMPARE(c.classSet(DistanceClass::OtherLlc)->label(), QStringLiteral("other llc"));
        QCOMPARE(c.classSet(DistanceClass::OtherLlc)->color(), palette::distance_colour(DistanceClass::OtherLlc));

        c.setPlacement(1, {0.1, 0.2, 0.0, 0.3, 0.4, 0.0});
        QCOMPARE(c.classSet(DistanceClass::SameCpu)->at(1), 10.0);
        QCOMPARE(c.classSet(DistanceClass::Llc)->at(1), 30.0);
        QCOMPARE(c.classSet(DistanceClass::OtherLlc)->at(1), 40.0);
        QCOMPARE(c.classSet(DistanceClass::Llc)->at(0), 0.0);
        double sum = 0;
        for (std::size_t k = 0; k < kDistanceClassCount; ++k)
            sum += c.classSet(static_cast<DistanceClass>(k))->at(1);
        QCOMPARE(sum, 100.0);
    }

    void aComparisonGivesABarPerPolicyAndCase()
    {
        Comparison cmp;
        cmp.cases = {"pipe", "hackbench"};
        cmp.policies = {"baseline", "sis-sync-stack"};
        for (std::size_t p = 0; p < 2; ++p) {
            for (std::size_t k = 0; k < 2; ++k) {
                ComparisonCell cell;
                cell.placement[static_cast<std::size_t>(DistanceClass::SmtSibling)] = 0.25 * static_cast<double>(p + k);
                cell.placement[static_cast<std::size_t>(DistanceClass::Llc)] = 1 - 0.25 * static_cast<double>(p + k);
                cmp.cells.push_back(cell);
            }
        }
        PlacementChart c;
        c.setComparison(cmp);
        QCOMPARE(c.policyAxis()->categories(), QStringList({"baseline (pipe)", "baseline (hackbench)",
                                                            "sis-sync-stack (pipe)", "sis-sync-stack (hackbench)"}));
        QCOMPARE(c.classSet(DistanceClass::SmtSibling)->at(3), 50.0);
        QCOMPARE(c.classSet(DistanceClass::Llc)->at(3), 50.0);
        QCOMPARE(c.classSet(DistanceClass::SmtSibling)->at(1), 25.0);
        QCOMPARE(c.classSet(DistanceClass::Llc)->at(0), 100.0);
    }
};

}  // namespace wb

QTEST_MAIN(wb::PlacementChartTest)
#include "placement_chart_test.moc"

// SPDX-License-Identifier: Apache-2.0
#include <QBarCategoryAxis>
#include <QLineSeries>
#include <QObject>
#include <QTest>

#include "charts/charts_panel.h"
#include "charts/headline_chart.h"
#include "charts/latency_cdf_chart.h"
#include "charts/placement_chart.h"
#include "charts/throughput_chart.h"
#include "decision/palette.h"

namespace wb {

class ChartsPanelTest : public QObject {
    Q_OBJECT

private slots:
    void fourTabsShareThePolicies()
    {
        ChartsPanel panel;
        QCOMPARE(panel.count(), 4);
        QCOMPARE(panel.widget(0), panel.throughput());
        QCOMPARE(panel.widget(1), panel.latency());
        QCOMPARE(panel.widget(2), panel.headline());
        QCOMPARE(panel.widget(3), panel.placement());

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
};

}  // namespace wb

QTEST_MAIN(wb::ChartsPanelTest)
#include "charts_panel_test.moc"

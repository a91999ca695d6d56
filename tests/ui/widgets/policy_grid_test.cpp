// SPDX-License-Identifier: Apache-2.0
//
// A grid's header at every size a grid gets: the headline figure is shown
// whole, the policy's name takes the rest (elided, whole in its tooltip),
// and the machine's node and LLC names stay readable from 8 to 512 CPUs.
#include <QApplication>
#include <QFontInfo>
#include <QLabel>
#include <QLayout>
#include <QObject>
#include <QTest>

#include "io/topology_library.h"
#include "session/run_snapshot.h"
#include "topology/machine.h"
#include "views/topology_items.h"
#include "views/topology_scene.h"
#include "views/topology_view.h"
#include "widgets/policy_grid.h"

namespace wb {

namespace {

const QString kLongSpec = QStringLiteral("sync-waker-v3:smt_check=off,reciprocal=off,waker_alone=off");

RunSnapshot snapshot()
{
    RunSnapshot s;
    s.headline.name = "usecs/op";
    s.headline.value = 3.957923;
    return s;
}

int titled_boxes(const TopologyScene& scene)
{
    int n = 0;
    for (const TopoBoxItem* box : scene.boxes())
        n += box->titled() ? 1 : 0;
    return n;
}

}  // namespace

class PolicyGridTest : public QObject {
    Q_OBJECT

private slots:
    void aLongNameGivesWayToTheFigure()
    {
        PolicyGrid grid(1, kLongSpec, Qt::red);
        grid.resize(320, 300);
        grid.show();
        QVERIFY(QTest::qWaitForWindowExposed(&grid));
        grid.showFigures(snapshot());
        auto* figures = grid.findChild<QLabel*>(QStringLiteral("policyFigures"));
        auto* name = grid.findChild<QWidget*>(QStringLiteral("policyName"));
        QCOMPARE(figures->text(), QStringLiteral("usecs/op 3.958"));
        // Whole: the label is as wide as its text and inside the grid, once laid out.
        QTRY_VERIFY(figures->width() >= figures->fontMetrics().horizontalAdvance(figures->text()));
        QVERIFY(figures->geometry().right() <= grid.width());
        QVERIFY(!figures->geometry().intersects(name->geometry()));
        QVERIFY2(grid.shownName().endsWith(QStringLiteral("…")), qPrintable(grid.shownName()));
        QVERIFY(grid.shownName().startsWith(QStringLiteral("sync")));
        QCOMPARE(name->toolTip(), kLongSpec);
        // Wide enough, the name is whole.
        grid.resize(1200, 300);
        QTRY_COMPARE(grid.shownName(), kLongSpec);
    }

    void nodeAndLlcNamesStayReadableFrom8To512Cpus_data()
    {
        QTest::addColumn<QString>("machine");
        QTest::addColumn<QSize>("size");
        QTest::newRow("teaching-8 small") << QStringLiteral("teaching-8") << QSize(260, 200);
        QTest::newRow("spr-224") << QStringLiteral("intel-spr-8480-2s") << QSize(280, 420);
        QTest::newRow("512") << QStringLiteral("synthetic:node=4,llc=4,core=16,smt=2") << QSize(420, 420);
        QTest::newRow("512 large") << QStringLiteral("synthetic:node=4,llc=4,core=16,smt=2") << QSize(1800, 1000);
    }

    void nodeAndLlcNamesStayReadableFrom8To512Cpus()
    {
        QFETCH(QString, machine);
        QFETCH(QSize, size);
        TopologyView view;
        view.resize(size);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setMachine(resolve_machine(machine.toStdString()));
        const std::vector<TopologyView::OverlaidTitle> titles = view.overlaidTitles();
        if (TopoBoxItem::titleReadable(view.zoom(), QFontInfo(view.font()).pixelSize())) {
            // The scene's own titles are big enough; nothing is drawn over them.
            QVERIFY(titles.empty());
            return;
        }
        QCOMPARE(static_cast<int>(titles.size()), titled_boxes(*view.topologyScene()));
        for (std::size_t i = 0; i < titles.size(); ++i) {
            QVERIFY2(titles[i].text.size() >= 4, qPrintable(titles[i].text));
            QVERIFY(titles[i].full.startsWith(titles[i].text.chopped(titles[i].text.endsWith(QStringLiteral("…")))));
            QVERIFY(titles[i].rect.height() >= QFontMetricsF(view.font()).height());
            for (std::size_t j = 0; j < i; ++j)
                QVERIFY(!titles[i].rect.intersects(titles[j].rect));
        }
    }
};

}  // namespace wb

QTEST_MAIN(wb::PolicyGridTest)
#include "policy_grid_test.moc"

// SPDX-License-Identifier: Apache-2.0
#include <QGraphicsItem>
#include <QImage>
#include <QObject>
#include <QPainter>
#include <QTest>
#include <vector>

#include "io/topology_library.h"
#include "topology/machine.h"
#include "views/topology_items.h"
#include "views/topology_scene.h"

namespace wb {
namespace {

QRectF box_rect(const TopologyScene& scene, const QString& title)
{
    for (const TopoBox& box : scene.layout().boxes)
        if (box.title() == title)
            return box.rect;
    return {};
}

// Pixels darker than any fill or border: only text is that dark.
int dark_pixels(TopologyScene& scene, CpuId cpu, double scale)
{
    const QRectF source = scene.layout().cells[static_cast<std::size_t>(cpu)];
    QImage image((source.size() * scale).toSize(), QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    scene.render(&painter, QRectF(image.rect()), source);
    painter.end();
    int dark = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            dark += qGray(image.pixel(x, y)) < 100;
    return dark;
}

}  // namespace

class TopologySceneTest : public QObject {
    Q_OBJECT

private slots:
    void oneCellPerCpuOnEveryShippedMachine()
    {
        const auto shipped = list_shipped_topologies();
        QVERIFY(!shipped.empty());
        for (const ShippedTopology& t : shipped) {
            const Machine m = resolve_machine(t.name);
            TopologyScene scene(m);
            std::vector<int> seen(static_cast<std::size_t>(m.nr_cpus()), 0);
            int cells = 0;
            for (QGraphicsItem* item : scene.items()) {
                if (item->type() != CpuCellItem::Type)
                    continue;
                ++cells;
                const CpuId cpu = static_cast<CpuCellItem*>(item)->cpu();
                QVERIFY2(cpu >= 0 && cpu < m.nr_cpus(), t.name.c_str());
                ++seen[static_cast<std::size_t>(cpu)];
            }
            QVERIFY2(cells == m.nr_cpus(), qPrintable(QStringLiteral("%1: %2 cells for %3 CPUs")
                                                          .arg(QString::fromStdString(t.name))
                                                          .arg(cells)
                                                          .arg(m.nr_cpus())));
            for (int cpu = 0; cpu < m.nr_cpus(); ++cpu)
                QVERIFY2(seen[static_cast<std::size_t>(cpu)] == 1,
                         qPrintable(QStringLiteral("%1: CPU %2").arg(QString::fromStdString(t.name)).arg(cpu)));
        }
    }

    void findsTheCpuUnderAPoint()
    {
        TopologyScene scene(resolve_machine("synthetic:llc=2,core=2,smt=2"));
        for (CpuId cpu = 0; cpu < 8; ++cpu)
            QCOMPARE(scene.cpuAt(scene.layout().cells[static_cast<std::size_t>(cpu)].center()), cpu);
        QCOMPARE(scene.cpuAt(scene.layout().bounds.topLeft() + QPointF(2, 2)), kNoCpu);  // a box's corner
    }

    void marksOneCurrentCpu()
    {
        TopologyScene scene(resolve_machine("synthetic:llc=2,core=2,smt=2"));
        scene.setCurrentCpu(5);
        scene.setCurrentCpu(3);
        for (CpuCellItem* cell : scene.cells())
            QCOMPARE(cell->isCurrent(), cell->cpu() == 3);
        scene.setCurrentCpu(kNoCpu);
        QCOMPARE(scene.currentCpu(), kNoCpu);
        QVERIFY(!scene.cell(3)->isCurrent());
    }

    void outlinesASpanByTheBoxesThatMakeItUp()
    {
        TopologyScene scene(resolve_machine("synthetic:llc=2,core=2,smt=2"));
        scene.setHighlightedSpan(CpuMask::range(8, 4, 7));
        for (CpuCellItem* cell : scene.cells())
            QCOMPARE(cell->inSpan(), cell->cpu() >= 4);
        QCOMPARE(scene.spanOutline().size(), std::size_t{1});
        QCOMPARE(scene.spanOutline().front(), box_rect(scene, QStringLiteral("LLC 1")));

        scene.setHighlightedSpan(CpuMask::range(8, 0, 7));
        QCOMPARE(scene.spanOutline().size(), std::size_t{1});
        QCOMPARE(scene.spanOutline().front(), scene.layout().boxes.front().rect);

        // No box holds exactly {3, 4}: each cell is outlined.
        scene.setHighlightedSpan(CpuMask::of(8, {3, 4}));
        QCOMPARE(scene.spanOutline().size(), std::size_t{2});
        QCOMPARE(scene.spanOutline()[0], scene.layout().cells[3]);

        scene.setHighlightedSpan(CpuMask());
        QVERIFY(scene.spanOutline().empty());
        for (CpuCellItem* cell : scene.cells())
            QVERIFY(!cell->inSpan());
    }

    void marksLowerCapacityAndSpeed()
    {
        TopologyScene scene(resolve_machine("synthetic:core=4,capacity=446x2/1024x2"));
        QVERIFY(scene.cell(0)->lowerCapacity());
        QCOMPARE(scene.cell(0)->note(), QStringLiteral("cap 446"));
        QVERIFY(!scene.cell(3)->lowerCapacity());
        QCOMPARE(scene.cell(3)->note(), QString());

        TopologyScene smt(resolve_machine("synthetic:core=2,smt=2,smt_speed=1/0.9"));
        QCOMPARE(smt.cell(0)->note(), QString());
        QCOMPARE(smt.cell(1)->note(), QStringLiteral("×0.90"));
    }

    void hidesLabelsWhenTooSmallToRead()
    {
        TopologyScene scene(resolve_machine("synthetic:core=4"));
        QVERIFY(dark_pixels(scene, 2, 2.0) > 20);  // "2" is drawn
        QCOMPARE(dark_pixels(scene, 2, 0.3), 0);   // a 14 x 10 pixel cell: no text
    }

    void tooltipsNameTheCpu()
    {
        TopologyScene scene(resolve_machine("synthetic:llc=2,core=2,smt=2"));
        const QString tip = scene.cell(5)->toolTip();
        QVERIFY2(tip.contains(QStringLiteral("CPU 5")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("LLC 1")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("thread 1")), qPrintable(tip));
    }
};

}  // namespace wb

QTEST_MAIN(wb::TopologySceneTest)
#include "topology_scene_test.moc"

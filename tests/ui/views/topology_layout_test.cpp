// SPDX-License-Identifier: Apache-2.0
#include <QObject>
#include <QSet>
#include <QTest>
#include <string>

#include "io/topology_library.h"
#include "topology/machine.h"
#include "views/topology_layout.h"

namespace wb {
namespace {

TopologyLayout layout_of(const std::string& spec, double aspect = 1.2)
{
    return layout_topology(resolve_machine(spec), aspect);
}

int boxes_at_level(const TopologyLayout& layout, TopoLevel level)
{
    int n = 0;
    for (const TopoBox& box : layout.boxes)
        for (TopoLevel l : box.levels)
            n += l == level;
    return n;
}

// Every CPU has one cell, no two cells overlap, each cell sits inside its box
// and each box inside its parent, and each box's span is exactly its cells.
void check_geometry(const Machine& m, const TopologyLayout& layout)
{
    QCOMPARE(static_cast<int>(layout.cells.size()), m.nr_cpus());
    for (int a = 0; a < m.nr_cpus(); ++a) {
        const QRectF& ra = layout.cells[static_cast<std::size_t>(a)];
        QVERIFY2(!ra.isEmpty(), qPrintable(QStringLiteral("CPU %1 has no cell").arg(a)));
        QVERIFY(layout.bounds.contains(ra));
        for (int b = a + 1; b < m.nr_cpus(); ++b)
            QVERIFY2(!ra.intersects(layout.cells[static_cast<std::size_t>(b)]),
                     qPrintable(QStringLiteral("cells of CPU %1 and %2 overlap").arg(a).arg(b)));
        const int parent = layout.cell_parent[static_cast<std::size_t>(a)];
        if (parent >= 0) {
            const TopoBox& box = layout.boxes[static_cast<std::size_t>(parent)];
            QVERIFY(box.rect.contains(ra));
            QVERIFY(box.span.test(a));
        }
    }
    for (const TopoBox& box : layout.boxes) {
        QVERIFY(!box.span.empty());
        if (box.parent >= 0) {
            const TopoBox& up = layout.boxes[static_cast<std::size_t>(box.parent)];
            QVERIFY(up.rect.contains(box.rect));
            QVERIFY(box.span.is_subset_of(up.span));
            QVERIFY(box.span != up.span);  // an identical box inside a box is merged away
        }
    }
}

}  // namespace

class TopologyLayoutTest : public QObject {
    Q_OBJECT

private slots:
    void shippedMachinesHaveSoundGeometry()
    {
        const auto shipped = list_shipped_topologies();
        QVERIFY(!shipped.empty());
        for (const ShippedTopology& t : shipped) {
            const Machine m = resolve_machine(t.name);
            check_geometry(m, layout_topology(m, 1.0));
            if (QTest::currentTestFailed())
                QFAIL(qPrintable(QString::fromStdString("in " + t.name)));
        }
    }

    void coincidingContainersBecomeOneTitledBox()
    {
        // One node, one package: a single top box titled with both; two LLCs
        // of two SMT-2 cores below it.
        const TopologyLayout layout = layout_of("synthetic:llc=2,core=2,smt=2");
        QCOMPARE(layout.boxes.front().title(), QStringLiteral("node 0 · package 0"));
        QCOMPARE(layout.boxes.front().parent, -1);
        QCOMPARE(boxes_at_level(layout, TopoLevel::Llc), 2);
        QCOMPARE(boxes_at_level(layout, TopoLevel::Core), 4);
        QCOMPARE(layout.boxes[1].title(), QStringLiteral("LLC 0"));
        QVERIFY(layout.boxes[1].has_header());
        QCOMPARE(QString::fromStdString(layout.boxes[1].span.to_cpulist()), QStringLiteral("0-3"));
    }

    void singleCpuContainersAreNotDrawn()
    {
        // No SMT, one core per cluster: cores and clusters hold one CPU each.
        const TopologyLayout layout = layout_of("synthetic:core=6");
        QCOMPARE(static_cast<int>(layout.boxes.size()), 1);
        QCOMPARE(layout.boxes.front().title(), QStringLiteral("node 0 · package 0 · LLC 0"));
        for (int parent : layout.cell_parent)
            QCOMPARE(parent, 0);
    }

    void clustersOfSeveralCoresAreDrawn()
    {
        const TopologyLayout layout = layout_of("synthetic:cluster=4,core=2");
        QCOMPARE(boxes_at_level(layout, TopoLevel::Cluster), 4);
        QCOMPARE(boxes_at_level(layout, TopoLevel::Core), 0);
        QVERIFY(!layout.boxes[1].has_header());
    }

    void threadMajorSiblingsShareACoreBox()
    {
        const TopologyLayout layout = layout_of("synthetic:core=4,smt=2,numbering=thread-major");
        QCOMPARE(layout.cell_parent[0], layout.cell_parent[4]);
        QVERIFY(layout.cell_parent[0] != layout.cell_parent[1]);
        const QRectF a = layout.cells[0], b = layout.cells[4];
        QCOMPARE(a.top(), b.top());  // siblings side by side
    }

    void rowsWrapWithoutARaggedLastRow()
    {
        // 64 SMT-2 cores in one LLC shown in a wide view: 8 rows of 8, rather
        // than 7 columns and a last row holding one core.
        const TopologyLayout layout = layout_of("synthetic:core=64,smt=2", 2.25);
        QSet<qreal> columns, rows;
        for (const TopoBox& box : layout.boxes)
            if (box.levels.back() == TopoLevel::Core) {
                columns.insert(box.rect.left());
                rows.insert(box.rect.top());
            }
        QCOMPARE(columns.size(), 8);
        QCOMPARE(rows.size(), 8);
    }

    void shapeFollowsTheView()
    {
        for (double target : {0.5, 1.0, 2.0}) {
            const TopologyLayout layout = layout_of("synthetic:core=64,smt=2", target);
            const double aspect = layout.bounds.width() / layout.bounds.height();
            QVERIFY2(aspect > target / 1.5 && aspect < target * 1.5,
                     qPrintable(QStringLiteral("target %1, got %2").arg(target).arg(aspect)));
        }
    }

    void nodesAreSeparateTopBoxes()
    {
        const TopologyLayout layout = layout_of("synthetic:node=2,core=4");
        int tops = 0;
        for (const TopoBox& box : layout.boxes)
            tops += box.parent == -1;
        QCOMPARE(tops, 2);
        QCOMPARE(layout.boxes.back().title(), QStringLiteral("node 1 · package 1 · LLC 1"));
    }
};

}  // namespace wb

QTEST_GUILESS_MAIN(wb::TopologyLayoutTest)
#include "topology_layout_test.moc"

// SPDX-License-Identifier: Apache-2.0
#include "views/topology_scene.h"

#include <QBrush>
#include <QColor>
#include <QGraphicsPathItem>
#include <QPainterPath>
#include <QPen>
#include <QStringList>

#include "topology/machine.h"
#include "views/topology_items.h"

namespace wb {

namespace {

constexpr double kMargin = 12;
constexpr double kCellZ = 100;
constexpr double kOutlineZ = 200;
const QColor kOutline(0xe6, 0x9f, 0x00);  // Okabe-Ito orange
const QColor kBackground(0xfb, 0xfb, 0xfc);

QString cell_tooltip(const CpuTopo& c)
{
    return QStringLiteral(
               "<b>CPU %1</b><br>node %2 · package %3 · LLC %4 · cluster %5 · core %6 · thread %7"
               "<br>capacity %8 · speed %9 · asym_prio %10")
        .arg(c.cpu)
        .arg(c.node)
        .arg(c.package)
        .arg(c.llc)
        .arg(c.cluster)
        .arg(c.core)
        .arg(c.thread)
        .arg(c.capacity)
        .arg(c.speed, 0, 'f', 2)
        .arg(c.asym_prio);
}

QString box_tooltip(const TopoBox& box)
{
    QStringList parts;
    for (std::size_t i = 0; i < box.levels.size(); ++i)
        parts << QStringLiteral("%1 %2").arg(level_name(box.levels[i])).arg(box.indexes[i]);
    return QStringLiteral("%1<br>CPUs %2 (%3)")
        .arg(parts.join(QStringLiteral(" · ")), QString::fromStdString(box.span.to_cpulist()))
        .arg(box.span.weight());
}

}  // namespace

TopologyScene::TopologyScene(const Machine& machine, double target_aspect, QObject* parent)
    : QGraphicsScene(parent), layout_(layout_topology(machine, target_aspect)), span_(machine.nr_cpus())
{
    setBackgroundBrush(kBackground);
    // Items never move; a BSP index only costs time on a static scene this small.
    setItemIndexMethod(QGraphicsScene::NoIndex);

    boxes_.reserve(layout_.boxes.size());
    for (const TopoBox& box : layout_.boxes) {
        auto* item = new TopoBoxItem(box);
        item->setPos(box.rect.topLeft());
        item->setZValue(box.depth);
        item->setToolTip(box_tooltip(box));
        addItem(item);
        boxes_.push_back(item);
    }
    cells_.reserve(machine.cpus.size());
    for (const CpuTopo& c : machine.cpus) {
        const QRectF& r = layout_.cells[static_cast<std::size_t>(c.cpu)];
        auto* item = new CpuCellItem(c.cpu, r.size(), c.capacity, c.speed);
        item->setPos(r.topLeft());
        item->setZValue(kCellZ);
        item->setToolTip(cell_tooltip(c));
        addItem(item);
        cells_.push_back(item);
    }
    outline_ = new QGraphicsPathItem;
    QPen pen(kOutline, 3);
    pen.setCosmetic(true);  // stays visible however far the view zooms out
    pen.setJoinStyle(Qt::RoundJoin);
    outline_->setPen(pen);
    outline_->setBrush(Qt::NoBrush);
    outline_->setZValue(kOutlineZ);
    addItem(outline_);

    setSceneRect(layout_.bounds.adjusted(-kMargin, -kMargin, kMargin, kMargin));
}

TopologyScene::~TopologyScene() = default;

CpuCellItem* TopologyScene::cell(CpuId cpu) const
{
    if (cpu < 0 || cpu >= nrCpus())
        return nullptr;
    return cells_[static_cast<std::size_t>(cpu)];
}

CpuId TopologyScene::cpuAt(const QPointF& scene_pos) const
{
    for (QGraphicsItem* item : items(scene_pos))
        if (item->type() == CpuCellItem::Type)
            return static_cast<CpuCellItem*>(item)->cpu();
    return kNoCpu;
}

void TopologyScene::setCurrentCpu(CpuId cpu)
{
    if (CpuCellItem* old = cell(current_))
        old->setCurrent(false);
    current_ = cell(cpu) ? cpu : kNoCpu;
    if (CpuCellItem* now = cell(current_))
        now->setCurrent(true);
}

void TopologyScene::setHighlightedSpan(const CpuMask& span)
{
    span_ = CpuMask(nrCpus());
    span.for_each([&](CpuId cpu) {
        if (cpu < nrCpus())
            span_.set(cpu);
    });
    for (CpuCellItem* c : cells_)
        c->setInSpan(span_.test(c->cpu()));

    // A box is outlined when the span holds all of it and not all of its
    // parent; a cell when its parent box is not outlined or covered.
    outline_rects_.clear();
    std::vector<bool> covered(layout_.boxes.size(), false);
    for (std::size_t i = 0; i < layout_.boxes.size(); ++i) {
        const TopoBox& box = layout_.boxes[i];
        covered[i] = !span_.empty() && box.span.is_subset_of(span_);
        const bool parent_covered = box.parent >= 0 && covered[static_cast<std::size_t>(box.parent)];
        if (covered[i] && !parent_covered)
            outline_rects_.push_back(box.rect);
    }
    span_.for_each([&](CpuId cpu) {
        const int parent = layout_.cell_parent[static_cast<std::size_t>(cpu)];
        if (parent < 0 || !covered[static_cast<std::size_t>(parent)])
            outline_rects_.push_back(layout_.cells[static_cast<std::size_t>(cpu)]);
    });

    QPainterPath path;
    for (const QRectF& r : outline_rects_)
        path.addRoundedRect(r.adjusted(-1.5, -1.5, 1.5, 1.5), 6, 6);
    outline_->setPath(path);
}

}  // namespace wb

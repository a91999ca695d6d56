// SPDX-License-Identifier: Apache-2.0
#include "views/topology_scene.h"

#include <QBrush>
#include <QColor>
#include <QGraphicsPathItem>
#include <QGraphicsSceneHelpEvent>
#include <QPainterPath>
#include <QPen>
#include <QStringList>
#include <QToolTip>
#include <array>

#include "sched/decision.h"
#include "topology/machine.h"
#include "views/decision_overlay.h"
#include "views/topology_items.h"

namespace wb {

namespace {

constexpr double kMargin = 12;
constexpr double kCellZ = 100;
constexpr double kOutlineZ = 200;
constexpr double kOverlayZ = 300;
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
    : QGraphicsScene(parent),
      layout_(layout_topology(machine, target_aspect)),
      span_(machine.nr_cpus()),
      machine_(machine)
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

    overlay_ = new DecisionOverlay(layout_.cells);
    overlay_->setZValue(kOverlayZ);
    addItem(overlay_);

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

namespace wb {

QColor TopologyScene::groupColour(int group)
{
    // Paul Tol's "muted" scheme: distinct from each other and from the
    // Okabe-Ito policy colours of the frames.
    static const std::array<QColor, 9> colours{
        QColor(0x88, 0x22, 0x55), QColor(0x44, 0xaa, 0x99), QColor(0xdd, 0xcc, 0x77),
        QColor(0x33, 0x22, 0x88), QColor(0xcc, 0x66, 0x77), QColor(0x11, 0x77, 0x33),
        QColor(0x88, 0xcc, 0xee), QColor(0x99, 0x99, 0x33), QColor(0xaa, 0x44, 0x99),
    };
    const std::size_t i = static_cast<std::size_t>(group < 0 ? -group : group) % colours.size();
    return colours[i];
}

void TopologyScene::setDark(bool dark)
{
    setBackgroundBrush(dark ? QColor(0x2b, 0x30, 0x36) : kBackground);
    for (TopoBoxItem* box : boxes_)
        box->setDark(dark);
}

void TopologyScene::applySnapshot(const std::vector<CpuSnapshot>& cpus)
{
    const int levels = std::max(1, static_cast<int>(machine_.idle_states.size()));
    for (const CpuSnapshot& c : cpus) {
        CpuCellItem* item = cell(c.cpu);
        if (!item)
            continue;
        CellLive live;
        live.idle = c.idle;
        live.idle_depth = c.idle_state >= 0 ? c.idle_state + 1 : 0;
        live.idle_levels = levels;
        live.nr_running = c.nr_running;
        live.has_curr = c.curr != kNoTask;
        if (live.has_curr)
            live.curr_colour = groupColour(c.curr_group);
        item->setLive(live);
    }
    live_ = cpus;
}

void TopologyScene::clearSnapshot()
{
    for (CpuCellItem* c : cells_)
        c->clearLive();
    live_.clear();
    names_.clear();
    overlay_->clearRecord();
    overlay_->setKernelCpu(kNoCpu);
}

QString TopologyScene::liveToolTip(CpuId cpu) const
{
    if (cpu < 0 || cpu >= nrCpus())
        return {};
    QString text = cell_tooltip(machine_.cpus[static_cast<std::size_t>(cpu)]);
    if (static_cast<std::size_t>(cpu) >= live_.size())
        return text;
    const CpuSnapshot& c = live_[static_cast<std::size_t>(cpu)];
    QString state;
    const std::size_t at = static_cast<std::size_t>(cpu);
    if (c.curr != kNoTask && at < names_.size() && !names_[at].isEmpty())
        state = QStringLiteral("running %1").arg(names_[at].toHtmlEscaped());
    else if (c.curr != kNoTask)
        state = QStringLiteral("running task %1 (group %2)").arg(c.curr).arg(c.curr_group);
    else if (c.idle && c.idle_state >= 0 && static_cast<std::size_t>(c.idle_state) < machine_.idle_states.size())
        state = QStringLiteral("idle in %1")
                    .arg(QString::fromStdString(machine_.idle_states[static_cast<std::size_t>(c.idle_state)].name));
    else
        state = c.idle ? QStringLiteral("idle") : QStringLiteral("idle task, work pending");
    text += QStringLiteral(
                "<hr>%1<br>nr_running %2 · h_nr_delayed %3<br>util_avg %4 · capacity %5"
                "<br>avg_idle %6 us<br>LLC has_idle_cores %7")
                .arg(state)
                .arg(c.nr_running)
                .arg(c.h_nr_delayed)
                .arg(c.util_avg)
                .arg(c.capacity)
                .arg(static_cast<double>(c.avg_idle) / 1000.0, 0, 'f', 1)
                .arg(c.llc_has_idle_cores ? QStringLiteral("yes") : QStringLiteral("no"));
    return text;
}

void TopologyScene::helpEvent(QGraphicsSceneHelpEvent* event)
{
    const CpuId cpu = cpuAt(event->scenePos());
    if (cpu == kNoCpu || live_.empty()) {
        QGraphicsScene::helpEvent(event);
        return;
    }
    QToolTip::showText(event->screenPos(), liveToolTip(cpu), event->widget());
    event->accept();
}

void TopologyScene::showDecision(const DecisionRecord* rec)
{
    if (rec)
        overlay_->showRecord(*rec);
    else
        overlay_->clearRecord();
}

void TopologyScene::showKernelChoice(CpuId cpu)
{
    overlay_->setKernelCpu(cpu);
}

}  // namespace wb

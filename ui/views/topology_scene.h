// SPDX-License-Identifier: Apache-2.0
//
// TopologyScene: the grid of one machine, built once when the machine is
// loaded (one item per box and per CPU), then only restyled: which CPU is
// current, which span is outlined. A new machine gets a new scene.
#pragma once

#include <QGraphicsScene>
#include <vector>

#include "topology/cpumask.h"
#include "views/topology_layout.h"

class QGraphicsPathItem;

namespace wb {

struct Machine;
class CpuCellItem;
class TopoBoxItem;

class TopologyScene : public QGraphicsScene {
public:
    // `target_aspect`: width / height of the view that will show the scene.
    explicit TopologyScene(const Machine& machine, double target_aspect = 1.2, QObject* parent = nullptr);
    ~TopologyScene() override;

    int nrCpus() const { return static_cast<int>(cells_.size()); }
    CpuCellItem* cell(CpuId cpu) const;
    const std::vector<CpuCellItem*>& cells() const { return cells_; }
    const std::vector<TopoBoxItem*>& boxes() const { return boxes_; }
    const TopologyLayout& layout() const { return layout_; }

    // The CPU whose cell is under `scene_pos`, or kNoCpu.
    CpuId cpuAt(const QPointF& scene_pos) const;

    void setCurrentCpu(CpuId cpu);  // kNoCpu: none
    CpuId currentCpu() const { return current_; }

    // Tints the span's cells and outlines it by the fewest boxes and cells
    // that make it up exactly, so an MC span reads as "this LLC box". An
    // empty mask clears it.
    void setHighlightedSpan(const CpuMask& span);
    const CpuMask& highlightedSpan() const { return span_; }
    // The rectangles outlined for the highlighted span.
    const std::vector<QRectF>& spanOutline() const { return outline_rects_; }

private:
    TopologyLayout layout_;
    std::vector<CpuCellItem*> cells_;
    std::vector<TopoBoxItem*> boxes_;
    QGraphicsPathItem* outline_ = nullptr;
    std::vector<QRectF> outline_rects_;
    CpuMask span_;
    CpuId current_ = kNoCpu;
};

}  // namespace wb

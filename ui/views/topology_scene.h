// SPDX-License-Identifier: Apache-2.0
//
// TopologyScene: the grid of one machine, built once when the machine is
// loaded (one item per box and per CPU), then only restyled: which CPU is
// current, which span is outlined. A new machine gets a new scene.
#pragma once

#include <QColor>
#include <QGraphicsScene>
#include <QString>
#include <vector>

#include "session/run_snapshot.h"
#include "topology/cpumask.h"
#include "topology/machine.h"
#include "views/topology_layout.h"

class QGraphicsPathItem;

namespace wb {

struct DecisionRecord;
class CpuCellItem;
class TopoBoxItem;
class DecisionOverlay;

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

    // A run's state, one entry per CPU: restyles the cells (nothing is
    // rebuilt) and keeps the values for the hover tooltip.
    void applySnapshot(const std::vector<CpuSnapshot>& cpus);
    void clearSnapshot();
    // The running task of each CPU by name ("sched-pipe 19849"), for the
    // tooltip of a state that has names (a replayed trace); empty: none.
    void setTaskNames(std::vector<QString> names) { names_ = std::move(names); }
    const std::vector<CpuSnapshot>& snapshot() const { return live_; }
    // The live tooltip of a CPU's cell: nr_running, h_nr_delayed, util_avg,
    // capacity, avg_idle and its LLC's idle-cores hint.
    QString liveToolTip(CpuId cpu) const;

    // One wakeup drawn over the grid; null clears it.
    void showDecision(const DecisionRecord* rec);
    // The kernel's choice for the wakeup shown (a replayed trace); kNoCpu clears it.
    void showKernelChoice(CpuId cpu);
    DecisionOverlay* decisionOverlay() const { return overlay_; }

    // The colour a task group's running task is drawn in.
    static QColor groupColour(int group);
    void setDark(bool dark);

protected:
    void helpEvent(QGraphicsSceneHelpEvent* event) override;

private:
    TopologyLayout layout_;
    std::vector<CpuCellItem*> cells_;
    std::vector<TopoBoxItem*> boxes_;
    QGraphicsPathItem* outline_ = nullptr;
    std::vector<QRectF> outline_rects_;
    CpuMask span_;
    CpuId current_ = kNoCpu;
    Machine machine_;  // for the tooltips' topology lines
    std::vector<CpuSnapshot> live_;
    std::vector<QString> names_;
    DecisionOverlay* overlay_ = nullptr;
};

}  // namespace wb

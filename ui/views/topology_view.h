// SPDX-License-Identifier: Apache-2.0
//
// TopologyView: shows a machine's TopologyScene. The wheel zooms about the
// pointer, dragging pans, a click (a press and release that did not drag)
// picks a CPU. Until the user zooms, the whole machine is kept in view.
#pragma once

#include <QGraphicsView>
#include <QPoint>
#include <QRectF>
#include <QString>
#include <vector>

#include "topology/cpumask.h"

class QFont;

namespace wb {

struct Machine;
class TopologyScene;

class TopologyView : public QGraphicsView {
    Q_OBJECT

public:
    explicit TopologyView(QWidget* parent = nullptr);
    ~TopologyView() override;

    // Replaces the scene with one built for `machine`; clears the selection.
    void setMachine(const Machine& machine);
    TopologyScene* topologyScene() const { return scene_; }

    // Emits cpuSelected when the current CPU changes; kNoCpu clears.
    void selectCpu(CpuId cpu);
    CpuId selectedCpu() const;
    void showSpan(const CpuMask& span);  // an empty mask clears the outline

    void fitAll();        // and keep fitting on resize until the user zooms or pans
    double zoom() const;  // scene units to pixels

    // Node, package and LLC names where the scene is drawn too small for its
    // own titles (a big machine in a small grid): drawn over each box's top
    // left corner at the window's font, elided to the box's width, nested
    // names stacked rather than overlapping. Viewport coordinates.
    struct OverlaidTitle {
        QRectF rect;
        QString text;  // possibly elided
        QString full;
    };
    std::vector<OverlaidTitle> overlaidTitles() const;

signals:
    void cpuSelected(int cpu);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;

private:
    void zoomBy(double factor);
    QFont titleFont() const;

    TopologyScene* scene_ = nullptr;
    bool user_zoomed_ = false;  // once true, resizing no longer refits
    bool pressed_ = false;
    bool dragging_ = false;
    QPoint press_pos_;
    QPoint last_pos_;
};

}  // namespace wb

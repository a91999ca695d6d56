// SPDX-License-Identifier: Apache-2.0
#include "views/topology_view.h"

#include <QApplication>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "topology/machine.h"
#include "views/topology_items.h"
#include "views/topology_scene.h"

namespace wb {

namespace {

// A whole 8-CPU machine fitted to a big window would turn cells into posters.
constexpr double kMaxFitZoom = 2.0;
constexpr double kMaxZoom = 8.0;
constexpr double kWheelStep = 1.2;  // per notch (120 units of angleDelta)

}  // namespace

TopologyView::TopologyView(QWidget* parent) : QGraphicsView(parent)
{
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    // Keys zoom about the middle; the wheel keeps the point under the
    // pointer in place itself (wheelEvent), from the event's own position.
    setTransformationAnchor(QGraphicsView::AnchorViewCenter);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setDragMode(QGraphicsView::NoDrag);
    setFrameShape(QFrame::NoFrame);
    setFocusPolicy(Qt::StrongFocus);
}

TopologyView::~TopologyView() = default;

void TopologyView::setMachine(const Machine& machine)
{
    const QSize vp = viewport()->size();
    const double aspect = vp.width() > 50 && vp.height() > 50 ? double(vp.width()) / vp.height() : 1.2;
    TopologyScene* old = scene_;
    scene_ = new TopologyScene(machine, aspect, this);
    setScene(scene_);
    delete old;
    fitAll();
}

void TopologyView::selectCpu(CpuId cpu)
{
    if (!scene_)
        return;
    if (cpu < 0 || cpu >= scene_->nrCpus())
        cpu = kNoCpu;
    if (cpu == scene_->currentCpu())
        return;
    scene_->setCurrentCpu(cpu);
    emit cpuSelected(cpu);
}

CpuId TopologyView::selectedCpu() const
{
    return scene_ ? scene_->currentCpu() : kNoCpu;
}

void TopologyView::showSpan(const CpuMask& span)
{
    if (scene_)
        scene_->setHighlightedSpan(span);
}

double TopologyView::zoom() const
{
    return transform().m11();
}

void TopologyView::fitAll()
{
    user_zoomed_ = false;
    if (!scene_)
        return;
    resetTransform();
    fitInView(sceneRect(), Qt::KeepAspectRatio);
    if (zoom() > kMaxFitZoom) {
        setTransform(QTransform::fromScale(kMaxFitZoom, kMaxFitZoom));
        centerOn(sceneRect().center());
    }
}

void TopologyView::zoomBy(double factor)
{
    if (!scene_)
        return;
    const QRectF r = sceneRect();
    const double fit = std::min(viewport()->width() / r.width(), viewport()->height() / r.height());
    // Zooming out past "whole machine" only shrinks it into a corner.
    const double lowest = std::min(fit, kMaxFitZoom) * 0.8;
    const double wanted = std::clamp(zoom() * factor, lowest, kMaxZoom);
    scale(wanted / zoom(), wanted / zoom());
    user_zoomed_ = true;
}

void TopologyView::wheelEvent(QWheelEvent* event)
{
    const int delta = event->angleDelta().y();
    if (delta == 0) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    const QPointF pos = event->position();
    const QPointF anchor = mapToScene(pos.toPoint());
    zoomBy(std::pow(kWheelStep, delta / 120.0));
    const QPointF from_centre = pos - QRectF(viewport()->rect()).center();
    centerOn(anchor - from_centre / zoom());
    event->accept();
}

// Items never see the mouse: a press may start a pan, so only the release
// decides that it was a click on a CPU.
void TopologyView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) {
        QGraphicsView::mousePressEvent(event);
        return;
    }
    pressed_ = true;
    dragging_ = false;
    press_pos_ = last_pos_ = event->position().toPoint();
    event->accept();
}

void TopologyView::mouseMoveEvent(QMouseEvent* event)
{
    if (!pressed_) {
        QGraphicsView::mouseMoveEvent(event);
        return;
    }
    const QPoint pos = event->position().toPoint();
    if (!dragging_ && (pos - press_pos_).manhattanLength() >= QApplication::startDragDistance()) {
        dragging_ = true;
        viewport()->setCursor(Qt::ClosedHandCursor);
    }
    if (dragging_) {
        const QPoint delta = pos - last_pos_;
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta.x());
        verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
        user_zoomed_ = true;
    }
    last_pos_ = pos;
    event->accept();
}

void TopologyView::mouseReleaseEvent(QMouseEvent* event)
{
    if (!pressed_ || event->button() != Qt::LeftButton) {
        QGraphicsView::mouseReleaseEvent(event);
        return;
    }
    if (!dragging_ && scene_) {
        const CpuId cpu = scene_->cpuAt(mapToScene(event->position().toPoint()));
        if (cpu != kNoCpu)
            selectCpu(cpu);
    }
    pressed_ = false;
    dragging_ = false;
    viewport()->unsetCursor();
    event->accept();
}

void TopologyView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && scene_ &&
        scene_->cpuAt(mapToScene(event->position().toPoint())) == kNoCpu) {
        fitAll();
        event->accept();
        return;
    }
    mousePressEvent(event);
}

void TopologyView::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_0:
        fitAll();
        break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(kWheelStep);
        break;
    case Qt::Key_Minus:
        zoomBy(1 / kWheelStep);
        break;
    default:
        QGraphicsView::keyPressEvent(event);
        return;
    }
    event->accept();
}

void TopologyView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    if (!user_zoomed_)
        fitAll();
}

QFont TopologyView::titleFont() const
{
    QFont f = font();
    f.setBold(true);
    return f;
}

std::vector<TopologyView::OverlaidTitle> TopologyView::overlaidTitles() const
{
    std::vector<OverlaidTitle> out;
    if (!scene_ || TopoBoxItem::titleReadable(zoom(), QFontInfo(font()).pixelSize()))
        return out;
    const QFontMetricsF fm(titleFont());
    const double height = fm.height() + 2;
    constexpr double kPad = 3;
    for (const TopoBoxItem* box : scene_->boxes()) {
        if (!box->titled())
            continue;
        const QRectF on_screen = mapFromScene(box->sceneBoundingRect()).boundingRect();
        const QString text = fm.elidedText(box->title(), Qt::ElideRight, on_screen.width() - 2 * kPad - 4);
        QRectF r(on_screen.left() + 2, on_screen.top() + 1, fm.horizontalAdvance(text) + 2 * kPad, height);
        // A box's title goes under those of the boxes around it.
        while (std::any_of(out.begin(), out.end(), [&](const OverlaidTitle& t) { return t.rect.intersects(r); }))
            r.translate(0, height);
        out.push_back({r, text, box->title()});
    }
    return out;
}

void TopologyView::drawForeground(QPainter* painter, const QRectF& rect)
{
    QGraphicsView::drawForeground(painter, rect);
    const std::vector<OverlaidTitle> titles = overlaidTitles();
    if (titles.empty())
        return;
    painter->save();
    painter->resetTransform();
    painter->setFont(titleFont());
    const bool dark = scene_->backgroundBrush().color().lightness() < 128;
    QColor chip = dark ? QColor(0x1e, 0x22, 0x26) : QColor(0xff, 0xff, 0xff);
    // Translucent: the cells under a name still show their state.
    chip.setAlpha(170);
    painter->setPen(Qt::NoPen);
    painter->setBrush(chip);
    for (const OverlaidTitle& t : titles)
        painter->drawRoundedRect(t.rect, 3, 3);
    painter->setPen(dark ? QColor(0xe8, 0xea, 0xed) : QColor(0x26, 0x2b, 0x30));
    for (const OverlaidTitle& t : titles)
        painter->drawText(t.rect, Qt::AlignCenter, t.text);
    painter->restore();
}

}  // namespace wb

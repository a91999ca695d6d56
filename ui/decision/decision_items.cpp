// SPDX-License-Identifier: Apache-2.0
#include "decision/decision_items.h"

#include <QFont>
#include <QFontMetricsF>
#include <QPainter>
#include <QPen>
#include <algorithm>
#include <cmath>

#include "decision/palette.h"

namespace wb {

namespace {

constexpr double kNodeWidth = 250;
constexpr double kNodeHeight = 34;
constexpr double kEdgeZ = 1;
constexpr double kTakenEdgeZ = 2;
constexpr double kArrow = 6;

QFont title_font()
{
    QFont f;
    f.setPointSizeF(8.5);
    f.setBold(true);
    return f;
}

QFont note_font()
{
    QFont f;
    f.setPointSizeF(7);
    return f;
}

}  // namespace

DecisionNodeItem::DecisionNodeItem(QString key, QString title, QString note, Kind kind)
    : key_(std::move(key)), title_(std::move(title)), note_(note), fixed_note_(std::move(note)), kind_(kind)
{
    setZValue(10);
}

QSizeF DecisionNodeItem::size()
{
    return {kNodeWidth, kNodeHeight};
}

QRectF DecisionNodeItem::boundingRect() const
{
    return QRectF(QPointF(0, 0), size()).adjusted(-2, -2, 2, 2);
}

void DecisionNodeItem::setLit(const QColor& colour, const QString& order)
{
    lit_ = true;
    colour_ = colour;
    order_ = order;
    update();
}

void DecisionNodeItem::setUnlit()
{
    if (!lit_ && !final_)
        return;
    lit_ = false;
    final_ = false;
    order_.clear();
    note_ = fixed_note_;
    update();
}

void DecisionNodeItem::setNote(const QString& note)
{
    note_ = note;
    update();
}

void DecisionNodeItem::setFinal(bool final)
{
    final_ = final;
    update();
}

void DecisionNodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    const QRectF r(QPointF(0, 0), size());
    QColor fill = Qt::white;
    if (lit_) {
        fill = colour_;
        fill.setAlphaF(final_ ? 0.45 : 0.14);
    }
    QPen border(lit_ ? colour_ : palette::inactive(), lit_ ? 2.5 : 1);
    // A patch's own steps and unknown functions are dashed: not mainline.
    if (kind_ != Kind::Fixed)
        border.setStyle(Qt::DashLine);
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(border);
    painter->setBrush(fill);
    painter->drawRoundedRect(r.adjusted(1, 1, -1, -1), 5, 5);

    const QColor ink = lit_ ? QColor(0x1a, 0x1a, 0x1a) : QColor(0x60, 0x64, 0x6a);
    const QRectF text = r.adjusted(8, 2, -8, -2);
    QRectF title_rect = text;
    title_rect.setHeight(text.height() * 0.55);
    QRectF note_rect = text;
    note_rect.setTop(title_rect.bottom());

    painter->setPen(ink);
    painter->setFont(title_font());
    double badge_width = 0;
    if (!order_.isEmpty()) {
        const QFontMetricsF fm(title_font());
        badge_width = fm.horizontalAdvance(order_) + 10;
        const QRectF badge(text.right() - badge_width, title_rect.top() + 1, badge_width, title_rect.height() - 2);
        painter->setBrush(colour_);
        painter->setPen(Qt::NoPen);
        painter->drawRoundedRect(badge, 4, 4);
        painter->setPen(Qt::white);
        painter->drawText(badge, Qt::AlignCenter, order_);
        painter->setPen(ink);
    }
    const QFontMetricsF title_metrics(title_font());
    const double title_width = title_rect.width() - badge_width - 4;
    painter->drawText(title_rect.adjusted(0, 0, -badge_width - 4, 0), Qt::AlignLeft | Qt::AlignVCenter,
                      title_metrics.elidedText(title_, Qt::ElideRight, title_width));
    painter->setFont(note_font());
    painter->drawText(note_rect, Qt::AlignLeft | Qt::AlignVCenter,
                      QFontMetricsF(note_font()).elidedText(note_, Qt::ElideRight, note_rect.width()));
}

DecisionEdgeItem::DecisionEdgeItem(DecisionNodeItem* from, DecisionNodeItem* to) : from_(from), to_(to)
{
    setZValue(kEdgeZ);
    updatePath();
}

void DecisionEdgeItem::updatePath()
{
    prepareGeometryChange();
    const QPointF a = from_->anchor();
    const QPointF b = to_->anchor();
    // Arcs in the left gutter, wider the farther they jump, so that a long
    // jump (a return to "chosen") does not hide the short ones.
    const double bow = std::min(16 + 0.3 * std::abs(b.y() - a.y()), 150.0);
    path_ = QPainterPath(a);
    path_.cubicTo(a - QPointF(bow, 0), b - QPointF(bow, 0), b - QPointF(kArrow, 0));
    head_ = QPolygonF({b, b - QPointF(kArrow * 1.6, kArrow * 0.8), b - QPointF(kArrow * 1.6, -kArrow * 0.8)});
}

QRectF DecisionEdgeItem::boundingRect() const
{
    return path_.boundingRect().united(head_.boundingRect()).adjusted(-3, -3, 3, 3);
}

void DecisionEdgeItem::setTaken(const QColor& colour)
{
    taken_ = true;
    colour_ = colour;
    setZValue(kTakenEdgeZ);
    update();
}

void DecisionEdgeItem::setUntaken()
{
    if (!taken_)
        return;
    taken_ = false;
    setZValue(kEdgeZ);
    update();
}

void DecisionEdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    const QColor colour = taken_ ? colour_ : palette::inactive();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(QPen(colour, taken_ ? 3 : 1));
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(path_);
    painter->setPen(Qt::NoPen);
    painter->setBrush(colour);
    painter->drawPolygon(head_);
}

}  // namespace wb

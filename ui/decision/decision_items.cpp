// SPDX-License-Identifier: Apache-2.0
#include "decision/decision_items.h"

#include <QFontMetricsF>
#include <QGraphicsTextItem>
#include <QPainter>
#include <QPen>
#include <QStringList>
#include <QTextDocument>
#include <QTextOption>
#include <algorithm>
#include <cmath>

#include "decision/palette.h"

namespace wb {

namespace {

constexpr double kPad = 6;
constexpr double kStripe = 4;  // per policy, on the left edge of a node two policies reached
constexpr double kBadgeGap = 3;
constexpr double kEdgeZ = 1;
constexpr double kTakenEdgeZ = 2;
constexpr double kArrow = 6;
constexpr double kLaneDy = 3;     // a policy's edges sit this much lower than the previous policy's
constexpr double kLaneBow = 6;    // ... and arc this much farther left
constexpr double kMaxBow = 34;    // the widest mainline arc
constexpr double kDocMargin = 1;  // QTextDocument's default 4 wastes a line's worth per node

QGraphicsTextItem* text_child(QGraphicsItem* parent, bool wrap_anywhere)
{
    auto* t = new QGraphicsTextItem(parent);
    t->setAcceptHoverEvents(false);
    t->setAcceptedMouseButtons(Qt::NoButton);
    t->document()->setDocumentMargin(kDocMargin);
    if (wrap_anywhere) {
        // Kernel names have no spaces; a narrow dock breaks them rather
        // than cutting them off.
        QTextOption o = t->document()->defaultTextOption();
        o.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
        t->document()->setDefaultTextOption(o);
    }
    return t;
}

double badge_width(const QFontMetricsF& fm, const QString& order)
{
    return fm.horizontalAdvance(order) + 10;
}

}  // namespace

DecisionNodeItem::DecisionNodeItem(QString key, QString title, QString note, Kind kind)
    : key_(std::move(key)),
      title_(std::move(title)),
      note_(std::move(note)),
      kind_(kind),
      title_item_(text_child(this, true)),
      note_item_(text_child(this, false)),
      detail_item_(text_child(this, false))
{
    setZValue(10);
    title_item_->setPlainText(title_);
    note_item_->setPlainText(note_);
    note_item_->setDefaultTextColor(ink_->quiet_ink);
    detail_item_->setDefaultTextColor(ink_->ink);
    // A usable shape until the diagram lays the node out for its width.
    setBaseFont(QFont());
    setWidth(250);
}

void DecisionNodeItem::setBaseFont(const QFont& font)
{
    font_ = font;
    QFont bold = font;
    bold.setBold(true);
    title_item_->setFont(bold);
    note_item_->setFont(font);
    detail_item_->setFont(font);
    relayout();
}

void DecisionNodeItem::setWidth(double width)
{
    if (width == size_.width())
        return;
    size_.setWidth(width);
    relayout();
}

void DecisionNodeItem::setVisits(std::vector<Visit> visits)
{
    visits_ = std::move(visits);
    relayout();
    update();
}

bool DecisionNodeItem::isFinal() const
{
    return std::any_of(visits_.begin(), visits_.end(), [](const Visit& v) { return v.final; });
}

void DecisionNodeItem::setDetailHtml(const QString& html)
{
    detail_item_->setHtml(html);
    relayout();
}

QString DecisionNodeItem::detailText() const
{
    return detail_item_->isVisible() ? detail_item_->toPlainText() : QString();
}

QString DecisionNodeItem::fullText() const
{
    QStringList parts{title_};
    if (!note_.isEmpty())
        parts << note_;
    if (const QString d = detailText(); !d.isEmpty())
        parts << d;
    return parts.join(QLatin1Char('\n'));
}

std::vector<const QGraphicsTextItem*> DecisionNodeItem::shownTextItems() const
{
    std::vector<const QGraphicsTextItem*> out;
    for (const QGraphicsTextItem* t : {title_item_, note_item_, detail_item_})
        if (t->isVisible())
            out.push_back(t);
    return out;
}

void DecisionNodeItem::relayout()
{
    prepareGeometryChange();
    const double width = size_.width();
    const double stripes = visits_.size() > 1 ? kStripe * static_cast<double>(visits_.size()) : 0;
    const double left = kPad + stripes;
    double badges = 0;
    {
        QFont bold = font_;
        bold.setBold(true);
        const QFontMetricsF fm(bold);
        for (const Visit& v : visits_)
            if (!v.order.isEmpty())
                badges += badge_width(fm, v.order) + kBadgeGap;
    }
    const double text_width = std::max(40.0, width - left - kPad);
    title_item_->setTextWidth(std::max(40.0, text_width - badges));
    title_item_->setPos(left, kPad / 2);
    title_height_ = title_item_->boundingRect().height();
    double y = kPad / 2 + title_height_;

    const bool lit = isLit();
    const bool show_note = lit && !note_.isEmpty();
    note_item_->setVisible(show_note);
    if (show_note) {
        note_item_->setTextWidth(text_width);
        note_item_->setPos(left, y);
        y += note_item_->boundingRect().height();
    }
    const bool show_detail = lit && !detail_item_->document()->isEmpty();
    detail_item_->setVisible(show_detail);
    if (show_detail) {
        detail_item_->setTextWidth(text_width);
        detail_item_->setPos(left, y);
        y += detail_item_->boundingRect().height();
    }
    title_item_->setDefaultTextColor(lit ? ink_->ink : ink_->quiet_ink);
    size_.setHeight(y + kPad / 2);
    setToolTip(fullText());
}

QRectF DecisionNodeItem::boundingRect() const
{
    return QRectF(QPointF(0, 0), size_).adjusted(-2, -2, 2, 2);
}

QPointF DecisionNodeItem::anchor() const
{
    return mapToScene(QPointF(0, kPad / 2 + title_height_ / 2));
}

void DecisionNodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    const QRectF r(QPointF(0, 0), size_);
    const bool lit = isLit();
    const bool shared = visits_.size() > 1;
    const QColor first = lit ? visits_.front().colour : ink_->inactive;
    QColor fill = ink_->node_fill;
    if (lit) {
        // Tinted by the policy that decided here, else by the first visitor.
        fill = first;
        for (const Visit& v : visits_)
            if (v.final) {
                fill = v.colour;
                break;
            }
        fill.setAlphaF(isFinal() ? 0.30 : 0.10);
        // Over the node's own paper, so a dark theme's tint stays dark.
        painter->setPen(Qt::NoPen);
        painter->setBrush(ink_->node_fill);
        painter->drawRoundedRect(r.adjusted(1, 1, -1, -1), 5, 5);
    }
    // Two policies: a neutral border and one stripe per policy, so neither
    // colour claims the node.
    QPen border(!lit ? ink_->inactive : shared ? ink_->shared_border : first, !lit ? 1.0 : isFinal() ? 3.0 : 2.0);
    // A patch's own steps and unknown functions are dashed: not mainline.
    if (kind_ != Kind::Fixed)
        border.setStyle(Qt::DashLine);
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(border);
    painter->setBrush(fill);
    painter->drawRoundedRect(r.adjusted(1, 1, -1, -1), 5, 5);

    if (shared) {
        painter->setPen(Qt::NoPen);
        for (std::size_t i = 0; i < visits_.size(); ++i) {
            painter->setBrush(visits_[i].colour);
            painter->drawRect(QRectF(3 + kStripe * static_cast<double>(i), 3, kStripe - 1, r.height() - 6));
        }
    }

    // One badge per policy, its step numbers white on its colour, right to
    // left in policy order.
    QFont bold = font_;
    bold.setBold(true);
    const QFontMetricsF fm(bold);
    painter->setFont(bold);
    double right = r.right() - kPad;
    const double badge_height = std::min(fm.height() + 2, title_height_);
    const double badge_top = kPad / 2 + (title_height_ - badge_height) / 2;
    for (auto it = visits_.rbegin(); it != visits_.rend(); ++it) {
        // Headers (select_task_rq_fair, select_idle_sibling) are entered,
        // not a step: no number to show.
        if (it->order.isEmpty())
            continue;
        const double w = badge_width(fm, it->order);
        const QRectF badge(right - w, badge_top, w, badge_height);
        painter->setPen(Qt::NoPen);
        painter->setBrush(it->colour);
        painter->drawRoundedRect(badge, 4, 4);
        painter->setPen(Qt::white);
        painter->drawText(badge, Qt::AlignCenter, it->order);
        right -= w + kBadgeGap;
    }
}

DecisionEdgeItem::DecisionEdgeItem(DecisionNodeItem* from, DecisionNodeItem* to, int lane)
    : from_(from), to_(to), lane_(lane)
{
    setZValue(kEdgeZ);
    updatePath();
}

double DecisionEdgeItem::maxReach(int lanes)
{
    return kMaxBow + kLaneBow * std::max(0, lanes - 1) + 4;
}

void DecisionEdgeItem::updatePath()
{
    prepareGeometryChange();
    const double lane = std::max(0, lane_);
    const QPointF shift(0, kLaneDy * lane);
    const QPointF a = from_->anchor() + shift;
    const QPointF b = to_->anchor() + shift;
    // Arcs in the left gutter, wider the farther they jump, so that a long
    // jump (a return to "chosen") does not hide the short ones.
    const double bow = std::min(12 + 0.12 * std::abs(b.y() - a.y()), kMaxBow) + kLaneBow * lane;
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
    const QColor colour = taken_ ? colour_ : ink_->inactive;
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(QPen(colour, taken_ ? 3 : 1));
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(path_);
    painter->setPen(Qt::NoPen);
    painter->setBrush(colour);
    painter->drawPolygon(head_);
}

void DecisionNodeItem::setInk(const DiagramInk& ink)
{
    ink_ = &ink;
    note_item_->setDefaultTextColor(ink.quiet_ink);
    detail_item_->setDefaultTextColor(ink.ink);
    title_item_->setDefaultTextColor(isLit() ? ink.ink : ink.quiet_ink);
    update();
}

void DecisionEdgeItem::setInk(const DiagramInk& ink)
{
    ink_ = &ink;
    update();
}

}  // namespace wb

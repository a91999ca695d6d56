// SPDX-License-Identifier: Apache-2.0
#include "views/decision_overlay.h"

#include <QFont>
#include <QPainter>
#include <QPainterPath>
#include <QPen>
#include <QStringList>
#include <QStyleOptionGraphicsItem>
#include <QtMath>
#include <algorithm>

#include "decision/palette.h"
#include "views/overlay_style.h"

namespace wb {

namespace {

const QColor kHalo(255, 255, 255, 220);

QFont badge_font(int px)
{
    QFont f;
    f.setPixelSize(px);
    f.setBold(true);
    return f;
}

}  // namespace

DecisionOverlay::DecisionOverlay(std::vector<QRectF> cells) : cells_(std::move(cells))
{
    for (const QRectF& r : cells_)
        bounds_ = bounds_.united(r);
    bounds_.adjust(-40, -40, 40, 40);
    setAcceptedMouseButtons(Qt::NoButton);
    setAcceptHoverEvents(false);
}

QRectF DecisionOverlay::boundingRect() const
{
    return bounds_;
}

QRectF DecisionOverlay::cell(CpuId cpu) const
{
    if (cpu < 0 || static_cast<std::size_t>(cpu) >= cells_.size())
        return {};
    return cells_[static_cast<std::size_t>(cpu)];
}

void DecisionOverlay::showRecord(const DecisionRecord& rec)
{
    rec_ = rec;
    has_record_ = true;
    update();
}

void DecisionOverlay::clearRecord()
{
    if (!has_record_)
        return;
    has_record_ = false;
    update();
}

void DecisionOverlay::setKernelCpu(CpuId cpu)
{
    if (kernel_cpu_ == cpu)
        return;
    kernel_cpu_ = cpu;
    update();
}

// Outside the model's ring, so that both show on one CPU when they agree;
// the tag sits at the bottom right, clear of the W/P/T tags and the scan
// badges at the top.
void DecisionOverlay::paintKernel(QPainter* painter) const
{
    const QRectF r = cell(kernel_cpu_);
    if (r.isNull())
        return;
    const QColor ink = palette::kernel_mark();
    const QRectF ring = r.adjusted(-7, -7, 7, 7);
    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(kHalo, 5));
    painter->drawRoundedRect(ring, 7, 7);
    painter->setPen(QPen(ink, 2.5, Qt::DashLine));
    painter->drawRoundedRect(ring, 7, 7);
    painter->setFont(badge_font(10));
    const QRectF tag(ring.right() - 12, ring.bottom() - 9, 16, 14);
    painter->setPen(QPen(Qt::white, 1));
    painter->setBrush(ink);
    painter->drawRoundedRect(tag, 3, 3);
    painter->setPen(Qt::white);
    painter->drawText(tag, Qt::AlignCenter, QStringLiteral("K"));
}

int DecisionOverlay::scanNumber(CpuId cpu) const
{
    if (!has_record_)
        return 0;
    const auto it = std::find(rec_.scanned.begin(), rec_.scanned.end(), cpu);
    return it == rec_.scanned.end() ? 0 : static_cast<int>(it - rec_.scanned.begin()) + 1;
}

void DecisionOverlay::paintArrow(QPainter* painter, const QColor& colour) const
{
    const QRectF from = cell(rec_.waker_cpu);
    const QRectF to = cell(rec_.chosen);
    if (from.isNull() || to.isNull())
        return;
    QPainterPath path;
    QPointF tip;
    QPointF direction;
    if (rec_.waker_cpu == rec_.chosen) {
        // Staying put: a loop above the cell.
        const QPointF a(from.center().x() - from.width() * 0.2, from.top() + 2);
        tip = QPointF(from.center().x() + from.width() * 0.2, from.top() + 2);
        path.moveTo(a);
        path.cubicTo(a + QPointF(-14, -30), tip + QPointF(14, -30), tip);
        direction = QPointF(-0.4, 1);
    } else {
        const QPointF d = to.center() - from.center();
        const double len = std::hypot(d.x(), d.y());
        const QPointF unit = d / len;
        // From edge to edge, so that neither cell's number is covered.
        const QPointF a = from.center() + unit * std::min(from.width(), from.height()) * 0.45;
        tip = to.center() - unit * std::min(to.width(), to.height()) * 0.6;
        const QPointF normal(-unit.y(), unit.x());
        const QPointF control = (a + tip) / 2 + normal * std::min(60.0, len * 0.2);
        path.moveTo(a);
        path.quadTo(control, tip);
        direction = tip - control;
    }
    const double dl = std::hypot(direction.x(), direction.y());
    const QPointF u = dl > 0 ? direction / dl : QPointF(1, 0);
    const QPointF n(-u.y(), u.x());
    QPolygonF head;
    head << tip << tip - u * 11 + n * 5.5 << tip - u * 11 - n * 5.5;

    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(kHalo, 7, Qt::SolidLine, Qt::RoundCap));
    painter->drawPath(path);
    painter->setPen(QPen(colour, 3.5, Qt::SolidLine, Qt::RoundCap));
    painter->drawPath(path);
    painter->setPen(QPen(kHalo, 1.5));
    painter->setBrush(colour);
    painter->drawPolygon(head);
}

void DecisionOverlay::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    painter->setRenderHint(QPainter::Antialiasing, true);
    if (kernel_cpu_ != kNoCpu)
        paintKernel(painter);
    if (!has_record_)
        return;
    const QColor arrow = overlay_style::ring_colour(rec_.from_waker);

    // The chosen CPU: a ring in the arrow's colour, under the tags.
    const QRectF chosen = cell(rec_.chosen);
    if (!chosen.isNull()) {
        painter->setBrush(Qt::NoBrush);
        painter->setPen(QPen(kHalo, 6));
        painter->drawRoundedRect(chosen.adjusted(-3, -3, 3, 3), 5, 5);
        painter->setPen(QPen(arrow, 3.5));
        painter->drawRoundedRect(chosen.adjusted(-3, -3, 3, 3), 5, 5);
    }

    paintArrow(painter, arrow);

    // Scanned CPUs: a numbered badge in the top right corner, in scan order.
    painter->setFont(badge_font(10));
    for (std::size_t i = 0; i < rec_.scanned.size(); ++i) {
        const CpuId cpu = rec_.scanned[i];
        if (scanNumber(cpu) != static_cast<int>(i) + 1)
            continue;  // a CPU scanned twice keeps its first number
        const QRectF r = cell(cpu);
        if (r.isNull())
            continue;
        const QRectF badge(r.right() - 15, r.top() - 5, 18, 14);
        painter->setPen(QPen(Qt::white, 1));
        painter->setBrush(overlay_style::scan_fill());
        painter->drawRoundedRect(badge, 6, 6);
        painter->setPen(Qt::black);
        painter->drawText(badge, Qt::AlignCenter, QString::number(i + 1));
    }

    // Roles: W(aker), P(rev), T(arget) tags on the top left corner, clear
    // of the runnable dots at the bottom.
    auto roles_of = [&](CpuId cpu) {
        QString s;
        if (cpu == rec_.waker_cpu)
            s += QLatin1Char('W');
        if (cpu == rec_.prev_cpu)
            s += QLatin1Char('P');
        if (cpu == rec_.target)
            s += QLatin1Char('T');
        return s;
    };
    std::vector<CpuId> tagged;
    for (CpuId cpu : {rec_.waker_cpu, rec_.prev_cpu, rec_.target})
        if (cpu != kNoCpu && std::find(tagged.begin(), tagged.end(), cpu) == tagged.end())
            tagged.push_back(cpu);
    painter->setFont(badge_font(10));
    for (CpuId cpu : tagged) {
        const QRectF r = cell(cpu);
        if (r.isNull())
            continue;
        const QString text = roles_of(cpu);
        const QRectF tag(r.left() - 5, r.top() - 7, 8 + 8 * text.size(), 14);
        painter->setPen(QPen(Qt::white, 1));
        painter->setBrush(overlay_style::role_fill());
        painter->drawRoundedRect(tag, 3, 3);
        painter->setPen(Qt::white);
        painter->drawText(tag, Qt::AlignCenter, text);
    }
}

}  // namespace wb

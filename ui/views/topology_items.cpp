// SPDX-License-Identifier: Apache-2.0
#include "views/topology_items.h"

#include <QColor>
#include <QFont>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QPainter>
#include <QPen>
#include <QStyleOptionGraphicsItem>
#include <algorithm>
#include <cmath>

namespace wb {

namespace {

// Neutral greys: the live view will spend colour on runqueue state, so the
// static structure must not compete with it. Accents are Okabe-Ito, which
// stays distinguishable for colour-blind readers.
const QColor kCellFill(0xff, 0xff, 0xff);
const QColor kCellBorder(0x86, 0x90, 0x9a);
const QColor kCellText(0x26, 0x2b, 0x30);
const QColor kNoteText(0x5f, 0x67, 0x70);
const QColor kCurrentFill(0x00, 0x72, 0xb2);   // Okabe-Ito blue
const QColor kSpanFill(0xfd, 0xee, 0xcf);      // light Okabe-Ito orange
const QColor kCapacityMark(0xcc, 0x79, 0xa7);  // Okabe-Ito reddish purple
const QColor kCapacityTrack(0xee, 0xe4, 0xea);

// The boxes of the machine's structure, in each theme. The cells keep their
// light heat scale in both: white busy, greys idle.
const TopoBoxItem::Colours kLightBoxes{
    {QColor(0xec, 0xef, 0xf2), QColor(0xf7, 0xf8, 0xfa)},
    QColor(0x95, 0xa1, 0xad),
    QColor(0xe9, 0xec, 0xef),
    QColor(0x7d, 0x89, 0x95),
    QColor(0xcf, 0xd6, 0xdd),
    QColor(0x9c, 0xa7, 0xb2),
    QColor(0x37, 0x42, 0x4c),
};
const TopoBoxItem::Colours kDarkBoxes{
    {QColor(0x35, 0x3b, 0x42), QColor(0x3d, 0x44, 0x4b)},
    QColor(0x6b, 0x77, 0x83),
    QColor(0x30, 0x36, 0x3c),
    QColor(0x8a, 0x95, 0xa0),
    QColor(0x4a, 0x52, 0x5a),
    QColor(0x63, 0x6e, 0x79),
    QColor(0xe3, 0xe6, 0xe9),
};

// Below this many screen pixels a glyph is a smudge, not a number.
constexpr double kReadablePx = 6.5;
constexpr int kIdPx = 14;
constexpr int kNotePx = 9;

// Idle depth: white busy, light to dark grey shallow to deep idle.
QColor idle_fill(const CellLive& live)
{
    if (!live.idle)
        return kCellFill;
    if (live.idle_depth <= 0)
        return QColor(0xf1, 0xf3, 0xf5);
    const QColor shallow(0xe4, 0xe8, 0xec);
    const QColor deep(0xa3, 0xac, 0xb5);
    const double t = live.idle_levels <= 1
                         ? 1.0
                         : std::clamp(static_cast<double>(live.idle_depth - 1) / (live.idle_levels - 1), 0.0, 1.0);
    auto mix = [t](int a, int b) { return static_cast<int>(a + (b - a) * t); };
    return QColor(mix(shallow.red(), deep.red()), mix(shallow.green(), deep.green()), mix(shallow.blue(), deep.blue()));
}

QFont pixel_font(int px, bool bold)
{
    QFont font;
    font.setPixelSize(px);
    font.setBold(bold);
    return font;
}

QString capacity_note(int capacity)
{
    return capacity < 1024 ? QStringLiteral("cap %1").arg(capacity) : QString();
}

QString speed_note(double speed)
{
    return std::abs(speed - 1.0) > 1e-6 ? QStringLiteral("×%1").arg(speed, 0, 'f', 2) : QString();
}

// The note's font size: the normal one, or smaller so that it fits the cell
// rather than clipping the number that matters.
int fitted_note_px(const QString& note, double width)
{
    if (note.isEmpty())
        return 0;
    const double needed = QFontMetricsF(pixel_font(kNotePx, false)).horizontalAdvance(note);
    return needed <= width ? kNotePx : static_cast<int>(kNotePx * width / needed);
}

}  // namespace

CpuCellItem::CpuCellItem(CpuId cpu, const QSizeF& size, int capacity, double speed)
    : cpu_(cpu), size_(size), capacity_(capacity), label_(QString::number(cpu))
{
    const QString cap = capacity_note(capacity);
    const QString fast = speed_note(speed);
    note_ = cap.isEmpty() || fast.isEmpty() ? cap + fast : cap + QLatin1Char(' ') + fast;
    // When both do not fit, capacity is what the scheduler reads.
    short_note_ = cap.isEmpty() ? fast : cap;
    const double room = size.width() - 6;
    note_px_ = fitted_note_px(note_, room);
    short_note_px_ = fitted_note_px(short_note_, room);
}

QRectF CpuCellItem::boundingRect() const
{
    return QRectF(QPointF(0, 0), size_);
}

void CpuCellItem::setCurrent(bool current)
{
    if (current_ != current) {
        current_ = current;
        update();
    }
}

void CpuCellItem::setInSpan(bool in_span)
{
    if (in_span_ != in_span) {
        in_span_ = in_span;
        update();
    }
}

void CpuCellItem::setLive(const CellLive& live)
{
    if (has_live_ && live_ == live)
        return;
    has_live_ = true;
    live_ = live;
    update();
}

void CpuCellItem::clearLive()
{
    if (!has_live_)
        return;
    has_live_ = false;
    update();
}

void CpuCellItem::paintLive(QPainter* painter, const QRectF& r, double lod)
{
    if (live_.has_curr) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(live_.curr_colour);
        painter->drawRect(QRectF(r.left() + 2, r.top() + 2, r.width() - 4, 6));
    }
    if (live_.nr_running == 0)
        return;
    const double d = 5;
    const double y = r.bottom() - (lowerCapacity() ? 13 : 8);
    painter->setPen(Qt::NoPen);
    painter->setBrush(QColor(0x26, 0x2b, 0x30));
    if (live_.nr_running <= kMaxDots) {
        for (unsigned int i = 0; i < live_.nr_running; ++i)
            painter->drawEllipse(QRectF(r.left() + 4 + i * (d + 2.5), y, d, d));
        return;
    }
    // Past a few dots, a count reads faster than a row of them.
    painter->drawEllipse(QRectF(r.left() + 4, y, d, d));
    if (lod * 10 < kReadablePx)
        return;
    painter->setPen(QColor(0x26, 0x2b, 0x30));
    painter->setFont(pixel_font(10, true));
    painter->drawText(QRectF(r.left() + 4 + d + 2, y - 4, r.width() - d - 8, d + 8), Qt::AlignLeft | Qt::AlignVCenter,
                      QString::number(live_.nr_running));
}

void CpuCellItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const QRectF r = boundingRect().adjusted(0.5, 0.5, -0.5, -0.5);

    if (has_live_) {
        // While a run is shown the fill belongs to the run; selection and
        // spans become outlines.
        const QColor fill = idle_fill(live_);
        QPen pen(current_ ? kCurrentFill : in_span_ ? QColor(0xe6, 0x9f, 0x00) : kCellBorder, current_ ? 2.5 : 0);
        painter->setPen(pen);
        painter->setBrush(fill);
        painter->drawRoundedRect(r, 3, 3);
        paintLive(painter, r, lod);
        if (lod * kIdPx < kReadablePx)
            return;
        painter->setFont(pixel_font(kIdPx, true));
        painter->setPen(fill.lightness() < 140 ? QColor(Qt::white) : kCellText);
        painter->drawText(r.adjusted(0, 6, 0, -6), Qt::AlignCenter, label_);
        return;
    }

    painter->setPen(QPen(current_ ? kCurrentFill.darker(130) : kCellBorder, 0));
    painter->setBrush(current_ ? kCurrentFill : in_span_ ? kSpanFill : kCellFill);
    painter->drawRoundedRect(r, 3, 3);

    // Drawn at every zoom: at 512 CPUs the mark is what shows little cores.
    if (lowerCapacity()) {
        const QRectF track(r.left() + 4, r.bottom() - 6, r.width() - 8, 3);
        painter->setPen(Qt::NoPen);
        painter->setBrush(kCapacityTrack);
        painter->drawRect(track);
        painter->setBrush(kCapacityMark);
        painter->drawRect(QRectF(track.topLeft(), QSizeF(track.width() * capacity_ / 1024.0, track.height())));
    }

    if (lod * kIdPx < kReadablePx)
        return;
    // The fullest note readable at this zoom, if any.
    const QString* note = nullptr;
    int note_px = 0;
    if (!note_.isEmpty() && lod * note_px_ >= kReadablePx) {
        note = &note_;
        note_px = note_px_;
    } else if (!short_note_.isEmpty() && lod * short_note_px_ >= kReadablePx) {
        note = &short_note_;
        note_px = short_note_px_;
    }
    QRectF id_rect = r;
    if (note)
        id_rect.setBottom(r.top() + r.height() * 0.62);
    painter->setFont(pixel_font(kIdPx, true));
    painter->setPen(current_ ? QColor(Qt::white) : kCellText);
    painter->drawText(id_rect, Qt::AlignCenter, label_);
    if (note) {
        QRectF note_rect = r;
        note_rect.setTop(id_rect.bottom() - 2);
        note_rect.setBottom(r.bottom() - (lowerCapacity() ? 6 : 1));
        painter->setFont(pixel_font(note_px, false));
        painter->setPen(current_ ? QColor(Qt::white) : kNoteText);
        painter->drawText(note_rect, Qt::AlignCenter, *note);
    }
}

const TopoBoxItem::Colours& TopoBoxItem::colours() const
{
    return dark_ ? kDarkBoxes : kLightBoxes;
}

void TopoBoxItem::setDark(bool dark)
{
    if (dark_ == dark)
        return;
    dark_ = dark;
    update();
}

bool TopoBoxItem::titleReadable(double lod, double min_px)
{
    return lod * LayoutMetrics::kTitlePixels >= min_px;
}

TopoBoxItem::TopoBoxItem(const TopoBox& box)
    : size_(box.rect.size()),
      title_(box.title()),
      span_(box.span),
      kind_(box.has_header()                       ? Kind::Titled
            : box.levels.back() == TopoLevel::Core ? Kind::Core
                                                   : Kind::Cluster),
      depth_(box.depth)
{
}

QRectF TopoBoxItem::boundingRect() const
{
    return QRectF(QPointF(0, 0), size_);
}

void TopoBoxItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget)
{
    const QRectF r = boundingRect().adjusted(0.5, 0.5, -0.5, -0.5);
    switch (kind_) {
    case Kind::Titled:
        painter->setPen(QPen(colours().titled_border, 0));
        painter->setBrush(colours().titled_fill[depth_ % 2]);
        painter->drawRoundedRect(r, 8, 8);
        break;
    case Kind::Cluster: {
        // Dashed, so a cluster of single-thread cores never reads as SMT siblings.
        QPen pen(colours().cluster_border, 0, Qt::DashLine);
        painter->setPen(pen);
        painter->setBrush(colours().cluster_fill);
        painter->drawRoundedRect(r, 5, 5);
        return;
    }
    case Kind::Core:
        painter->setPen(QPen(colours().core_border, 0));
        painter->setBrush(colours().core_fill);
        painter->drawRoundedRect(r, 4, 4);
        return;
    }

    // In a view, below its font the view draws the title; rendered alone
    // (an export), down to the smallest readable size.
    const double min_px = widget ? QFontInfo(widget->font()).pixelSize() : kReadablePx;
    if (!titleReadable(option->levelOfDetailFromTransform(painter->worldTransform()), min_px))
        return;
    const QFont font = pixel_font(LayoutMetrics::kTitlePixels, true);
    const QRectF title_rect(r.left() + 8, r.top() + 2, r.width() - 16, LayoutMetrics::kHeaderHeight - 2);
    painter->setFont(font);
    painter->setPen(colours().title_text);
    painter->drawText(title_rect, Qt::AlignLeft | Qt::AlignVCenter,
                      QFontMetricsF(font).elidedText(title_, Qt::ElideRight, title_rect.width()));
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "widgets/grid_legend.h"

#include <QStringList>

#include "topology/distance.h"
#include "views/overlay_style.h"

namespace wb {

namespace {

QString chip(const QColor& fill, const QColor& text, const QString& label)
{
    return QStringLiteral("<span style='background-color:%1;color:%2'><b>&nbsp;%3&nbsp;</b></span>")
        .arg(fill.name(), text.name(), label);
}

}  // namespace

GridLegend::GridLegend(QWidget* parent) : QLabel(parent)
{
    setObjectName(QStringLiteral("gridLegend"));
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    const QColor role = overlay_style::role_fill();
    QStringList parts;
    parts << tr("%1 waker").arg(chip(role, Qt::white, QStringLiteral("W")))
          << tr("%1 prev").arg(chip(role, Qt::white, QStringLiteral("P")))
          << tr("%1 target").arg(chip(role, Qt::white, QStringLiteral("T")))
          << tr("%1 scanned, in order").arg(chip(overlay_style::scan_fill(), Qt::black, QStringLiteral("1")));
    QStringList classes;
    for (std::size_t c = 0; c < kDistanceClassCount; ++c) {
        const auto cls = static_cast<DistanceClass>(c);
        const std::string_view name = distance_class_name(cls);
        classes << QStringLiteral("<span style='color:%1'>&#9632;</span>&nbsp;%2")
                       .arg(overlay_style::ring_colour(cls).name(),
                            QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size())));
    }
    parts << tr("chosen CPU's ring and the arrow from the waker: %1").arg(classes.join(QStringLiteral(" ")));
    setText(parts.join(QStringLiteral(" &nbsp; ")));
    setToolTip(
        tr("The marks of the wakeup shown: its waker's, previous and target CPUs, the CPUs the idle search "
           "looked at in order, and where it went, coloured by distance from the waker"));
}

}  // namespace wb

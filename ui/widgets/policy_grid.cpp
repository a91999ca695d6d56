// SPDX-License-Identifier: Apache-2.0
#include "widgets/policy_grid.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>

#include "session/run_snapshot.h"
#include "views/topology_view.h"
#include "widgets/elided_label.h"

namespace wb {

PolicyGrid::PolicyGrid(int index, const QString& policy, const QColor& colour, QWidget* parent)
    : QFrame(parent), index_(index), policy_(policy), colour_(colour)
{
    setObjectName(QStringLiteral("policyGrid%1").arg(index));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(kBorder + 2, kBorder, kBorder + 2, kBorder + 2);
    layout->setSpacing(2);
    auto* header = new QHBoxLayout;
    swatch_ = new QLabel(QStringLiteral("<span style='color:%1'>&#9632;</span>").arg(colour.name()), this);
    // The name gives way (elided) to the figure: a long spec with switches
    // must not push the headline figure out of the header.
    title_ = new ElidedLabel(policy, this);
    title_->setObjectName(QStringLiteral("policyName"));
    QFont bold = title_->font();
    bold.setBold(true);
    title_->setFont(bold);
    figures_ = new QLabel(this);
    figures_->setObjectName(QStringLiteral("policyFigures"));
    figures_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    figures_->setTextFormat(Qt::PlainText);
    figures_->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Preferred);
    header->addWidget(swatch_);
    header->addWidget(title_, 1);
    header->addSpacing(8);
    header->addWidget(figures_);
    layout->addLayout(header);
    view_ = new TopologyView(this);
    view_->setObjectName(QStringLiteral("topologyView%1").arg(index));
    layout->addWidget(view_, 1);
}

PolicyGrid::~PolicyGrid() = default;

QString PolicyGrid::figuresText() const
{
    return figures_->text();
}

void PolicyGrid::showFigures(const RunSnapshot& snap)
{
    // The tool's own figure first ("usecs/op 3.407", "Time 0.009 s");
    // counts go to the tooltip, so that a narrow grid still shows it.
    const QString name = QString::fromStdString(snap.headline.name);
    const QString unit = QString::fromStdString(snap.headline.unit);
    QString text = QStringLiteral("%1 %2").arg(name).arg(snap.headline.value, 0, 'f', 3);
    if (!name.contains(QLatin1Char('/')) && !unit.isEmpty())
        text += QLatin1Char(' ') + unit;
    if (snap.finished)
        text += tr(" · done");
    figures_->setText(text);
    figures_->setToolTip(tr("%1 wakeups · %2 events · simulated %3 s")
                             .arg(snap.metrics.wakeups)
                             .arg(snap.events)
                             .arg(snap.now.to_seconds(), 0, 'f', 6));
}

void PolicyGrid::showFiguresText(const QString& text, const QString& tooltip)
{
    figures_->setText(text);
    figures_->setToolTip(tooltip);
}

QString PolicyGrid::shownName() const
{
    return title_->shownText();
}

// The frame is the policy's colour, the same as its chart series. Painted,
// not a style sheet: one would keep the window's font (presentation mode)
// from reaching the header.
void PolicyGrid::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(colour_, kBorder));
    painter.setBrush(Qt::NoBrush);
    const double inset = kBorder / 2.0;
    painter.drawRoundedRect(QRectF(rect()).adjusted(inset, inset, -inset, -inset), 6, 6);
}

}  // namespace wb

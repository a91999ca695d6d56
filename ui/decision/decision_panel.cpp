// SPDX-License-Identifier: Apache-2.0
#include "decision/decision_panel.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>

#include "decision/decision_details.h"
#include "decision/decision_diagram.h"

namespace wb {

namespace {

QToolButton* tool_button(QWidget* parent, const QString& name, const QString& text, const QString& tip)
{
    auto* b = new QToolButton(parent);
    b->setObjectName(name);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}

}  // namespace

DecisionPanel::DecisionPanel(QWidget* parent) : QWidget(parent)
{
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);

    tools_ = new QHBoxLayout;
    tools_->setContentsMargins(4, 0, 4, 0);
    tools_->setSpacing(2);
    column->addLayout(tools_);

    diagram_ = new DecisionDiagram(this);
    details_ = new DecisionDetails(this);
    details_->setObjectName(QStringLiteral("decisionDetails"));
    splitter_ = new QSplitter(Qt::Vertical, this);
    splitter_->setChildrenCollapsible(false);
    splitter_->addWidget(diagram_);
    splitter_->addWidget(details_);
    // The diagram is what the dock is for; the list is the reference.
    splitter_->setStretchFactor(0, 3);
    splitter_->setStretchFactor(1, 2);
    column->addWidget(splitter_, 1);
    setFocusProxy(diagram_);

    QToolButton* out = tool_button(this, QStringLiteral("diagramZoomOut"), QStringLiteral("\u2212"),
                                   tr("Zoom out, down to fit (Ctrl+-)"));
    QToolButton* in = tool_button(this, QStringLiteral("diagramZoomIn"), QStringLiteral("+"), tr("Zoom in (Ctrl+=)"));
    QToolButton* fit = tool_button(this, QStringLiteral("diagramFit"), tr("Fit"),
                                   tr("Lay the diagram out for the width at the normal font size (Ctrl+0)"));
    zoom_label_ = new QLabel(this);
    zoom_label_->setObjectName(QStringLiteral("diagramZoomLabel"));
    tools_->addWidget(out);
    tools_->addWidget(in);
    tools_->addWidget(fit);
    tools_->addWidget(zoom_label_);
    tools_->addStretch(1);
    connect(out, &QToolButton::clicked, diagram_, &DecisionDiagram::zoomOut);
    connect(in, &QToolButton::clicked, diagram_, &DecisionDiagram::zoomIn);
    connect(fit, &QToolButton::clicked, diagram_, &DecisionDiagram::fitToWidth);
    connect(diagram_, &DecisionDiagram::zoomChanged, this, &DecisionPanel::showZoom);
    connect(diagram_, &DecisionDiagram::recordsChanged, this, [this] { details_->showRecords(diagram_->records()); });
    showZoom(diagram_->zoom());
}

QToolButton* DecisionPanel::addToolAction(QAction* action)
{
    auto* b = new QToolButton(this);
    b->setDefaultAction(action);
    b->setAutoRaise(true);
    tools_->addWidget(b);
    return b;
}

void DecisionPanel::showZoom(double zoom)
{
    zoom_label_->setText(tr("%1 %").arg(std::lround(zoom * 100)));
}

void DecisionPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // Side by side once there is room for both at a readable width.
    const QSize s = event->size();
    const Qt::Orientation o = s.width() > s.height() * 5 / 4 && s.width() > 900 ? Qt::Horizontal : Qt::Vertical;
    if (o == splitter_->orientation())
        return;
    splitter_->setOrientation(o);
    // The sizes were for the other direction: share the new one 3 : 2.
    const int length = o == Qt::Horizontal ? splitter_->width() : splitter_->height();
    splitter_->setSizes({length * 3 / 5, length * 2 / 5});
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "decision/what_if_panel.h"

#include <QAction>
#include <QBrush>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSignalBlocker>
#include <QStringList>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "sched/features.h"

#include "decision/palette.h"
#include "divergence_text.h"

namespace wb {

namespace {

enum Column { kPolicy, kCpu, kKernel, kPath, kColumns };

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString steps_text(const DecisionRecord& rec)
{
    QStringList lines;
    for (const DecisionStep& s : rec.steps)
        lines << QStringLiteral("%1: %2 → %3").arg(qs(s.function), qs(s.branch)).arg(s.result);
    return lines.join(QLatin1Char('\n'));
}

}  // namespace

WhatIfPanel::WhatIfPanel(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    heading_ = new QLabel(this);
    heading_->setObjectName(QStringLiteral("whatIfHeading"));
    heading_->setWordWrap(true);
    top->addWidget(heading_, 1);
    // Mainline with a feature switched from the run's: the switch turns
    // the kernel's default around ("NO_SIS_UTIL" for a feature that is on).
    flip_ = new QToolButton(this);
    flip_->setObjectName(QStringLiteral("whatIfFlip"));
    flip_->setText(tr("Flip"));
    flip_->setToolTip(tr("Add mainline with a scheduler feature switched: a row each, asked in the same state"));
    flip_->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(flip_);
    for (const FeatInfo& f : kFeatInfo) {
        const QString name = QString::fromLatin1(f.name.data(), static_cast<qsizetype>(f.name.size()));
        QAction* a = menu->addAction(f.default_on ? QStringLiteral("NO_") + name : name);
        a->setCheckable(true);
        a->setToolTip(QString::fromLatin1(f.doc.data(), static_cast<qsizetype>(f.doc.size())));
        connect(a, &QAction::toggled, this, [this, menu] {
            QStringList on;
            for (QAction* item : menu->actions())
                if (item->isChecked())
                    on << item->text();
            flips_ = on;
            emit flipsChanged(flips_);
        });
    }
    menu->setToolTipsVisible(true);
    flip_->setMenu(menu);
    flip_->hide();
    top->addWidget(flip_, 0, Qt::AlignTop);
    layout->addLayout(top);
    table_ = new QTreeWidget(this);
    table_->setObjectName(QStringLiteral("whatIfTable"));
    table_->setRootIsDecorated(false);
    table_->setColumnCount(kColumns);
    table_->setHeaderLabels({tr("Policy"), tr("CPU"), tr("Kernel"), tr("Path")});
    table_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->header()->setStretchLastSection(true);
    layout->addWidget(table_, 1);
    connect(table_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (item)
            emit policyChosen(table_->indexOfTopLevelItem(item));
    });
    clear();
}

void WhatIfPanel::showChoices(const QString& heading, CpuId kernel_cpu,
                              const std::vector<std::pair<std::string, DecisionRecord>>& choices)
{
    heading_->setText(heading);
    kernel_cpu_ = kernel_cpu;
    choices_ = choices;
    const QSignalBlocker quiet(table_);
    table_->clear();
    table_->setColumnHidden(kKernel, kernel_cpu == kNoCpu);  // a simulated run has no kernel to compare with
    for (std::size_t i = 0; i < choices.size(); ++i) {
        const auto& [spec, rec] = choices[i];
        const QString policy = qs(spec);
        auto* item = new QTreeWidgetItem(table_);
        item->setText(kPolicy, policy);
        item->setForeground(kPolicy, QBrush(palette::policy_colour(static_cast<int>(i))));
        item->setText(kCpu, QString::number(rec.chosen));
        QString path = qs(wake_path_name(rec.path));
        const QString reason = choice_reason(rec, policy);
        // The branch, when it says more than the path's name ("idle cpu" after llc_scan).
        if (!reason.isEmpty() && QString(reason).replace(QLatin1Char(' '), QLatin1Char('_')) != path)
            path += QStringLiteral(" (%1)").arg(reason);
        item->setText(kPath, path);
        if (kernel_cpu != kNoCpu) {
            const bool differs = rec.chosen != kernel_cpu;
            // Short, so that the column shows whole in a narrow dock; the tooltip says more.
            item->setText(kKernel, differs ? tr("differs") : tr("same"));
            item->setToolTip(kKernel, differs ? tr("the kernel chose CPU %1").arg(kernel_cpu)
                                              : tr("the kernel's CPU too"));
            if (differs)
                for (int c = 0; c < kColumns; ++c) {
                    item->setBackground(c, QBrush(palette::divergence_background()));
                    if (c != kPolicy)
                        item->setForeground(c, QBrush(Qt::black));
                }
        }
        item->setToolTip(kPath, steps_text(rec));
    }
}

void WhatIfPanel::clear(const QString& why)
{
    heading_->setText(why.isEmpty() ? tr("Open a trace (File ▸ Open trace…) to see every policy's choice at each "
                                         "of its wakeups, in the state the kernel decided in.")
                                    : why);
    kernel_cpu_ = kNoCpu;
    choices_.clear();
    table_->clear();
}

int WhatIfPanel::rowCount() const
{
    return static_cast<int>(choices_.size());
}

QString WhatIfPanel::policyAt(int row) const
{
    return row >= 0 && row < rowCount() ? qs(choices_[static_cast<std::size_t>(row)].first) : QString();
}

CpuId WhatIfPanel::chosenAt(int row) const
{
    return row >= 0 && row < rowCount() ? choices_[static_cast<std::size_t>(row)].second.chosen : kNoCpu;
}

QString WhatIfPanel::pathAt(int row) const
{
    return row >= 0 && row < rowCount() ? table_->topLevelItem(row)->text(kPath) : QString();
}

bool WhatIfPanel::differsAt(int row) const
{
    return kernel_cpu_ != kNoCpu && chosenAt(row) != kNoCpu && chosenAt(row) != kernel_cpu_;
}

const DecisionRecord* WhatIfPanel::recordAt(int row) const
{
    return row >= 0 && row < rowCount() ? &choices_[static_cast<std::size_t>(row)].second : nullptr;
}

void WhatIfPanel::setFlipsOffered(bool on)
{
    flip_->setVisible(on);
}

void WhatIfPanel::setFlips(const QStringList& flips)
{
    for (QAction* a : flip_->menu()->actions()) {
        const QSignalBlocker quiet(a);
        a->setChecked(flips.contains(a->text()));
    }
    flips_.clear();
    for (QAction* a : flip_->menu()->actions())
        if (a->isChecked())
            flips_ << a->text();
    emit flipsChanged(flips_);
}

QString WhatIfPanel::heading() const
{
    return heading_->text();
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "decision/recent_wakeups.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QStringList>
#include <algorithm>

#include "decision/recent_wakeups_model.h"
#include "sched/decision.h"

namespace wb {

RecentWakeups::RecentWakeups(QWidget* parent) : QTableView(parent), model_(new RecentWakeupsModel(this))
{
    setModel(model_);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setAlternatingRowColors(true);
    setWordWrap(false);
    verticalHeader()->setVisible(false);
    // Fixed row heights let the view skip measuring thousands of rows.
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    horizontalHeader()->setStretchLastSection(true);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    // Widths from typical contents: measuring thousands of rows
    // (ResizeToContents) would cost more than the rows themselves.
    const QStringList samples{"0000000.000",    "sync-waker-v3",     "task 000",
                              "000 \u2192 000", "prev_aff_fallback", "smt_sibling"};
    const int icon = 2 * fontMetrics().height();
    for (int column = 0; column < RecentWakeupsModel::ColumnCount; ++column) {
        const QString header = model_->headerData(column, Qt::Horizontal).toString();
        int width = std::max(fontMetrics().horizontalAdvance(header), fontMetrics().horizontalAdvance(samples[column]));
        if (column == RecentWakeupsModel::PolicyColumn || column == RecentWakeupsModel::ClassColumn)
            width += icon;
        horizontalHeader()->resizeSection(column, width + 16);
    }
    connect(selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current, const QModelIndex&) { onCurrentRowChanged(current); });
    connect(this, &QAbstractItemView::activated, this, [this](const QModelIndex& index) {
        if (index.isValid())
            emitRow(index.row());
    });
}

RecentWakeups::~RecentWakeups() = default;

void RecentWakeups::setPolicies(const QStringList& names, const QList<QColor>& colours)
{
    model_->setPolicies(names, colours);
}

void RecentWakeups::setCapacity(int rows)
{
    updating_ = true;
    model_->setCapacity(rows);
    updating_ = false;
}

int RecentWakeups::capacity() const
{
    return model_->capacity();
}

bool RecentWakeups::atBottom() const
{
    const QScrollBar* bar = verticalScrollBar();
    return bar->value() >= bar->maximum() - 1;
}

void RecentWakeups::addRecord(int policy_index, const DecisionRecord& rec)
{
    const bool follow = atBottom();
    updating_ = true;
    model_->addRecord(policy_index, rec);
    updating_ = false;
    if (follow)
        scrollToBottom();
}

void RecentWakeups::addRecords(int policy_index, const std::vector<DecisionRecord>& recs)
{
    const bool follow = atBottom();
    updating_ = true;
    model_->addRecords(policy_index, recs);
    updating_ = false;
    if (follow)
        scrollToBottom();
}

void RecentWakeups::clear()
{
    updating_ = true;
    model_->clear();
    updating_ = false;
}

void RecentWakeups::markDivergence(std::uint64_t seq)
{
    model_->markDivergence(seq);
}

bool RecentWakeups::selectDivergence()
{
    for (int row = 0; row < model_->rowCount(); ++row) {
        if (model_->isDivergence(row)) {
            const QModelIndex index = model_->index(row, 0);
            scrollTo(index);
            if (currentIndex().row() == row)
                emitRow(row);
            else
                setCurrentIndex(index);
            return true;
        }
    }
    return false;
}

void RecentWakeups::onCurrentRowChanged(const QModelIndex& current)
{
    if (updating_ || !current.isValid())
        return;
    emitRow(current.row());
}

void RecentWakeups::emitRow(int row)
{
    if (row < 0 || row >= model_->rowCount())
        return;
    emit recordActivated(model_->policyAt(row), model_->recordAt(row));
}

}  // namespace wb

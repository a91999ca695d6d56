// SPDX-License-Identifier: Apache-2.0
#include "decision/recent_wakeups_model.h"

#include <QBrush>
#include <QFont>
#include <algorithm>

#include "decision/decision_text.h"
#include "decision/palette.h"

namespace wb {

namespace {

QString qstr(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

}  // namespace

RecentWakeupsModel::RecentWakeupsModel(QObject* parent) : QAbstractTableModel(parent) {}

void RecentWakeupsModel::setPolicies(const QStringList& names, const QList<QColor>& colours)
{
    names_ = names;
    colours_ = colours;
    if (!entries_.empty())
        emit dataChanged(index(0, PolicyColumn), index(rowCount() - 1, PolicyColumn));
}

void RecentWakeupsModel::setCapacity(int rows)
{
    capacity_ = std::max(1, rows);
    evict(0);
}

void RecentWakeupsModel::evict(std::size_t incoming)
{
    const auto cap = static_cast<std::size_t>(capacity_);
    const std::size_t total = entries_.size() + std::min(incoming, cap);
    if (total <= cap)
        return;
    const std::size_t drop = std::min(total - cap, entries_.size());
    if (drop == 0)
        return;
    beginRemoveRows({}, 0, static_cast<int>(drop) - 1);
    entries_.erase(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(drop));
    endRemoveRows();
}

void RecentWakeupsModel::addRecord(int policy_index, const DecisionRecord& rec)
{
    evict(1);
    const int row = rowCount();
    beginInsertRows({}, row, row);
    entries_.push_back({policy_index, rec});
    endInsertRows();
}

void RecentWakeupsModel::addRecords(int policy_index, const std::vector<DecisionRecord>& recs)
{
    if (recs.empty())
        return;
    // Only the newest `capacity` of a large batch would survive: skip the rest.
    const std::size_t keep = std::min(recs.size(), static_cast<std::size_t>(capacity_));
    evict(keep);
    const int first = rowCount();
    beginInsertRows({}, first, first + static_cast<int>(keep) - 1);
    for (auto it = recs.end() - static_cast<std::ptrdiff_t>(keep); it != recs.end(); ++it)
        entries_.push_back({policy_index, *it});
    endInsertRows();
}

void RecentWakeupsModel::clear()
{
    beginResetModel();
    entries_.clear();
    divergence_.reset();
    endResetModel();
}

void RecentWakeupsModel::markDivergence(std::uint64_t seq)
{
    divergence_ = seq;
    if (!entries_.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

bool RecentWakeupsModel::isDivergence(int row) const
{
    return divergence_ && row >= 0 && row < rowCount() &&
           entries_[static_cast<std::size_t>(row)].rec.seq == *divergence_;
}

int RecentWakeupsModel::policyAt(int row) const
{
    return entries_.at(static_cast<std::size_t>(row)).policy;
}

const DecisionRecord& RecentWakeupsModel::recordAt(int row) const
{
    return entries_.at(static_cast<std::size_t>(row)).rec;
}

int RecentWakeupsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(entries_.size());
}

int RecentWakeupsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString RecentWakeupsModel::policyName(int policy) const
{
    return policy >= 0 && policy < names_.size() ? names_[policy] : QStringLiteral("policy %1").arg(policy);
}

QColor RecentWakeupsModel::policyColour(int policy) const
{
    return policy >= 0 && policy < colours_.size() ? colours_[policy] : palette::policy_colour(policy);
}

QVariant RecentWakeupsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const Entry& e = entries_[static_cast<std::size_t>(index.row())];
    const DecisionRecord& r = e.rec;
    const bool diverged = divergence_ && r.seq == *divergence_;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return QString::number(r.time.to_us(), 'f', 3);
        case PolicyColumn:
            return policyName(e.policy);
        case WakeeColumn:
            return task_text(r.wakee);
        case CpusColumn:
            return QStringLiteral("%1 \u2192 %2")
                .arg(r.waker_cpu == kNoCpu ? QStringLiteral("-") : QString::number(r.waker_cpu),
                     r.chosen == kNoCpu ? QStringLiteral("-") : QString::number(r.chosen));
        case PathColumn:
            return qstr(wake_path_name(r.path));
        case ClassColumn:
            return qstr(distance_class_name(r.from_waker));
        }
        return {};
    case Qt::DecorationRole:
        if (index.column() == PolicyColumn)
            return policyColour(e.policy);
        if (index.column() == ClassColumn)
            return palette::distance_colour(r.from_waker);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == TimeColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::FontRole:
        if (diverged) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::BackgroundRole:
        if (diverged)
            return QBrush(palette::divergence_background());
        return {};
    case Qt::ToolTipRole: {
        QString tip = QStringLiteral("wakeup #%1 at %2: %3 on %4 wakes %5 (prev %6, %7); target %8, chosen %9 via %10")
                          .arg(r.seq)
                          .arg(time_text(r.time), waker_text(r), cpu_text(r.waker_cpu), task_text(r.wakee),
                               cpu_text(r.prev_cpu), wake_flags_text(r.wake_flags), cpu_text(r.target),
                               cpu_text(r.chosen), qstr(wake_path_name(r.path)));
        if (diverged)
            tip += QStringLiteral("\nfirst wakeup where the policies decided differently");
        return tip;
    }
    default:
        return {};
    }
}

QVariant RecentWakeupsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn:
        return QStringLiteral("Time (\u00b5s)");
    case PolicyColumn:
        return QStringLiteral("Policy");
    case WakeeColumn:
        return QStringLiteral("Wakee");
    case CpusColumn:
        return QStringLiteral("Waker \u2192 CPU");
    case PathColumn:
        return QStringLiteral("Path");
    case ClassColumn:
        return QStringLiteral("Class");
    }
    return {};
}

}  // namespace wb

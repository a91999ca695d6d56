// SPDX-License-Identifier: Apache-2.0
//
// RecentWakeupsModel: the last N decision records of one or more policies,
// oldest first, one row each: time, policy, wakee, waker CPU -> chosen CPU,
// path, distance class. Bounded: adding past the capacity drops the oldest
// rows, so a long run costs no more memory than a short one. The first
// wakeup where the policies diverged can be marked, and stays marked while
// it is held.
#pragma once

#include <QAbstractTableModel>
#include <QColor>
#include <QList>
#include <QStringList>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "sched/decision.h"

namespace wb {

class RecentWakeupsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { TimeColumn, PolicyColumn, WakeeColumn, CpusColumn, PathColumn, ClassColumn, ColumnCount };
    static constexpr int kDefaultCapacity = 2000;

    explicit RecentWakeupsModel(QObject* parent = nullptr);

    void setPolicies(const QStringList& names, const QList<QColor>& colours);
    // Drops the oldest rows beyond `rows` (at least 1).
    void setCapacity(int rows);
    int capacity() const { return capacity_; }

    void addRecord(int policy_index, const DecisionRecord& rec);
    void addRecords(int policy_index, const std::vector<DecisionRecord>& recs);
    void clear();

    // Marks the rows of wakeup `seq` (one per policy) as the first divergence.
    void markDivergence(std::uint64_t seq);
    std::optional<std::uint64_t> divergence() const { return divergence_; }
    bool isDivergence(int row) const;

    int policyAt(int row) const;
    const DecisionRecord& recordAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Entry {
        int policy = 0;
        DecisionRecord rec;
    };

    void evict(std::size_t incoming);
    QString policyName(int policy) const;
    QColor policyColour(int policy) const;

    std::deque<Entry> entries_;
    QStringList names_;
    QList<QColor> colours_;
    int capacity_ = kDefaultCapacity;
    std::optional<std::uint64_t> divergence_;
};

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// RecentWakeups: the list of recent wakeups beside the decision diagram,
// for one or more policies (RecentWakeupsModel holds the last N). Selecting
// a row emits recordActivated so that the window replays that record in the
// diagram; double-clicking a row replays it again. While the newest row is
// in view the list follows new rows; once the user scrolls up it stays put.
#pragma once

#include <QColor>
#include <QList>
#include <QStringList>
#include <QTableView>
#include <cstdint>
#include <vector>

Q_MOC_INCLUDE("sched/decision.h")

namespace wb {

struct DecisionRecord;
class RecentWakeupsModel;

class RecentWakeups : public QTableView {
    Q_OBJECT

public:
    explicit RecentWakeups(QWidget* parent = nullptr);
    ~RecentWakeups() override;

    // Names and colours of the policies, by policy index.
    void setPolicies(const QStringList& names, const QList<QColor>& colours);
    void setCapacity(int rows);  // default 2000
    int capacity() const;

    void addRecord(int policy_index, const DecisionRecord& rec);
    void addRecords(int policy_index, const std::vector<DecisionRecord>& recs);
    void clear();
    // The first wakeup (by seq) where the policies decided differently.
    void markDivergence(std::uint64_t seq);
    // Selects the divergence's first row (emitting recordActivated); false
    // if it is no longer held.
    bool selectDivergence();

    RecentWakeupsModel* wakeupsModel() const { return model_; }

signals:
    void recordActivated(int policy_index, const wb::DecisionRecord& rec);

private:
    void onCurrentRowChanged(const QModelIndex& current);
    void emitRow(int row);
    bool atBottom() const;

    RecentWakeupsModel* model_ = nullptr;
    // Rows shift when the oldest are dropped: that moves the current row
    // without the user choosing a record, so it must not replay one.
    bool updating_ = false;
};

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include <QAbstractItemModelTester>
#include <QFont>
#include <QObject>
#include <QTest>
#include <vector>

#include "decision/palette.h"
#include "decision/recent_wakeups.h"
#include "decision/recent_wakeups_model.h"
#include "sched/decision.h"

namespace wb {
namespace {

DecisionRecord record(std::uint64_t seq, CpuId waker_cpu = 1, CpuId chosen = 5)
{
    DecisionRecord r;
    r.seq = seq;
    r.time = Time::ns(static_cast<std::int64_t>(1000 + 250 * seq));
    r.waker = 0;
    r.wakee = 1;
    r.waker_cpu = waker_cpu;
    r.prev_cpu = chosen;
    r.chosen = chosen;
    r.target = waker_cpu;
    r.path = WakePath::LlcScan;
    r.from_waker = DistanceClass::Llc;
    r.steps = {{"select_idle_cpu", "idle cpu", "cpu 5 idle", chosen}};
    return r;
}

struct Activation {
    int policy = -1;
    std::uint64_t seq = 0;
    std::size_t steps = 0;
};

}  // namespace

class RecentWakeupsTest : public QObject {
    Q_OBJECT

private slots:
    void keepsOnlyTheNewestRows()
    {
        RecentWakeups list;
        QAbstractItemModelTester tester(list.wakeupsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(list.capacity(), 2000);
        list.setCapacity(5);
        for (std::uint64_t seq = 0; seq < 12; ++seq)
            list.addRecord(0, record(seq));
        const RecentWakeupsModel* m = list.wakeupsModel();
        QCOMPARE(m->rowCount(), 5);
        QCOMPARE(m->recordAt(0).seq, 7u);
        QCOMPARE(m->recordAt(4).seq, 11u);

        // A batch larger than the list keeps its newest records.
        std::vector<DecisionRecord> batch;
        for (std::uint64_t seq = 100; seq < 108; ++seq)
            batch.push_back(record(seq));
        list.addRecords(1, batch);
        QCOMPARE(m->rowCount(), 5);
        QCOMPARE(m->recordAt(0).seq, 103u);
        QCOMPARE(m->policyAt(0), 1);
        QCOMPARE(m->recordAt(4).seq, 107u);
    }

    void defaultBoundIsTwoThousand()
    {
        RecentWakeups list;
        std::vector<DecisionRecord> batch;
        for (std::uint64_t seq = 0; seq < 1500; ++seq)
            batch.push_back(record(seq));
        list.addRecords(0, batch);
        list.addRecords(1, batch);
        QCOMPARE(list.wakeupsModel()->rowCount(), 2000);
        QCOMPARE(list.wakeupsModel()->recordAt(0).seq, 1000u);
        QCOMPARE(list.wakeupsModel()->policyAt(0), 0);
        QCOMPARE(list.wakeupsModel()->policyAt(1999), 1);
    }

    void showsTheRecordsFacts()
    {
        RecentWakeups list;
        list.setPolicies({"baseline", "sync-waker-v3"}, {palette::policy_colour(0), palette::policy_colour(1)});
        list.addRecord(1, record(3, 2, 6));
        const RecentWakeupsModel* m = list.wakeupsModel();
        auto text = [m](int column) { return m->index(0, column).data().toString(); };
        QCOMPARE(text(RecentWakeupsModel::TimeColumn), QStringLiteral("1.750"));
        QCOMPARE(text(RecentWakeupsModel::PolicyColumn), QStringLiteral("sync-waker-v3"));
        QCOMPARE(text(RecentWakeupsModel::WakeeColumn), QStringLiteral("task 1"));
        QCOMPARE(text(RecentWakeupsModel::CpusColumn), QStringLiteral("2 \u2192 6"));
        QCOMPARE(text(RecentWakeupsModel::PathColumn), QStringLiteral("llc_scan"));
        QCOMPARE(text(RecentWakeupsModel::ClassColumn), QStringLiteral("llc"));
        QCOMPARE(m->index(0, RecentWakeupsModel::PolicyColumn).data(Qt::DecorationRole).value<QColor>(),
                 palette::policy_colour(1));
        QCOMPARE(m->index(0, RecentWakeupsModel::ClassColumn).data(Qt::DecorationRole).value<QColor>(),
                 palette::distance_colour(DistanceClass::Llc));
        QCOMPARE(m->headerData(RecentWakeupsModel::TimeColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Time (\u00b5s)"));
    }

    void selectingARowActivatesItsRecord()
    {
        RecentWakeups list;
        list.resize(600, 300);
        list.show();
        QVERIFY(QTest::qWaitForWindowExposed(&list));
        Activation got;
        int activations = 0;
        connect(&list, &RecentWakeups::recordActivated, this, [&](int policy, const DecisionRecord& r) {
            got = {policy, r.seq, r.steps.size()};
            ++activations;
        });
        list.addRecord(0, record(1));
        list.addRecord(1, record(1));
        list.addRecord(0, record(2));

        const QRect row = list.visualRect(list.wakeupsModel()->index(1, RecentWakeupsModel::PathColumn));
        QTest::mouseClick(list.viewport(), Qt::LeftButton, {}, row.center());
        QCOMPARE(activations, 1);
        QCOMPARE(got.policy, 1);
        QCOMPARE(got.seq, 1u);
        QCOMPARE(got.steps, 1u);

        // Dropping old rows moves the current row without the user: no replay.
        list.setCapacity(3);
        for (std::uint64_t seq = 3; seq < 6; ++seq)
            list.addRecord(0, record(seq));
        QCOMPARE(activations, 1);

        list.selectRow(2);
        QCOMPARE(activations, 2);
        QCOMPARE(got.seq, list.wakeupsModel()->recordAt(2).seq);
    }

    void marksAndSelectsTheFirstDivergence()
    {
        RecentWakeups list;
        Activation got;
        connect(&list, &RecentWakeups::recordActivated, this, [&](int policy, const DecisionRecord& r) {
            got = {policy, r.seq, r.steps.size()};
        });
        for (std::uint64_t seq = 1; seq <= 4; ++seq) {
            list.addRecord(0, record(seq, 1, 5));
            list.addRecord(1, record(seq, 1, seq == 3 ? 1 : 5));
        }
        const RecentWakeupsModel* m = list.wakeupsModel();
        list.markDivergence(3);
        int marked = 0;
        for (int row = 0; row < m->rowCount(); ++row) {
            const bool diverged = m->isDivergence(row);
            marked += diverged;
            QCOMPARE(diverged, m->recordAt(row).seq == 3u);
            QCOMPARE(m->index(row, 0).data(Qt::FontRole).value<QFont>().bold(), diverged);
        }
        QCOMPARE(marked, 2);
        QVERIFY(list.selectDivergence());
        QCOMPARE(got.seq, 3u);
        QCOMPARE(got.policy, 0);

        list.clear();
        QCOMPARE(m->rowCount(), 0);
        QVERIFY(!list.selectDivergence());
    }
};

}  // namespace wb

QTEST_MAIN(wb::RecentWakeupsTest)
#include "recent_wakeups_test.moc"

// SPDX-License-Identifier: Apache-2.0
#include <QObject>
#include <QSignalSpy>
#include <QTest>

#include "io/topology_library.h"
#include "topology/machine.h"
#include "topology/sched_domains.h"
#include "widgets/domain_panel.h"

namespace wb {

class DomainPanelTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // teaching-8's shape: 2 LLCs x 2 cores x SMT-2, core-major.
        machine_ = resolve_machine("synthetic:llc=2,core=2,smt=2");
        domains_ = SchedDomains::build(machine_);
    }

    void listsTheDomainsBottomUp()
    {
        DomainPanel panel;
        panel.showCpu(machine_, domains_, 5);
        QCOMPARE(panel.domainCount(), 3);
        QCOMPARE(panel.levelName(0), QStringLiteral("SMT"));
        QCOMPARE(panel.levelName(1), QStringLiteral("MC"));
        QCOMPARE(panel.levelName(2), QStringLiteral("PKG"));
        QCOMPARE(panel.spanText(0), QStringLiteral("4-5"));
        QCOMPARE(panel.spanText(1), QStringLiteral("4-7"));
        QCOMPARE(panel.spanText(2), QStringLiteral("0-7"));
        QCOMPARE(panel.spanWeight(1), 4);
        QCOMPARE(panel.imbalancePct(0), 110);
        QCOMPARE(panel.imbalancePct(1), 117);

        const QStringList smt = panel.flagNames(0);
        QVERIFY2(smt.contains(QStringLiteral("SD_SHARE_CPUCAPACITY")), qPrintable(smt.join(' ')));
        QVERIFY(smt.contains(QStringLiteral("SD_SHARE_LLC")));
        QVERIFY(!panel.flagNames(2).contains(QStringLiteral("SD_SHARE_LLC")));
        QVERIFY(panel.flagNames(2).contains(QStringLiteral("SD_WAKE_AFFINE")));
        QVERIFY2(panel.shortcutsText().contains(QStringLiteral("sd_llc: MC (sd_llc_size 4, sd_llc_id 4)")),
                 qPrintable(panel.shortcutsText()));
    }

    void selectsTheLlcUntilTheUserPicks()
    {
        DomainPanel panel;
        QSignalSpy spy(&panel, &DomainPanel::domainSelected);
        panel.showCpu(machine_, domains_, 5);
        QCOMPARE(panel.selectedRow(), 1);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.last().at(0).toInt(), domains_.shortcuts(5).sd_llc);

        panel.selectRow(0);
        QCOMPARE(spy.last().at(0).toInt(), domains_.domains_of(5).front());

        // The picked level follows the CPU: SMT of CPU 1 is {0, 1}.
        panel.showCpu(machine_, domains_, 1);
        QCOMPARE(panel.selectedRow(), 0);
        const int id = spy.last().at(0).toInt();
        QCOMPARE(domains_.domain(id).span, CpuMask::range(8, 0, 1));

        panel.selectRow(-1);
        QCOMPARE(spy.last().at(0).toInt(), -1);
    }

    void clearForgetsEverything()
    {
        DomainPanel panel;
        panel.showCpu(machine_, domains_, 2);
        panel.selectRow(2);
        panel.clear();
        QCOMPARE(panel.domainCount(), 0);
        QCOMPARE(panel.selectedRow(), -1);
        panel.showCpu(machine_, domains_, 2);
        QCOMPARE(panel.selectedRow(), 1);  // back to the LLC
    }

    void outOfRangeCpuShowsNothing()
    {
        DomainPanel panel;
        QSignalSpy spy(&panel, &DomainPanel::domainSelected);
        panel.showCpu(machine_, domains_, 8);
        QCOMPARE(panel.domainCount(), 0);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.last().at(0).toInt(), -1);
    }

private:
    Machine machine_;
    SchedDomains domains_;
};

}  // namespace wb

QTEST_MAIN(wb::DomainPanelTest)
#include "domain_panel_test.moc"

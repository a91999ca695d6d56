// SPDX-License-Identifier: Apache-2.0
//
// The Open trace dialog: the scenario's machine and policies by default,
// the policy list read as wakesim's --policies reads it, and a machine file
// or lscpu output named so that the window can tell them apart.
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QPushButton>
#include <QTest>

#include "widgets/trace_open_dialog.h"

namespace wb {

class TraceOpenDialogTest : public QObject {
    Q_OBJECT

private slots:
    void defaultsToTheScenarios()
    {
        TraceOpenDialog d(QStringLiteral("teaching-8"), {QStringLiteral("baseline"), QStringLiteral("sync-waker-v3")});
        auto* ok = d.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QVERIFY(!ok->isEnabled());  // no file yet
        d.findChild<QLineEdit*>(QStringLiteral("tracePath"))->setText(QStringLiteral("/tmp/t.txt"));
        QVERIFY(ok->isEnabled());
        const TraceRequest r = d.request();
        QCOMPARE(r.path, QStringLiteral("/tmp/t.txt"));
        QVERIFY(r.machine.isEmpty());
        QCOMPARE(r.policies, (QStringList{QStringLiteral("baseline"), QStringLiteral("sync-waker-v3")}));
    }

    void readsPoliciesAsWakesimDoes()
    {
        TraceOpenDialog d(QStringLiteral("m"), {});
        d.findChild<QLineEdit*>(QStringLiteral("tracePolicies"))
            ->setText(QStringLiteral("baseline, sync-waker-v3:smt_check=off,x=1,prefer-idle-prev-llc"));
        QCOMPARE(d.request().policies, (QStringList{QStringLiteral("baseline"),
                                                    QStringLiteral("sync-waker-v3:smt_check=off,x=1"),
                                                    QStringLiteral("prefer-idle-prev-llc")}));
    }

    void namesTheMachine()
    {
        TraceOpenDialog d(QStringLiteral("m"), {QStringLiteral("baseline")});
        d.findChild<QLineEdit*>(QStringLiteral("tracePath"))->setText(QStringLiteral("t.txt"));
        auto* machine = d.findChild<QComboBox*>(QStringLiteral("traceMachine"));
        auto* file = d.findChild<QLineEdit*>(QStringLiteral("traceMachineFile"));
        auto* ok = d.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QVERIFY(!file->isEnabled());
        machine->setCurrentIndex(2);  // lscpu -p output
        QVERIFY(file->isEnabled());
        QVERIFY(!ok->isEnabled());  // which file?
        file->setText(QStringLiteral("lscpu.txt"));
        QVERIFY(ok->isEnabled());
        QCOMPARE(d.request().machine, QStringLiteral("lscpu:lscpu.txt"));
        machine->setCurrentIndex(1);  // a machine file
        QCOMPARE(d.request().machine, QStringLiteral("lscpu.txt"));
        // A shipped machine by its name, after the separator.
        if (machine->count() > 4) {
            machine->setCurrentIndex(4);
            QVERIFY(!file->isEnabled());
            QCOMPARE(d.request().machine, machine->currentText());
        }
    }
};

}  // namespace wb

QTEST_MAIN(wb::TraceOpenDialogTest)
#include "trace_open_dialog_test.moc"

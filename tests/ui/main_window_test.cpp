// SPDX-License-Identifier: Apache-2.0
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QObject>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include "io/topology_library.h"
#include "main_window.h"
#include "topology/machine.h"
#include "topology/sched_domains.h"
#include "views/topology_scene.h"
#include "views/topology_view.h"
#include "widgets/domain_panel.h"

namespace wb {

class MainWindowTest : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        errors_.clear();
        window_ = new MainWindow;
        window_->setErrorHandler([this](const QString& title, const QString& message) {
            errors_ << title + QStringLiteral(": ") + message;
        });
        window_->resize(1280, 800);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_));
        QVERIFY(window_->loadMachine(QStringLiteral("teaching-8")));
    }

    void cleanup() { delete window_; }

    void statusNamesTheMachine()
    {
        QCOMPARE(window_->statusText(), QStringLiteral("teaching-8 · 8 CPUs · 2 LLCs"));
        QVERIFY(window_->windowTitle().contains(QStringLiteral("teaching-8")));
        auto* combo = window_->findChild<QComboBox*>(QStringLiteral("shippedMachines"));
        QVERIFY(combo);
        QCOMPARE(combo->count(), static_cast<int>(list_shipped_topologies().size()));
        QCOMPARE(combo->currentText(), QStringLiteral("teaching-8"));
    }

    void selectingCpu5ShowsItsDomains()
    {
        window_->selectCpu(5);
        const DomainPanel* panel = window_->domainPanel();
        QCOMPARE(panel->domainCount(), 3);
        QCOMPARE(panel->levelName(0), QStringLiteral("SMT"));
        QCOMPARE(panel->levelName(1), QStringLiteral("MC"));
        QCOMPARE(panel->levelName(2), QStringLiteral("PKG"));
        QCOMPARE(panel->spanText(0), QStringLiteral("4-5"));
        QCOMPARE(panel->spanText(1), QStringLiteral("4-7"));
        QCOMPARE(panel->spanText(2), QStringLiteral("0-7"));
    }

    void clickingCpu5ShowsItsDomains()
    {
        TopologyView* view = window_->topologyView();
        const QPoint at = view->mapFromScene(view->topologyScene()->layout().cells[5].center());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier, at);
        QCOMPARE(view->selectedCpu(), 5);
        QCOMPARE(window_->domainPanel()->domainCount(), 3);
        QCOMPARE(window_->domainPanel()->spanText(0), QStringLiteral("4-5"));
    }

    void selectedDomainIsOutlinedOnTheGrid()
    {
        window_->selectCpu(5);
        TopologyScene* scene = window_->topologyView()->topologyScene();
        // The LLC is preselected.
        QCOMPARE(scene->highlightedSpan(), CpuMask::range(8, 4, 7));
        window_->domainPanel()->selectRow(0);
        QCOMPARE(scene->highlightedSpan(), CpuMask::range(8, 4, 5));
        QCOMPARE(scene->spanOutline().size(), std::size_t{1});
        window_->selectCpu(-1);
        QVERIFY(scene->highlightedSpan().empty());
        QCOMPARE(window_->domainPanel()->domainCount(), 0);
    }

    void badMachineFileIsReportedAndThePreviousMachineStays()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("broken.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\n  \"schema_version\": 1,\n  \"name\": \"broken\",\n  \"nodes\": [ {\n");
        file.close();

        window_->selectCpu(5);
        QVERIFY(!window_->loadMachine(path));
        QCOMPARE(errors_.size(), 1);
        QVERIFY2(errors_.front().contains(path), qPrintable(errors_.front()));
        QVERIFY2(errors_.front().contains(QStringLiteral("Still showing teaching-8")), qPrintable(errors_.front()));

        QCOMPARE(QString::fromStdString(window_->machine().name), QStringLiteral("teaching-8"));
        QCOMPARE(window_->topologyView()->topologyScene()->nrCpus(), 8);
        QCOMPARE(window_->statusText(), QStringLiteral("teaching-8 · 8 CPUs · 2 LLCs"));
        QCOMPARE(window_->topologyView()->selectedCpu(), 5);
        QCOMPARE(window_->domainPanel()->domainCount(), 3);
    }

    void unknownMachineNameIsReported()
    {
        QVERIFY(!window_->loadMachine(QStringLiteral("no-such-machine")));
        QCOMPARE(errors_.size(), 1);
        QVERIFY2(errors_.front().contains(QStringLiteral("no-such-machine")), qPrintable(errors_.front()));
        QCOMPARE(window_->machineSpec(), QStringLiteral("teaching-8"));
    }

    void syntheticSpecFromTheLineEdit()
    {
        auto* edit = window_->findChild<QLineEdit*>(QStringLiteral("syntheticSpec"));
        QVERIFY(edit);
        edit->setText(QStringLiteral("node=2,llc=2,core=2,smt=2"));  // the prefix is optional here
        QTest::keyClick(edit, Qt::Key_Return);
        QVERIFY2(errors_.isEmpty(), qPrintable(errors_.join('\n')));
        QCOMPARE(window_->machine().nr_cpus(), 16);
        QVERIFY2(window_->statusText().contains(QStringLiteral("16 CPUs · 4 LLCs")), qPrintable(window_->statusText()));
        QCOMPARE(window_->topologyView()->topologyScene()->nrCpus(), 16);
        QCOMPARE(window_->findChild<QComboBox*>(QStringLiteral("shippedMachines"))->currentIndex(), -1);

        edit->setText(QStringLiteral("synthetic:core=0"));
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(errors_.size(), 1);
        QCOMPARE(window_->machine().nr_cpus(), 16);
    }

    void shippedMachineFromTheCombo()
    {
        auto* combo = window_->findChild<QComboBox*>(QStringLiteral("shippedMachines"));
        const int index = combo->findText(QStringLiteral("ampere-altra-80"));
        QVERIFY(index >= 0);
        combo->setCurrentIndex(index);
        emit combo->activated(index);
        QCOMPARE(window_->machine().nr_cpus(), 80);
        QCOMPARE(window_->statusText(), QStringLiteral("ampere-altra-80 · 80 CPUs · 1 LLC"));
    }

private:
    MainWindow* window_ = nullptr;
    QStringList errors_;
};

}  // namespace wb

QTEST_MAIN(wb::MainWindowTest)
#include "main_window_test.moc"

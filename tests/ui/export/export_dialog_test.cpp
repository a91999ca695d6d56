// SPDX-License-Identifier: Apache-2.0
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QObject>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "charts/charts_panel.h"
#include "charts/throughput_chart.h"
#include "export/export_dialog.h"
#include "io/scenario_json.h"
#include "main_window.h"
#include "sim/sim_session.h"

namespace wb {

namespace {

QPushButton* ok_button(ExportDialog& dialog)
{
    return dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
}

QAction* export_action(MainWindow& window)
{
    for (QAction* a : window.actions())
        if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_E))
            return a;
    return nullptr;
}

}  // namespace

class ExportDialogTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void presetsAndCustomSizes()
    {
        ExportDialog dialog(QStringLiteral("the decision diagram"));
        auto* preset = dialog.findChild<QComboBox*>(QStringLiteral("exportPreset"));
        auto* width = dialog.findChild<QSpinBox*>(QStringLiteral("exportWidth"));
        auto* height = dialog.findChild<QSpinBox*>(QStringLiteral("exportHeight"));
        QVERIFY(preset && width && height);
        QCOMPARE(dialog.pictureSize(), QSize(1920, 1080));
        QVERIFY(!width->isEnabled());
        preset->setCurrentIndex(1);
        QCOMPARE(dialog.pictureSize(), QSize(1280, 720));
        preset->setCurrentIndex(preset->count() - 1);
        QVERIFY(width->isEnabled() && height->isEnabled());
        width->setValue(2400);
        height->setValue(1000);
        QCOMPARE(dialog.pictureSize(), QSize(2400, 1000));
        dialog.setPictureSize({1280, 720});
        QCOMPARE(preset->currentIndex(), 1);
        QVERIFY(!width->isEnabled());
    }

    // The name picks the format; OK waits for one it can write.
    void theFileNamePicksTheFormat()
    {
        ExportDialog dialog(QStringLiteral("Throughput over simulated time"));
        QVERIFY2(dialog.path().endsWith(QStringLiteral("wakebench-throughput-over-simulated-time.png")),
                 qPrintable(dialog.path()));
        QVERIFY(ok_button(dialog)->isEnabled());
        dialog.setPath(QStringLiteral("/tmp/slide.jpg"));
        QVERIFY(!ok_button(dialog)->isEnabled());
        QVERIFY(dialog.findChild<QLabel*>(QStringLiteral("exportFormat"))->text().contains(QStringLiteral(".svg")));
        dialog.setPath(QStringLiteral("/tmp/slide.SVG"));
        QVERIFY(ok_button(dialog)->isEnabled());
    }

    // Ctrl+E on the throughput chart: the picture has the dialog's size and
    // the composition's title and legend, not the dock's strip.
    void ctrlEExportsTheFocusedChartAtTheChosenSize()
    {
        MainWindow window;
        QStringList errors;
        window.setErrorHandler([&](const QString& title, const QString& message) { errors << title + message; });
        window.setRemembering(false);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        Scenario s;
        s.name = "export-test";
        s.machine = "teaching-8";
        s.cases = {{"pipe", "pipe:loops=2000"}};
        s.policies = {"baseline", "sync-waker-v3"};
        QSignalSpy frames(window.session(), &SimSession::frameReady);
        QVERIFY(window.setScenario(s));
        QVERIFY(frames.wait(20000));
        QSignalSpy stopped(window.session(), &SimSession::stopped);
        window.runTo(Time::ms(1));
        QVERIFY(stopped.wait(20000));

        ThroughputChart* chart = window.chartsPanel()->throughput();
        window.chartsPanel()->setCurrentWidget(chart);
        chart->setFocus();
        QCOMPARE(window.focusedView(), chart);
        const QSizeF docked = chart->chart()->size();

        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("throughput.svg"));
        bool answered = false;
        QTimer::singleShot(0, &window, [&] {
            auto* dialog = qobject_cast<ExportDialog*>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            dialog->setPictureSize({1280, 720});
            dialog->setPath(svg);
            answered = true;
            dialog->accept();
        });
        QAction* action = export_action(window);
        QVERIFY(action);
        action->trigger();
        QVERIFY(answered);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        QVERIFY(text.contains(QStringLiteral("viewBox=\"0 0 1280 720\"")));
        QVERIFY(text.contains(QStringLiteral("export-test")));
        QVERIFY(text.contains(QStringLiteral("pipe: pipe:loops=2000")));
        // The simulated time as the status bar writes it ("simulated 1.000 ms").
        const QString time = window.simStatusText().section(QStringLiteral(" | "), 0, 0);
        QVERIFY2(time.startsWith(QStringLiteral("simulated ")) && text.contains(time), qPrintable(time));
        QVERIFY(text.contains(QStringLiteral(">baseline<")));
        QVERIFY(text.contains(QStringLiteral("usecs/op")));
        QVERIFY(text.contains(QStringLiteral("simulated time (ms)")));
        // The window's chart keeps its dock's size.
        QCOMPARE(chart->chart()->size(), docked);
    }
};

}  // namespace wb

QTEST_MAIN(wb::ExportDialogTest)
#include "export_dialog_test.moc"

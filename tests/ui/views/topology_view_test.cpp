// SPDX-License-Identifier: Apache-2.0
#include <QApplication>
#include <QMouseEvent>
#include <QObject>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

#include "io/topology_library.h"
#include "topology/machine.h"
#include "views/topology_scene.h"
#include "views/topology_view.h"

namespace wb {
namespace {

void send_mouse(QWidget* target, QEvent::Type type, QPoint pos, Qt::MouseButtons buttons)
{
    const Qt::MouseButton button = type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton;
    QMouseEvent event(type, QPointF(pos), QPointF(target->mapToGlobal(pos)), button, buttons, Qt::NoModifier);
    QApplication::sendEvent(target, &event);
}

void send_wheel(QWidget* target, QPoint pos, int delta)
{
    QWheelEvent event(QPointF(pos), QPointF(target->mapToGlobal(pos)), QPoint(), QPoint(0, delta), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &event);
}

}  // namespace

class TopologyViewTest : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        view_ = new TopologyView;
        view_->resize(800, 600);
        view_->show();
        QVERIFY(QTest::qWaitForWindowExposed(view_));
        view_->setMachine(resolve_machine("synthetic:llc=2,core=2,smt=2"));
    }

    void cleanup() { delete view_; }

    void fitsTheWholeMachine()
    {
        const QRectF visible = view_->mapToScene(view_->viewport()->rect()).boundingRect();
        QVERIFY(visible.contains(view_->topologyScene()->layout().bounds));
    }

    void clickSelectsTheCpuUnderThePointer()
    {
        QSignalSpy spy(view_, &TopologyView::cpuSelected);
        const QPoint at = view_->mapFromScene(view_->topologyScene()->layout().cells[5].center());
        send_mouse(view_->viewport(), QEvent::MouseButtonPress, at, Qt::LeftButton);
        send_mouse(view_->viewport(), QEvent::MouseButtonRelease, at, Qt::NoButton);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), 5);
        QCOMPARE(view_->selectedCpu(), 5);

        // A second click on the same CPU changes nothing.
        send_mouse(view_->viewport(), QEvent::MouseButtonPress, at, Qt::LeftButton);
        send_mouse(view_->viewport(), QEvent::MouseButtonRelease, at, Qt::NoButton);
        QCOMPARE(spy.count(), 1);
    }

    void clickOnABoxSelectsNothing()
    {
        QSignalSpy spy(view_, &TopologyView::cpuSelected);
        const QPoint at = view_->mapFromScene(view_->topologyScene()->layout().bounds.topLeft() + QPointF(3, 3));
        send_mouse(view_->viewport(), QEvent::MouseButtonPress, at, Qt::LeftButton);
        send_mouse(view_->viewport(), QEvent::MouseButtonRelease, at, Qt::NoButton);
        QCOMPARE(spy.count(), 0);
        QCOMPARE(view_->selectedCpu(), kNoCpu);
    }

    void wheelZoomsAndDragPansWithoutSelecting()
    {
        const double fitted = view_->zoom();
        const QPoint centre = view_->viewport()->rect().center();
        // Far enough in that a drag has room to pan both ways.
        for (int i = 0; i < 8; ++i)
            send_wheel(view_->viewport(), centre, 120);
        QVERIFY2(view_->zoom() > fitted * 3, qPrintable(QString::number(view_->zoom())));

        QSignalSpy spy(view_, &TopologyView::cpuSelected);
        const int h = view_->horizontalScrollBar()->value();
        const int v = view_->verticalScrollBar()->value();
        send_mouse(view_->viewport(), QEvent::MouseButtonPress, centre, Qt::LeftButton);
        send_mouse(view_->viewport(), QEvent::MouseMove, centre + QPoint(60, 40), Qt::LeftButton);
        send_mouse(view_->viewport(), QEvent::MouseMove, centre + QPoint(120, 80), Qt::LeftButton);
        send_mouse(view_->viewport(), QEvent::MouseButtonRelease, centre + QPoint(120, 80), Qt::NoButton);
        QCOMPARE(view_->horizontalScrollBar()->value(), h - 120);
        QCOMPARE(view_->verticalScrollBar()->value(), v - 80);
        QCOMPARE(spy.count(), 0);

        // Zoom stays as the user left it when the window is resized ...
        const double zoomed = view_->zoom();
        view_->resize(900, 700);
        QCOMPARE(view_->zoom(), zoomed);
        // ... until asked to fit again.
        QTest::keyClick(view_, Qt::Key_0);
        QVERIFY(view_->zoom() < zoomed);
    }

    void wheelKeepsThePointUnderThePointer()
    {
        // While the whole machine fits, it stays centred; anchoring starts
        // once the scene overflows the view.
        for (int i = 0; i < 4; ++i)
            send_wheel(view_->viewport(), view_->viewport()->rect().center(), 120);
        const QPointF cell7 = view_->topologyScene()->layout().cells[7].center();
        const QPoint at = view_->mapFromScene(cell7);
        QVERIFY(view_->viewport()->rect().contains(at));
        send_wheel(view_->viewport(), at, 240);
        send_wheel(view_->viewport(), at, 240);
        const QPointF now = view_->mapToScene(at);
        QVERIFY2(QLineF(now, cell7).length() < 2.0 / view_->zoom() + 1,
                 qPrintable(QStringLiteral("(%1, %2)").arg(now.x()).arg(now.y())));
    }

    void zoomIsBounded()
    {
        const QPoint centre = view_->viewport()->rect().center();
        for (int i = 0; i < 40; ++i)
            send_wheel(view_->viewport(), centre, -120);
        QVERIFY(view_->zoom() > 0.1);
        for (int i = 0; i < 80; ++i)
            send_wheel(view_->viewport(), centre, 120);
        QVERIFY(view_->zoom() <= 8.0 + 1e-9);
    }

    void programmaticSelection()
    {
        QSignalSpy spy(view_, &TopologyView::cpuSelected);
        view_->selectCpu(2);
        view_->selectCpu(99);  // no such CPU: clears
        QCOMPARE(spy.count(), 2);
        QCOMPARE(spy.at(1).at(0).toInt(), -1);
        QCOMPARE(view_->selectedCpu(), kNoCpu);
    }

    void newMachineNewScene()
    {
        view_->selectCpu(3);
        view_->setMachine(resolve_machine("synthetic:core=16"));
        QCOMPARE(view_->topologyScene()->nrCpus(), 16);
        QCOMPARE(view_->selectedCpu(), kNoCpu);
    }

private:
    TopologyView* view_ = nullptr;
};

}  // namespace wb

QTEST_MAIN(wb::TopologyViewTest)
#include "topology_view_test.moc"

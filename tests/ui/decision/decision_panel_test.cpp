// SPDX-License-Identifier: Apache-2.0
//
// The decision panel in the real window: the default two-policy scenario,
// stepped to a wakeup, at the sizes people present at.
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFontInfo>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardPaths>
#include <QTest>
#include <QTextDocument>
#include <QToolButton>

#include "decision/decision_details.h"
#include "decision/decision_diagram.h"
#include "decision/decision_items.h"
#include "decision/decision_panel.h"
#include "decision/palette.h"
#include "decision/recent_wakeups.h"
#include "decision/recent_wakeups_model.h"
#include "main_window.h"
#include "sim/sim_session.h"
#include "widgets/policy_grid.h"
#include "window_test_support.h"

namespace wb {

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

}  // namespace

class DecisionPanelTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::use_clean_settings(); }

    void init()
    {
        window_ = new MainWindow;
        window_->setRemembering(false);
        window_->setErrorHandler([](const QString& title, const QString& message) {
            QFAIL(qPrintable(title + QStringLiteral(": ") + message));
        });
    }

    void cleanup()
    {
        delete window_;
        window_ = nullptr;
    }

    void everyLitStepIsLegibleInTheDefaultLayout_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x800") << QSize(1280, 800);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }

    void everyLitStepIsLegibleInTheDefaultLayout()
    {
        QFETCH(QSize, size);
        stepDefaultScenario(size);
        DecisionDiagram* d = window_->decisionDiagram();
        const double scale = d->transform().m11();
        QVERIFY(scale >= 1.0);
        const int app_pixels = QFontInfo(QApplication::font()).pixelSize();
        int lit = 0;
        for (QGraphicsItem* item : d->scene()->items()) {
            if (item->type() != DecisionNodeItem::Type)
                continue;
            auto* n = static_cast<DecisionNodeItem*>(item);
            if (!n->isLit())
                continue;
            ++lit;
            // Within the viewport's width: nothing cut at the right.
            const QRect on_screen = d->mapFromScene(n->sceneBoundingRect()).boundingRect();
            QVERIFY2(on_screen.right() <= d->viewport()->width() + 3, qPrintable(n->key()));
            for (const QGraphicsTextItem* t : n->shownTextItems()) {
                QVERIFY2(QFontInfo(t->font()).pixelSize() * scale >= app_pixels,
                         qPrintable(QStringLiteral("%1: %2 px, the font is %3 px")
                                        .arg(n->key())
                                        .arg(QFontInfo(t->font()).pixelSize() * scale)
                                        .arg(app_pixels)));
                QVERIFY(!t->toPlainText().contains(QChar(0x2026)));
                QVERIFY2(t->document()->size().width() <= t->textWidth() + 0.5, qPrintable(t->toPlainText()));
            }
        }
        QVERIFY(lit >= 3);
        // Every step's name and deciding value, whole, in its node and in
        // the details pane.
        const QString details = window_->findChild<DecisionDetails*>()->toPlainText();
        for (const LabelledRecord& r : d->records()) {
            for (const DecisionStep& s : r.record.steps) {
                DecisionNodeItem* n = d->nodeFor(qs(s.function), qs(s.branch));
                QVERIFY(n && n->isLit());
                QVERIFY2(
                    n->detailText().contains(qs(s.branch) + QStringLiteral(": ") + QString::fromStdString(s.detail)),
                    qPrintable(n->detailText()));
                QVERIFY(n->toolTip().contains(QString::fromStdString(s.detail)));
                QVERIFY2(details.contains(qs(s.function) + QStringLiteral(": ") + qs(s.branch)), qPrintable(details));
                QVERIFY(details.contains(QString::fromStdString(s.detail)));
            }
        }
    }

    void bothPoliciesPathsAreShownLabelled()
    {
        stepDefaultScenario(QSize(1280, 800));
        DecisionDiagram* d = window_->decisionDiagram();
        QCOMPARE(window_->gridCount(), 2);
        QCOMPARE(d->records().size(), std::size_t(2));
        const QString legend = d->legend()->toPlainText();
        const QString legend_html = d->legend()->toHtml();
        for (int i = 0; i < 2; ++i) {
            const LabelledRecord& r = d->records()[static_cast<std::size_t>(i)];
            QCOMPARE(r.policy, window_->grid(i)->policy());
            QCOMPARE(r.colour, palette::policy_colour(i));
            QVERIFY2(legend.contains(r.policy), qPrintable(legend));
            QVERIFY(legend_html.contains(r.colour.name(), Qt::CaseInsensitive));
            // Each record's own path, in its colour.
            QCOMPARE(d->litSteps(i).size(), static_cast<qsizetype>(r.record.steps.size()));
            int taken = 0;
            for (QGraphicsItem* item : d->scene()->items())
                if (item->type() == DecisionEdgeItem::Type) {
                    auto* e = static_cast<DecisionEdgeItem*>(item);
                    taken += e->isTaken() && e->lane() == i && e->colour() == r.colour;
                }
            QVERIFY(taken >= 2);
        }
        QCOMPARE(d->records()[0].record.seq, d->records()[1].record.seq);
    }

    // A wakeup picked in the list comes with the other policy's record of
    // the same wakeup, each in its lane.
    void aRecentWakeupShowsEveryPolicysRecordOfIt()
    {
        stepDefaultScenario(QSize(1280, 800));
        DecisionDiagram* d = window_->decisionDiagram();
        d->setAnimationInterval(0);
        RecentWakeups* recent = window_->recentWakeups();
        const RecentWakeupsModel* model = recent->wakeupsModel();
        // The second policy's row of the first wakeup both recorded.
        int row = -1;
        for (int r = 0; r < model->rowCount() && row < 0; ++r)
            if (model->policyAt(r) == 1)
                for (int other = 0; other < model->rowCount(); ++other)
                    if (model->policyAt(other) == 0 && model->recordAt(other).seq == model->recordAt(r).seq)
                        row = r;
        QVERIFY(row >= 0);
        const std::uint64_t seq = model->recordAt(row).seq;
        recent->setCurrentIndex(model->index(row, 0));
        QCOMPARE(d->records().size(), std::size_t(2));
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(d->records()[static_cast<std::size_t>(i)].record.seq, seq);
            QCOMPARE(d->records()[static_cast<std::size_t>(i)].policy, window_->grid(i)->policy());
        }
    }

    void toolRowZoomsTheDiagram()
    {
        stepDefaultScenario(QSize(1280, 800));
        DecisionDiagram* d = window_->decisionDiagram();
        auto button = [this](const char* name) { return window_->findChild<QToolButton*>(QLatin1String(name)); };
        QVERIFY(button("diagramZoomIn") && button("diagramZoomOut") && button("diagramFit"));
        button("diagramZoomIn")->click();
        QCOMPARE(d->transform().m11(), 1.25);
        button("diagramZoomIn")->click();
        QCOMPARE(d->transform().m11(), 1.25 * 1.25);
        button("diagramZoomOut")->click();
        QCOMPARE(d->transform().m11(), 1.25);
        button("diagramFit")->click();
        QCOMPARE(d->transform().m11(), 1.0);
        // With the diagram focused, Ctrl+0 is the diagram's fit, not the grids'.
        d->zoomIn();
        d->setFocus();
        QTest::keyClick(d, Qt::Key_0, Qt::ControlModifier);
        QCOMPARE(d->zoom(), 1.0);
    }

    void decisionFocusPutsTheDiagramInAWindowOfItsOwn()
    {
        stepDefaultScenario(QSize(1280, 800));
        DecisionDiagram* d = window_->decisionDiagram();
        auto* focus = window_->findChild<QAction*>(QStringLiteral("decisionFocusAction"));
        QVERIFY(focus);
        QCOMPARE(focus->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_D));
        QVERIFY(d->window() == window_);
        const int docked_width = d->viewport()->width();

        focus->trigger();
        QVERIFY(focus->isChecked());
        QWidget* big = d->window();
        QVERIFY(big != window_);
        QVERIFY(QTest::qWaitForWindowExposed(big));
        QVERIFY(big->isVisible());
        QTRY_VERIFY(std::abs(big->width() - window_->width()) <= 10);
        QVERIFY(std::abs(big->height() - window_->height()) <= 10);
        // The diagram and its details fill it, side by side.
        QTRY_VERIFY(d->width() >= big->width() / 2);
        QVERIFY(d->height() >= big->height() * 3 / 4);
        QVERIFY(d->viewport()->width() > docked_width);
        QCOMPARE(window_->findChild<DecisionPanel*>()->splitter()->orientation(), Qt::Horizontal);
        QVERIFY(d->records().size() == 2);

        // The window's shortcuts still step from there.
        QVERIFY(big->actions().contains(focus));
        QVERIFY(big->actions().contains(window_->findChild<QAction*>(QStringLiteral("stepAction"))));
        big->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(big));
        for (QWidget* focused : std::initializer_list<QWidget*>{d, window_->findChild<DecisionDetails*>()}) {
            for (Qt::Key key : {Qt::Key_Period, Qt::Key_Right}) {
                QSignalSpy steps(window_->session(), &SimSession::stepped);
                focused->setFocus();
                QTest::keyClick(focused, key);
                QVERIFY2(steps.wait(20000), focused->metaObject()->className());
            }
        }

        focus->trigger();
        QVERIFY(!focus->isChecked());
        QVERIFY(d->window() == window_);
        QVERIFY(!big->isVisible());
        QTRY_VERIFY(d->isVisible());

        // Closing the focus window brings the diagram back too, as does Escape.
        focus->trigger();
        QVERIFY(d->window() == big);
        big->close();
        QVERIFY(!focus->isChecked());
        QVERIFY(d->window() == window_);
        focus->trigger();
        QVERIFY(d->window() == big);
        big->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(big));
        QTest::keyClick(d, Qt::Key_Escape);
        QVERIFY(!focus->isChecked());
        QVERIFY(d->window() == window_);
    }

private:
    // The default scenario (two policies on the 80-core Altra) in the
    // default layout at `size`, stepped to its third wakeup.
    void stepDefaultScenario(const QSize& size)
    {
        window_->resize(size);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_));
        QSignalSpy frames(window_->session(), &SimSession::frameReady);
        QVERIFY(window_->setScenario(MainWindow::defaultScenario()));
        QVERIFY(frames.wait(20000));
        QSignalSpy steps(window_->session(), &SimSession::stepped);
        for (int k = 0; k < 3; ++k) {
            window_->stepWakeup();
            QTRY_COMPARE_WITH_TIMEOUT(steps.count(), k + 1, 20000);
        }
        window_->decisionDiagram()->finishAnimation();
        QApplication::processEvents();
    }

    MainWindow* window_ = nullptr;
};

}  // namespace wb

QTEST_MAIN(wb::DecisionPanelTest)
#include "decision_panel_test.moc"

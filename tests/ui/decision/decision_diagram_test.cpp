// SPDX-License-Identifier: Apache-2.0
#include <QAction>
#include <QApplication>
#include <QFontInfo>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QMenu>
#include <QObject>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QTest>
#include <QTextDocument>
#include <QWheelEvent>
#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "decision/decision_details.h"
#include "decision/decision_diagram.h"
#include "decision/decision_graph.h"
#include "decision/decision_items.h"
#include "decision/palette.h"
#include "engine/simulator.h"
#include "policies/registry.h"
#include "sched/decision.h"
#include "topology/synthetic.h"
#include "workload/workload_spec.h"

namespace wb {
namespace {

// A sync wakeup that pulls to the waker's LLC, finds no idle sibling of
// prev and takes the first idle CPU of the LLC scan.
DecisionRecord llc_scan_record()
{
    DecisionRecord r;
    r.seq = 41;
    r.time = Time::us(12);
    r.waker = 0;
    r.wakee = 1;
    r.waker_cpu = 2;
    r.prev_cpu = 3;
    r.wake_flags = WF_TTWU | WF_SYNC;
    r.steps = {
        {"wake_wide", "not wide", "wakee_flips 1/1: lo < llc_size 8", kNoCpu},
        {"select_task_rq_fair", "affine domain", "MC (0-7) spans waker 2 and prev 3", kNoCpu},
        {"wake_affine_idle", "no idle choice", "waker busy; prev busy", kNoCpu},
        {"wake_affine_weight", "waker lighter", "this_eff 1 < prev_eff 2", 2},
        {"wake_affine", "waker cpu", "target = waker cpu 2", 2},
        {"select_idle_sibling", "target not idle", "cpu 2 busy", kNoCpu},
        {"select_idle_sibling", "prev not usable", "cpu 3 busy", kNoCpu},
        {"select_idle_sibling", "recent_used_cpu not usable", "recent_used_cpu none", kNoCpu},
        {"select_idle_sibling", "idle-cores hint clear", "has_idle_cores false", kNoCpu},
        {"select_idle_smt", "no idle sibling", "no idle SMT sibling of prev 3", kNoCpu},
        {"select_idle_cpu", "scan budget", "nr_idle_scan 4", kNoCpu},
        {"select_idle_cpu", "idle cpu", "cpu 5 idle", 5},
    };
    r.scanned = {3, 4, 5};
    r.target = 2;
    r.chosen = 5;
    r.path = WakePath::LlcScan;
    r.from_waker = DistanceClass::Llc;
    r.from_prev = DistanceClass::Llc;
    return r;
}

QStringList step_names(const DecisionRecord& r)
{
    QStringList out;
    for (const DecisionStep& s : r.steps)
        out << QString::fromUtf8(s.function.data(), static_cast<qsizetype>(s.function.size())) + QStringLiteral(": ") +
                   QString::fromUtf8(s.branch.data(), static_cast<qsizetype>(s.branch.size()));
    return out;
}

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

std::vector<DecisionNodeItem*> nodes(DecisionDiagram& d)
{
    std::vector<DecisionNodeItem*> out;
    for (QGraphicsItem* item : d.scene()->items())
        if (item->type() == DecisionNodeItem::Type)
            out.push_back(static_cast<DecisionNodeItem*>(item));
    return out;
}

DecisionNodeItem* node_by_key(DecisionDiagram& d, const QString& key)
{
    for (DecisionNodeItem* n : nodes(d))
        if (n->key() == key)
            return n;
    return nullptr;
}

std::set<std::pair<QString, QString>> taken_edges(DecisionDiagram& d)
{
    std::set<std::pair<QString, QString>> out;
    for (QGraphicsItem* item : d.scene()->items()) {
        if (item->type() != DecisionEdgeItem::Type)
            continue;
        auto* e = static_cast<DecisionEdgeItem*>(item);
        if (e->isTaken())
            out.insert({e->from()->key(), e->to()->key()});
    }
    return out;
}

// A few wakeups of a real pipe run: the strings the selector writes.
std::vector<DecisionRecord> pipe_records(int wakeups)
{
    SimOptions opt;
    opt.seed = 1;
    Simulator sim(parse_synthetic("synthetic:node=1,llc=1,core=4,smt=2"), make_workload("pipe:loops=50"), opt);
    std::vector<DecisionRecord> records;
    sim.set_record_sink([&](const DecisionRecord& r) { records.push_back(r); });
    for (int i = 0; i < wakeups && sim.step_wakeup(); ++i) {
    }
    return records;
}

// The same wakeup under a policy whose wake_affine_idle finds prev idle:
// the paths agree for two steps and part at the third.
DecisionRecord prev_idle_record()
{
    DecisionRecord r = llc_scan_record();
    r.steps.resize(2);
    r.steps.push_back({"wake_affine_idle", "prev idle", "prev 3 idle", 3});
    r.steps.push_back({"wake_affine", "prev", "target = prev 3", 3});
    r.steps.push_back({"select_idle_sibling", "target idle", "cpu 3 idle", 3});
    r.target = 3;
    r.chosen = 3;
    r.path = WakePath::TargetIdle;
    r.from_waker = DistanceClass::Llc;
    r.from_prev = DistanceClass::SameCpu;
    return r;
}

// The taken edges drawn in `colour`.
std::set<std::pair<QString, QString>> taken_edges_in(DecisionDiagram& d, const QColor& colour)
{
    std::set<std::pair<QString, QString>> out;
    for (QGraphicsItem* item : d.scene()->items()) {
        if (item->type() != DecisionEdgeItem::Type)
            continue;
        auto* e = static_cast<DecisionEdgeItem*>(item);
        if (e->isTaken() && e->isVisible() && e->colour() == colour)
            out.insert({e->from()->key(), e->to()->key()});
    }
    return out;
}

int app_font_pixels()
{
    return QFontInfo(QApplication::font()).pixelSize();
}

// Every lit node's text is at least the application's font on screen, wraps
// within the node, and the node lies within the viewport's width.
void check_lit_text_legible(DecisionDiagram& d)
{
    const double scale = d.transform().m11();
    QVERIFY2(scale >= 1.0, qPrintable(QString::number(scale)));
    int lit = 0;
    for (DecisionNodeItem* n : nodes(d)) {
        if (!n->isLit())
            continue;
        ++lit;
        const QRect on_screen = d.mapFromScene(n->sceneBoundingRect()).boundingRect();
        QVERIFY2(on_screen.right() <= d.viewport()->width() + 3, qPrintable(QStringLiteral("%1 reaches x %2 of %3")
                                                                                .arg(n->key())
                                                                                .arg(on_screen.right())
                                                                                .arg(d.viewport()->width())));
        QVERIFY(!n->shownTextItems().empty());
        for (const QGraphicsTextItem* t : n->shownTextItems()) {
            const int pixels = QFontInfo(t->font()).pixelSize();
            QVERIFY2(pixels * scale >= app_font_pixels(),
                     qPrintable(
                         QStringLiteral("%1: %2 px < %3 px").arg(n->key()).arg(pixels * scale).arg(app_font_pixels())));
            QVERIFY2(!t->toPlainText().contains(QChar(0x2026)), qPrintable(t->toPlainText()));
            // Wrapped, not overflowing: no line is wider than the text's box,
            // and the box lies within the node.
            QVERIFY2(t->document()->size().width() <= t->textWidth() + 0.5, qPrintable(t->toPlainText()));
            const QRectF box = t->mapRectToParent(t->boundingRect());
            QVERIFY2(box.right() <= n->size().width() + 0.5 && box.bottom() <= n->size().height() + 0.5,
                     qPrintable(n->key() + QStringLiteral(": ") + t->toPlainText()));
        }
        QVERIFY(n->toolTip().contains(n->title()));
        QVERIFY(n->toolTip().contains(n->detailText()));
    }
    QVERIFY(lit > 0);
}

}  // namespace

class DecisionDiagramTest : public QObject {
    Q_OBJECT

private slots:
    void lightsExactlyTheRecordsStepsInOrder()
    {
        DecisionDiagram d;
        d.setAnimationInterval(0);
        const DecisionRecord r = llc_scan_record();
        const QColor colour = palette::policy_colour(1);
        d.showRecord(r, colour);

        QCOMPARE(d.litSteps(), step_names(r));
        QVERIFY(!d.isAnimating());

        // Lit: the steps' nodes, their headers and the chosen CPU; no other.
        const QSet<QString> expected_lit{
            "select_task_rq_fair", "wake_wide",  "domain_walk", "wake_affine_idle", "wake_affine_weight", "wake_affine",
            "select_idle_sibling", "sis_target", "sis_prev",    "sis_recent",       "sis_idle_cores",     "sis_smt",
            "sis_budget",          "sis_scan",   "chosen"};
        QSet<QString> lit;
        for (DecisionNodeItem* n : nodes(d))
            if (n->isLit())
                lit.insert(n->key());
        QCOMPARE(lit, expected_lit);

        // The taken edges follow the steps, through the implicit headers.
        const std::set<std::pair<QString, QString>> expected_edges{
            {"select_task_rq_fair", "wake_wide"},
            {"wake_wide", "domain_walk"},
            {"domain_walk", "wake_affine_idle"},
            {"wake_affine_idle", "wake_affine_weight"},
            {"wake_affine_weight", "wake_affine"},
            {"wake_affine", "select_idle_sibling"},
            {"select_idle_sibling", "sis_target"},
            {"sis_target", "sis_prev"},
            {"sis_prev", "sis_recent"},
            {"sis_recent", "sis_idle_cores"},
            {"sis_idle_cores", "sis_smt"},
            {"sis_smt", "sis_budget"},
            {"sis_budget", "sis_scan"},
            {"sis_scan", "chosen"},
        };
        QCOMPARE(taken_edges(d), expected_edges);

        // Each step's values stand next to its node.
        QVERIFY2(d.detailFor("wake_wide", "not wide").contains("wakee_flips 1/1: lo < llc_size 8"),
                 qPrintable(d.detailFor("wake_wide", "not wide")));
        const QString scan = d.detailFor("select_idle_cpu", "idle cpu");
        QVERIFY2(scan.contains("idle cpu: cpu 5 idle") && scan.contains("cpu 5"), qPrintable(scan));
        QVERIFY(d.detailFor("select_task_rq_fair", "slow path").isEmpty());
        QVERIFY(!d.nodeFor("select_idle_core", "idle core")->isLit());
        QVERIFY(!d.nodeFor("sched_balance_find_dst_cpu", "chosen")->isLit());
    }

    void animatesOneStepAtATime()
    {
        DecisionDiagram d;
        QSignalSpy lit(&d, &DecisionDiagram::stepLit);
        QSignalSpy finished(&d, &DecisionDiagram::animationFinished);
        const DecisionRecord r = llc_scan_record();

        // The first step lights at once, the rest wait for the timer.
        d.setAnimationInterval(60'000);
        d.showRecord(r, palette::policy_colour(0));
        QCOMPARE(d.litSteps(), step_names(r).mid(0, 1));
        QVERIFY(d.isAnimating());
        QCOMPARE(finished.count(), 0);
        d.finishAnimation();
        QCOMPARE(d.litSteps(), step_names(r));
        QCOMPARE(finished.count(), 1);
        QCOMPARE(lit.count(), static_cast<int>(r.steps.size()));

        // And the timer does light them all.
        d.setAnimationInterval(1);
        d.showRecord(r, palette::policy_colour(0));
        QTRY_COMPARE(finished.count(), 2);
        QCOMPARE(d.litSteps(), step_names(r));
    }

    void aStepTheDiagramDoesNotKnowStillShows()
    {
        DecisionDiagram d;
        d.setAnimationInterval(0);
        const int fixed = d.nodeCount();
        DecisionRecord r = llc_scan_record();
        // A policy's own step, and a function no table lists.
        r.steps.insert(r.steps.begin() + 5, DecisionStep{"sync-waker-v3", "reciprocal sync pair: waker cpu",
                                                         "waker and wakee alternate", 2});
        r.steps.push_back({"made_up_function", "some branch", "values", kNoCpu});
        // A known function with a branch no table lists lights that function's node.
        r.steps.push_back({"select_idle_cpu", "a branch added later", "", kNoCpu});
        d.showRecord(r, palette::policy_colour(2));

        QCOMPARE(d.litSteps(), step_names(r));
        QCOMPARE(d.nodeCount(), fixed + 2);
        DecisionNodeItem* policy = d.nodeFor("sync-waker-v3", "reciprocal sync pair: waker cpu");
        QVERIFY(policy);
        QCOMPARE(policy->title(), QStringLiteral("sync-waker-v3"));
        QCOMPARE(policy->kind(), DecisionNodeItem::Kind::Policy);
        QVERIFY(policy->isLit());
        DecisionNodeItem* unknown = d.nodeFor("made_up_function", "some branch");
        QVERIFY(unknown);
        QCOMPARE(unknown->kind(), DecisionNodeItem::Kind::Unknown);
        QVERIFY(unknown->isLit());
        QVERIFY(d.detailFor("made_up_function", "some branch").contains("some branch: values"));
        // (the function's first node: the SIS_UTIL budget).
        QCOMPARE(d.nodeFor("select_idle_cpu", "a branch added later"), d.nodeFor("select_idle_cpu", "scan budget"));
        QVERIFY(d.nodeFor("select_idle_cpu", "scan budget")->isLit());

        // The policy's node sits right after the step before it.
        QVERIFY(policy->y() > d.nodeFor("wake_affine", "waker cpu")->y());
        QVERIFY(policy->y() < d.nodeFor("select_idle_sibling", "target idle")->y());

        // Built once: the next record restyles, it adds nothing.
        d.showRecord(r, palette::policy_colour(0));
        QCOMPARE(d.nodeCount(), fixed + 2);
        d.showRecord(llc_scan_record(), palette::policy_colour(0));
        QVERIFY(!policy->isLit());
        QVERIFY(!unknown->isLit());
    }

    void showsRecordsOfARealRun()
    {
        const std::vector<DecisionRecord> records = pipe_records(8);
        QVERIFY(records.size() >= 4);  // the two forks and pipe wakeups
        DecisionDiagram d;
        d.setAnimationInterval(0);
        const int fixed = d.nodeCount();
        bool slow_path = false;
        bool fast_path = false;
        for (const DecisionRecord& r : records) {
            QVERIFY(!r.steps.empty());
            d.showRecord(r, palette::policy_colour(0));
            QCOMPARE(d.litSteps(), step_names(r));
            for (const DecisionStep& s : r.steps) {
                DecisionNodeItem* n = d.nodeFor(qs(s.function), qs(s.branch));
                QVERIFY(n);
                QVERIFY(n->isLit());
                // Every string the selector writes is in the fixed graph.
                QVERIFY2(!decision_graph::node_of(s.function, s.branch).empty(),
                         qPrintable(qs(s.function) + ": " + qs(s.branch)));
            }
            QVERIFY(node_by_key(d, "chosen")->isLit());
            slow_path |= r.path == WakePath::SlowPath;
            fast_path |= r.path != WakePath::SlowPath && r.path != WakePath::NotSelected;
        }
        QVERIFY(slow_path);
        QVERIFY(fast_path);
        QCOMPARE(d.nodeCount(), fixed);
    }

    void aPolicyThatDeclinedSaysWhyOnItsNode()
    {
        // sync-waker-v3 on SMT-2: consulted at every affine wakeup, and it
        // declines with the condition that failed.
        const std::unique_ptr<PlacementPolicy> policy = make_policy("sync-waker-v3");
        SimOptions opt;
        opt.policy = policy.get();
        Simulator sim(parse_synthetic("synthetic:node=1,llc=1,core=4,smt=2"), make_workload("pipe:loops=50"), opt);
        std::vector<DecisionRecord> records;
        sim.set_record_sink([&](const DecisionRecord& r) { records.push_back(r); });
        for (int i = 0; i < 8 && sim.step_wakeup(); ++i) {
        }
        const auto declined = std::find_if(records.begin(), records.end(), [](const DecisionRecord& r) {
            return std::any_of(r.steps.begin(), r.steps.end(),
                               [](const DecisionStep& s) { return s.function == "sync-waker-v3"; });
        });
        QVERIFY(declined != records.end());

        DecisionDiagram d;
        d.setAnimationInterval(0);
        d.showRecord(*declined, palette::policy_colour(1));
        QCOMPARE(d.litSteps(), step_names(*declined));
        DecisionNodeItem* node = d.nodeFor(QStringLiteral("sync-waker-v3"), QStringLiteral("not taken"));
        QVERIFY(node);
        QCOMPARE(node->kind(), DecisionNodeItem::Kind::Policy);
        QVERIFY(node->isLit());
        const QString detail = d.detailFor(QStringLiteral("sync-waker-v3"), QStringLiteral("not taken"));
        QVERIFY2(detail.contains(QStringLiteral("not taken: SMT active")), qPrintable(detail));
        QVERIFY(declined->path != WakePath::Policy);
    }

    void everyBranchOfALongerRunIsInTheTable()
    {
        // Longer pipe runs on machines with and without SMT and with two
        // LLCs meet most branches; none may fall back to a generic node.
        for (const char* machine : {"synthetic:node=1,llc=1,core=4,smt=2", "synthetic:node=2,llc=2,core=2,smt=1"}) {
            SimOptions opt;
            Simulator sim(parse_synthetic(machine), make_workload("pipe:loops=300"), opt);
            std::set<std::pair<std::string, std::string>> seen;
            sim.set_record_sink([&](const DecisionRecord& r) {
                for (const DecisionStep& s : r.steps)
                    seen.insert({std::string(s.function), std::string(s.branch)});
            });
            QVERIFY(sim.run());
            QVERIFY(seen.size() >= 5);
            for (const auto& [function, branch] : seen) {
                bool listed = false;
                for (const decision_graph::Branch& b : decision_graph::branches())
                    listed |= b.function == function && b.branch == branch;
                QVERIFY2(listed, (function + ": " + branch).c_str());
            }
        }
    }

    void rightClickAsksToPauseOnTheBranch()
    {
        DecisionDiagram d;
        d.setAnimationInterval(0);
        d.resize(900, 1400);
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        d.showRecord(llc_scan_record(), palette::policy_colour(0));
        QSignalSpy spy(&d, &DecisionDiagram::breakOnBranchRequested);

        DecisionNodeItem* prev = d.nodeFor("select_idle_sibling", "prev idle");
        const QPoint at = d.mapFromScene(prev->sceneBoundingRect().center());
        std::unique_ptr<QMenu> menu(d.createBranchMenu(at));
        QVERIFY(menu);
        QAction* taken = menu->actions().value(0);
        QVERIFY(taken);
        QVERIFY2(taken->text().startsWith("Pause when this branch is taken"), qPrintable(taken->text()));
        QVERIFY(taken->isEnabled());
        taken->trigger();
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.last().at(0).toString(), QStringLiteral("select_idle_sibling"));
        QCOMPARE(spy.last().at(1).toString(), QStringLiteral("prev not usable"));

        // Every branch of the node can be chosen, taken in this record or not.
        QMenu* others = menu->actions().value(1)->menu();
        QVERIFY(others);
        QAction* idle = nullptr;
        for (QAction* a : others->actions())
            if (a->text() == "select_idle_sibling: prev idle")
                idle = a;
        QVERIFY(idle);
        idle->trigger();
        QCOMPARE(spy.count(), 2);
        QCOMPARE(spy.last().at(1).toString(), QStringLiteral("prev idle"));

        // Nothing to offer away from the nodes.
        QVERIFY(!d.createBranchMenu(QPoint(2, 2)));
    }

    // In a dock as narrow as the default one, the text keeps the font's
    // size and wraps: the old diagram scaled everything to half.
    void litTextKeepsTheFontSizeAndWrapsInANarrowView()
    {
        DecisionDiagram d;
        d.setAnimationInterval(0);
        d.resize(360, 500);
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        d.showRecord(llc_scan_record(), palette::policy_colour(0));
        QCOMPARE(d.zoom(), 1.0);
        QCOMPARE(d.transform().m11(), 1.0);
        check_lit_text_legible(d);
        // Everything fits sideways: the diagram scrolls only downwards.
        QVERIFY(d.horizontalScrollBar()->maximum() <= 0);
        QVERIFY(d.verticalScrollBar()->maximum() > 0);
        // The whole deciding value is there, under its node.
        const QString header = d.detailFor("select_task_rq_fair", "affine domain");
        QVERIFY2(header.contains("MC (0-7) spans waker 2 and prev 3"), qPrintable(header));
        // Wider view, same font, fewer lines: laid out for the width.
        DecisionNodeItem* entry = node_by_key(d, "select_task_rq_fair");
        const double narrow_height = entry->size().height();
        d.resize(900, 500);
        QTRY_VERIFY(entry->size().width() > 600);
        QVERIFY(entry->size().height() < narrow_height);
        QCOMPARE(d.transform().m11(), 1.0);
        check_lit_text_legible(d);
    }

    void zoomScalesAndNeverGoesBelowFit()
    {
        DecisionDiagram d;
        d.setAnimationInterval(0);
        d.resize(420, 500);
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        d.showRecord(llc_scan_record(), palette::policy_colour(0));
        QSignalSpy zoomed(&d, &DecisionDiagram::zoomChanged);

        d.zoomIn();
        QCOMPARE(d.transform().m11(), 1.25);
        QCOMPARE(d.transform().m22(), 1.25);
        // Laid out again for the narrower scene width: still no sideways scroll.
        QVERIFY(d.horizontalScrollBar()->maximum() <= 0);
        check_lit_text_legible(d);
        d.zoomOut();
        QCOMPARE(d.transform().m11(), 1.0);
        // Below fit the text would shrink under the font: refused.
        d.zoomOut();
        QCOMPARE(d.zoom(), 1.0);
        QCOMPARE(d.transform().m11(), 1.0);
        QCOMPARE(zoomed.count(), 2);

        // The keys, and Ctrl+wheel.
        QTest::keyClick(&d, Qt::Key_Equal, Qt::ControlModifier);
        QCOMPARE(d.zoom(), 1.25);
        QTest::keyClick(&d, Qt::Key_Plus, Qt::ControlModifier);
        QCOMPARE(d.zoom(), 1.25 * 1.25);
        QTest::keyClick(&d, Qt::Key_Minus, Qt::ControlModifier);
        QCOMPARE(d.zoom(), 1.25);
        QTest::keyClick(&d, Qt::Key_0, Qt::ControlModifier);
        QCOMPARE(d.zoom(), 1.0);
        const QPointF at(100, 100);
        QWheelEvent wheel(at, d.viewport()->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(d.viewport(), &wheel);
        QCOMPARE(d.zoom(), 1.25);
        QCOMPARE(d.transform().m11(), 1.25);
        d.fitToWidth();
        QCOMPARE(d.transform().m11(), 1.0);
        d.setZoom(100);
        QCOMPARE(d.zoom(), DecisionDiagram::kMaxZoom);
    }

    // Two policies, one wakeup: each path in its colour, labelled.
    void overlaysEveryPolicysPathLabelled()
    {
        DecisionDiagram d;
        d.setAnimationInterval(0);
        d.resize(420, 700);
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        const QColor blue = palette::policy_colour(0);
        const QColor vermillion = palette::policy_colour(1);
        const DecisionRecord a = llc_scan_record();
        const DecisionRecord b = prev_idle_record();
        d.showRecords({{"baseline", blue, a}, {"sync-waker-v3", vermillion, b}});

        QCOMPARE(d.records().size(), std::size_t(2));
        QCOMPARE(d.litSteps(0), step_names(a));
        QCOMPARE(d.litSteps(1), step_names(b));
        QCOMPARE(d.record()->chosen, a.chosen);

        // Each policy's taken edges in its own colour; they share the start.
        const auto blue_edges = taken_edges_in(d, blue);
        const auto red_edges = taken_edges_in(d, vermillion);
        QVERIFY(blue_edges.count({"sis_budget", "sis_scan"}));
        QVERIFY(!red_edges.count({"sis_budget", "sis_scan"}));
        QVERIFY(red_edges.count({"select_idle_sibling", "sis_target"}));
        QVERIFY(red_edges.count({"sis_target", "chosen"}));
        QVERIFY(blue_edges.count({"wake_wide", "domain_walk"}));
        QVERIFY(red_edges.count({"wake_wide", "domain_walk"}));

        // A node both reached carries both colours and both step numbers.
        DecisionNodeItem* wide = d.nodeFor("wake_wide", "not wide");
        QCOMPARE(wide->visits().size(), std::size_t(2));
        QCOMPARE(wide->visits()[0].colour, blue);
        QCOMPARE(wide->visits()[1].colour, vermillion);
        // The same values are said once, naming both policies.
        const QString wide_text = d.detailFor("wake_wide", "not wide");
        QVERIFY2(wide_text.startsWith("baseline, sync-waker-v3: not wide: wakee_flips 1/1"), qPrintable(wide_text));
        // Where they part, each says its own.
        const QString idle = d.detailFor("wake_affine_idle", "prev idle");
        QVERIFY2(idle.contains("baseline: no idle choice: waker busy; prev busy"), qPrintable(idle));
        QVERIFY2(idle.contains("sync-waker-v3: prev idle: prev 3 idle"), qPrintable(idle));
        DecisionNodeItem* scan = d.nodeFor("select_idle_cpu", "idle cpu");
        QCOMPARE(scan->visits().size(), std::size_t(1));
        QCOMPARE(scan->visits()[0].colour, blue);
        QVERIFY(scan->visits()[0].final);
        QVERIFY(d.nodeFor("select_idle_sibling", "target idle")->visits().back().final);

        // The legend names each policy in its colour, with its choice.
        const QGraphicsTextItem* legend = d.legend();
        QVERIFY(legend->isVisible());
        const QString legend_text = legend->toPlainText();
        QVERIFY2(legend_text.contains("baseline") && legend_text.contains("sync-waker-v3"), qPrintable(legend_text));
        QVERIFY2(legend_text.contains("cpu 5") && legend_text.contains("cpu 3"), qPrintable(legend_text));
        QVERIFY2(legend_text.contains("paths part at step 3"), qPrintable(legend_text));
        const QString legend_html = legend->toHtml();
        QVERIFY(legend_html.contains(blue.name(), Qt::CaseInsensitive));
        QVERIFY(legend_html.contains(vermillion.name(), Qt::CaseInsensitive));
        check_lit_text_legible(d);

        // Animated, the paths grow together, a step of each per tick.
        // An animated record starts at the top, legend in view.
        d.setAnimationInterval(60'000);
        d.resize(420, 200);
        d.verticalScrollBar()->setValue(d.verticalScrollBar()->maximum());
        d.showRecords({{"baseline", blue, a}, {"sync-waker-v3", vermillion, b}});
        QCOMPARE(d.verticalScrollBar()->value(), d.verticalScrollBar()->minimum());
        QVERIFY(d.mapFromScene(d.legend()->sceneBoundingRect()).boundingRect().top() >= 0);
        QCOMPARE(d.litSteps(0), step_names(a).mid(0, 1));
        QCOMPARE(d.litSteps(1), step_names(b).mid(0, 1));
        d.finishAnimation();
        QCOMPARE(d.litSteps(1), step_names(b));

        // One unlabelled record: no legend.
        d.setAnimationInterval(0);
        d.showRecord(a, blue);
        QVERIFY(!d.legend()->isVisible());
        QVERIFY(taken_edges_in(d, vermillion).empty());
    }

    void detailsListEveryStepAndWhereThePathsPart()
    {
        const DecisionRecord a = llc_scan_record();
        const DecisionRecord b = prev_idle_record();
        QCOMPARE(first_parting_step(a, a), -1);
        QCOMPARE(first_parting_step(a, b), 2);
        DecisionDetails details;
        details.showRecords(
            {{"baseline", palette::policy_colour(0), a}, {"sync-waker-v3", palette::policy_colour(1), b}});
        const QString text = details.toPlainText();
        QVERIFY2(text.contains("The paths part at step 3"), qPrintable(text));
        for (const DecisionRecord* r : {&a, &b})
            for (const DecisionStep& s : r->steps) {
                QVERIFY2(text.contains(qs(s.function) + ": " + qs(s.branch)), qPrintable(qs(s.branch)));
                QVERIFY2(text.contains(QString::fromStdString(s.detail)), s.detail.c_str());
            }
        QVERIFY(text.contains("\u2192 cpu 5"));
        QVERIFY(text.contains("chosen cpu 3 via target_idle"));
        QVERIFY(details.toHtml().contains(palette::policy_colour(1).name(), Qt::CaseInsensitive));

        // Once the runs drift apart their n-th wakeups differ: no parting step.
        DecisionRecord later = b;
        later.seq = a.seq + 7;
        details.showRecords(
            {{"baseline", palette::policy_colour(0), a}, {"sync-waker-v3", palette::policy_colour(1), later}});
        QVERIFY2(details.toPlainText().contains("are different wakeups"), qPrintable(details.toPlainText()));
        QVERIFY(!details.toPlainText().contains("paths part"));
        DecisionDiagram d;
        d.setAnimationInterval(0);
        d.showRecords(
            {{"baseline", palette::policy_colour(0), a}, {"sync-waker-v3", palette::policy_colour(1), later}});
        const QString legend = d.legend()->toPlainText();
        QVERIFY2(legend.contains("different wakeups") && legend.contains("#48"), qPrintable(legend));
        QVERIFY(!legend.contains("paths part"));
    }

    void clearReturnsEveryNodeToGrey()
    {
        DecisionDiagram d;
        d.setAnimationInterval(0);
        d.showRecord(llc_scan_record(), palette::policy_colour(0));
        d.clear();
        QVERIFY(d.litSteps().isEmpty());
        QVERIFY(!d.record());
        for (DecisionNodeItem* n : nodes(d))
            QVERIFY2(!n->isLit(), qPrintable(n->key()));
        QVERIFY(taken_edges(d).empty());
    }
};

}  // namespace wb

QTEST_MAIN(wb::DecisionDiagramTest)
#include "decision_diagram_test.moc"

// SPDX-License-Identifier: Apache-2.0
//
// DecisionDiagram: the placement path of select_task_rq_fair() drawn as a
// diagram whose nodes carry the kernel's names, top to bottom in the order
// a wakeup meets them (decision_graph.h), with the slow path for fork and
// exec beside the fast path. showRecords() lights one wakeup's records, one
// per policy, step by step: each lit node shows each policy's step numbers
// and, under its name, the values that decided it; each policy's taken
// edges are drawn thick in its colour, the others thin grey, and a legend
// names the policies. A policy's own steps (their function is the policy's
// name) and functions the diagram does not know get a node of their own,
// dashed, inserted after the step before them: a step is never dropped.
// Items are built once; a record only restyles them.
//
// The policies are overlaid rather than drawn side by side: the nodes are
// the kernel's one call graph and two policies share most of a wakeup's
// path, so one diagram shows at a glance where they part (the coloured
// edges split there), and the values each decided by sit together under
// the node; two columns in a 370 px dock would halve the width each path's
// text wraps into.
//
// Legibility first: the text is the view's font, never scaled below it.
// The diagram is laid out for the view's width (text wraps) and scrolls
// vertically; zooming in scales it up and lays it out again for the
// narrower scene width, so nothing is ever cut off. Zoom 1 is "fit".
//
// Right-clicking a node offers "Pause when this branch is taken", which
// emits breakOnBranchRequested(function, branch) for the worker's
// breakpoints.
#pragma once

#include <QColor>
#include <QGraphicsView>
#include <QString>
#include <QStringList>
#include <memory>

#include "decision/labelled_record.h"

class QMenu;
class QGraphicsTextItem;

namespace wb {

struct DiagramInk;

class DecisionNodeItem;

class DecisionDiagram : public QGraphicsView {
    Q_OBJECT

public:
    explicit DecisionDiagram(QWidget* parent = nullptr);
    ~DecisionDiagram() override;

    // Clears the previous records and lights the records' steps in lock
    // step, one per animation interval (the first at once), then each
    // record's chosen CPU. Record i takes edge lane i.
    void showRecords(const LabelledRecords& records);
    // One record by itself, unlabelled.
    void showRecord(const DecisionRecord& rec, const QColor& policy_colour);
    // Milliseconds between steps; 0 lights a record's steps all at once.
    void setAnimationInterval(int ms);
    // The dark theme's paper and ink for the diagram (View > Dark theme).
    void setDark(bool dark);
    const DiagramInk& ink() const;
    int animationInterval() const;
    bool isAnimating() const;
    // Lights the remaining steps now.
    void finishAnimation();
    // No record: every node and edge back to grey.
    void clear();

    // "function: branch" of every step of record `index` lit so far, in order.
    QStringList litSteps(int index = 0) const;
    // The first record shown, or null.
    const DecisionRecord* record() const;
    const LabelledRecords& records() const;

    // The node a step (function, branch) lights, once it exists; null before
    // a step of an unknown function has been shown.
    DecisionNodeItem* nodeFor(const QString& function, const QString& branch) const;
    // The text shown under that node for the current records.
    QString detailFor(const QString& function, const QString& branch) const;
    int nodeCount() const;
    // The legend naming each policy shown in its colour; hidden for an
    // unlabelled record.
    const QGraphicsTextItem* legend() const;

    // --- zoom ---------------------------------------------------------------
    // 1 is "fit": laid out for the view's width at the view's font. Zoom
    // never goes below it, so text is never smaller than the font.
    double zoom() const;
    void setZoom(double zoom);
    void zoomIn();
    void zoomOut();
    void fitToWidth();
    static constexpr double kMinZoom = 1.0;
    static constexpr double kMaxZoom = 4.0;

    // The context menu for the node under `view_pos` (viewport coordinates),
    // owned by the caller; null where there is no node with a branch.
    QMenu* createBranchMenu(const QPoint& view_pos, QWidget* parent = nullptr);

signals:
    void breakOnBranchRequested(const QString& function, const QString& branch);
    void stepLit(int step_index);
    void animationFinished();
    // New records (or none, after clear()): for the details pane.
    void recordsChanged();
    void zoomChanged(double zoom);

protected:
    bool event(QEvent* event) override;
    void changeEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    struct State;

    void lightNextStep();
    void relayout();
    // Zooms keeping the node at `view_y` (viewport coordinates) in place.
    void zoomAround(double zoom, int view_y);

    std::unique_ptr<State> d_;
};

}  // namespace wb

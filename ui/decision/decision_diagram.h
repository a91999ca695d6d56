// SPDX-License-Identifier: Apache-2.0
//
// DecisionDiagram: the placement path of select_task_rq_fair() drawn as a
// diagram whose nodes carry the kernel's names, top to bottom in the order
// a wakeup meets them (decision_graph.h), with the slow path for fork and
// exec beside the fast path. showRecord() lights a DecisionRecord's steps
// one after another: each lit node shows its step number and, to its right,
// the values that decided it; the edges taken are drawn thick in the
// policy's colour, the others thin grey. A policy's own steps (their
// function is the policy's name) and functions the diagram does not know get
// a node of their own, dashed, inserted after the step before them: a step is
// never dropped. Items are built once; a record only restyles them.
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

class QMenu;

namespace wb {

struct DecisionRecord;
class DecisionNodeItem;

class DecisionDiagram : public QGraphicsView {
    Q_OBJECT

public:
    explicit DecisionDiagram(QWidget* parent = nullptr);
    ~DecisionDiagram() override;

    // Clears the previous record and lights `rec`'s steps in order, one per
    // animation interval (the first at once), then the chosen CPU.
    void showRecord(const DecisionRecord& rec, const QColor& policy_colour);
    // Milliseconds between steps; 0 lights a record's steps all at once.
    void setAnimationInterval(int ms);
    int animationInterval() const;
    bool isAnimating() const;
    // Lights the remaining steps now.
    void finishAnimation();
    // No record: every node and edge back to grey.
    void clear();

    // "function: branch" of every step lit so far, in order.
    QStringList litSteps() const;
    // The record shown, or null.
    const DecisionRecord* record() const;

    // The node a step (function, branch) lights, once it exists; null before
    // a step of an unknown function has been shown.
    DecisionNodeItem* nodeFor(const QString& function, const QString& branch) const;
    // The text shown next to that node for the current record.
    QString detailFor(const QString& function, const QString& branch) const;
    int nodeCount() const;

    // The context menu for the node under `view_pos` (viewport coordinates),
    // owned by the caller; null where there is no node with a branch.
    QMenu* createBranchMenu(const QPoint& view_pos, QWidget* parent = nullptr);

signals:
    void breakOnBranchRequested(const QString& function, const QString& branch);
    void stepLit(int step_index);
    void animationFinished();

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct State;

    void lightNextStep();
    void lightChosen();
    void fitWidth();

    std::unique_ptr<State> d_;
};

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// WhatIfPanel: for one wakeup, in exactly one state, what every listed
// policy chose and by which path, beside the kernel's own choice when the
// wakeup comes from a recorded trace. A policy whose CPU is not the
// kernel's is flagged as the recent wakeups flag a divergence: its row on
// the divergence background, "differs" in its last column. Each row's
// tooltip has the policy's steps. Selecting a row emits policyChosen, for
// the window to light that policy's path.
//
// For a simulated run, the Flip button's menu adds mainline with a feature
// switched from the run's (features.def's names: "NO_SIS_UTIL"), a row
// each, asked in the same state at the next stepped wakeup.
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>
#include <utility>
#include <vector>

#include "sched/decision.h"

class QLabel;
class QToolButton;
class QTreeWidget;

namespace wb {

class WhatIfPanel : public QWidget {
    Q_OBJECT

public:
    explicit WhatIfPanel(QWidget* parent = nullptr);

    // `heading` names the wakeup ("line 698 · sched-pipe 19850 · waker CPU 1").
    // kernel_cpu kNoCpu: no kernel choice to compare with (a simulated run).
    void showChoices(const QString& heading, CpuId kernel_cpu,
                     const std::vector<std::pair<std::string, DecisionRecord>>& choices);
    // Nothing to show, and why.
    void clear(const QString& why = {});

    int rowCount() const;
    QString policyAt(int row) const;
    CpuId chosenAt(int row) const;
    QString pathAt(int row) const;
    bool differsAt(int row) const;  // from the kernel
    const DecisionRecord* recordAt(int row) const;
    QString heading() const;

    // The Flip button: shown for a simulated run, not for a trace (whose
    // replay asks a fixed set of policies).
    void setFlipsOffered(bool on);
    // The features switched, in features.def's syntax, in menu order.
    QStringList flips() const { return flips_; }
    void setFlips(const QStringList& flips);

signals:
    void policyChosen(int row);
    void flipsChanged(const QStringList& flips);

private:
    QLabel* heading_ = nullptr;
    QTreeWidget* table_ = nullptr;
    QToolButton* flip_ = nullptr;
    QStringList flips_;
    CpuId kernel_cpu_ = kNoCpu;
    std::vector<std::pair<std::string, DecisionRecord>> choices_;
};

}  // namespace wb

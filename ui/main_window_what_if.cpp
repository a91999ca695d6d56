// SPDX-License-Identifier: Apache-2.0
//
// What if, for a simulated run: View ▸ What if (Ctrl+I) shows, at each
// stepped wakeup, what every policy of the scenario and mainline with each
// flipped feature would have chosen in exactly the state the first run
// decided it in (session/what_if.h). A trace shows the same dock with the
// kernel's choice beside (main_window_trace.cpp).
#include "main_window.h"

#include <QAction>
#include <QDockWidget>

#include "decision/decision_diagram.h"
#include "decision/palette.h"
#include "decision/what_if_panel.h"
#include "main_window_loaded.h"
#include "sim/sim_session.h"
#include "widgets/policy_grid.h"

namespace wb {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

}  // namespace

bool MainWindow::whatIfShown() const
{
    return what_if_action_->isChecked();
}

void MainWindow::setWhatIfShown(bool on)
{
    if (what_if_action_->isChecked() != on) {
        what_if_action_->setChecked(on);  // comes back here through toggled
        return;
    }
    if (!inTraceMode()) {
        if (on) {
            addDockWidget(Qt::RightDockWidgetArea, what_if_dock_);
            tabifyDockWidget(docks_[3], what_if_dock_);  // beside the recent wakeups
            what_if_dock_->show();
            what_if_dock_->raise();
            what_if_->setFlipsOffered(true);
            what_if_->clear(
                tr("Step (.) to a wakeup: every policy's choice, and mainline's with each flipped "
                   "feature, in the state it was decided in."));
        } else {
            what_if_->clear();
            removeDockWidget(what_if_dock_);
        }
    }
    pushWhatIfCases();
}

// The scenario's policies, then mainline with each flipped feature; none
// while the panel is off, so that stepping asks nothing.
void MainWindow::pushWhatIfCases()
{
    std::vector<WhatIfCase> cases;
    if (whatIfShown() && loaded_) {
        for (const std::string& policy : loaded_->setup.policies)
            cases.push_back({policy, ""});
        for (const QString& flip : what_if_->flips())
            cases.push_back({"baseline", flip.toStdString()});
    }
    session_->setWhatIf(cases);
}

void MainWindow::showWhatIf(const StepRecords& records)
{
    if (!whatIfShown() || inTraceMode() || records.what_if.empty() || grids_.empty())
        return;
    const auto& rec = records.records.front();
    if (!rec)
        return;
    if (records.what_if.front().empty()) {
        what_if_->clear(tr("wakeup #%1 · pid %2 was woken in place (%3): no CPU was selected, nothing to ask")
                            .arg(rec->seq)
                            .arg(rec->wakee)
                            .arg(qs(std::string(wake_path_name(rec->path)))));
        return;
    }
    QString heading = tr("wakeup #%1 · task %2 woken").arg(rec->seq).arg(rec->wakee);
    heading += rec->waker >= 0 ? tr(" by task %1 on CPU %2").arg(rec->waker).arg(rec->waker_cpu)
                               : tr(" from interrupt context on CPU %1").arg(rec->waker_cpu);
    heading += tr(" · prev CPU %1 · in %2's state, which chose CPU %3")
                   .arg(rec->prev_cpu)
                   .arg(grids_.front()->policy())
                   .arg(rec->chosen);
    if (rec->wake_flags & WF_SYNC)
        heading += tr(" · WF_SYNC");
    what_if_->showChoices(heading, kNoCpu, records.what_if.front());
}

// A row picked: its path in the diagram, in its row's colour.
void MainWindow::showWhatIfRow(int row)
{
    const DecisionRecord* rec = what_if_->recordAt(row);
    if (rec)
        diagram_->showRecords({{what_if_->policyAt(row), palette::policy_colour(row), *rec}});
}

}  // namespace wb

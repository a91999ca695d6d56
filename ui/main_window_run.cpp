// SPDX-License-Identifier: Apache-2.0
//
// MainWindow: the run controls and what the worker sends back (frames,
// stepped records, state changes), drawn into grids, diagram and charts.
#include "main_window.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QLabel>
#include <QMenu>
#include <QStringList>
#include <QThread>
#include <algorithm>
#include <optional>
#include <vector>

#include "charts/charts_panel.h"
#include "charts/figures_table.h"
#include "charts/headline_chart.h"
#include "charts/latency_cdf_chart.h"
#include "charts/placement_chart.h"
#include "charts/throughput_chart.h"
#include "decision/decision_diagram.h"
#include "decision/palette.h"
#include "decision/recent_wakeups.h"
#include "decision/recent_wakeups_model.h"
#include "divergence_text.h"
#include "main_window_loaded.h"
#include "metrics/comparison.h"
#include "metrics/run_figures.h"
#include "metrics/run_summary.h"
#include "policies/registry.h"
#include "sim/comparison_job.h"
#include "sim/sim_session.h"
#include "topology/machine.h"
#include "views/topology_scene.h"
#include "views/topology_view.h"
#include "widgets/policy_grid.h"
#include "window_text.h"
#include "workload/workload_spec.h"

namespace wb {

namespace {

constexpr qint64 kChartIntervalMs = 200;

}  // namespace

// --- the run ------------------------------------------------------------------

void MainWindow::runSimulation()
{
    session_->run();
}

void MainWindow::pauseSimulation()
{
    session_->pause();
}

void MainWindow::toggleRun()
{
    if (inTraceMode())
        return;  // a trace is stepped, not run
    const SimState s = session_->state();
    if (s == SimState::Running || s == SimState::Seeking)
        pauseSimulation();
    else
        runSimulation();
}

void MainWindow::stepWakeup()
{
    if (inTraceMode()) {
        showTraceFrame(traceFrameIndex() + 1);
        return;
    }
    session_->step();
}

void MainWindow::nextDivergence()
{
    if (inTraceMode()) {
        nextTraceDifference();
        return;
    }
    message_status_->setText(tr("looking for the next divergence…"));
    session_->nextDivergence();
}

void MainWindow::restartSimulation()
{
    if (!loaded_)
        return;
    // Everything the old run left on screen goes; its frames still in the
    // queue are dropped by the session (SimFrame::generation).
    recent_->clear();
    diagram_->clear();
    charts_->clear();
    for (PolicyGrid* g : grids_)
        g->view()->topologyScene()->showDecision(nullptr);
    recent_seen_.assign(recent_seen_.size(), 0);
    last_ops_.assign(last_ops_.size(), 0);
    last_time_.assign(last_time_.size(), Time());
    divergence_status_->clear();
    message_status_->clear();
    session_->restart();
}

void MainWindow::setSpeed(double simulated_per_wall_second)
{
    speed_ = simulated_per_wall_second;
    session_->setSpeed(speed_);
    if (speed_label_)
        updateSpeedLabel();
}

void MainWindow::runTo(Time until)
{
    session_->runTo(until);
}

void MainWindow::addBreakpoint(const Breakpoint& bp)
{
    if (std::find(breakpoints_.begin(), breakpoints_.end(), bp) == breakpoints_.end())
        breakpoints_.push_back(bp);
    pushBreakpoints();
    message_status_->setText(tr("breakpoint: %1").arg(QString::fromStdString(bp.describe())));
}

void MainWindow::clearBreakpoints()
{
    breakpoints_.clear();
    pushBreakpoints();
}

void MainWindow::setBreakOnDivergence(bool on)
{
    break_on_divergence_ = on;
    if (break_divergence_ && break_divergence_->isChecked() != on)
        break_divergence_->setChecked(on);
    pushBreakpoints();
}

void MainWindow::pushBreakpoints()
{
    session_->setBreakpoints(breakpoints_, break_on_divergence_);
    if (!active_breaks_)
        return;
    active_breaks_->clear();
    for (const Breakpoint& bp : breakpoints_)
        active_breaks_->addAction(QString::fromStdString(bp.describe()));
    active_breaks_->setEnabled(!breakpoints_.empty());
}

void MainWindow::startComparison()
{
    if (!loaded_)
        return;
    message_status_->setText(tr("comparison starting…"));
    const int jobs = std::max(1, QThread::idealThreadCount() - 1);
    comparison_job_->start(loaded_->setup.machine, loaded_->scenario, jobs);
}

// --- what the worker sends ------------------------------------------------------

void MainWindow::onFrame(const SimFrame& frame)
{
    QElapsedTimer timer;
    timer.start();
    const bool moving = frame.state == SimState::Running || frame.state == SimState::Seeking;
    const std::size_t n = std::min(frame.runs.size(), grids_.size());
    for (std::size_t i = 0; i < n; ++i) {
        TopologyScene* scene = grids_[i]->view()->topologyScene();
        scene->applySnapshot(frame.runs[i].cpus);
        grids_[i]->showFigures(frame.runs[i]);
        if (i >= frame.recent.size())
            continue;
        const std::vector<DecisionRecord>& recs = frame.recent[i];
        // While running, the grid shows the latest wakeup; when paused it
        // keeps the one stepped to.
        if (moving && !recs.empty())
            scene->showDecision(&recs.back());
        std::vector<DecisionRecord> fresh;
        for (const DecisionRecord& r : recs)
            if (r.seq >= recent_seen_[i])
                fresh.push_back(r);
        if (!fresh.empty()) {
            recent_seen_[i] = fresh.back().seq + 1;
            recent_->addRecords(static_cast<int>(i), fresh);
        }
    }
    if (frame.first_divergence && divergence_status_->text().isEmpty()) {
        const Divergence& d = *frame.first_divergence;
        recent_->markDivergence(d.wakeup);
        std::vector<PolicyChoice> choices;
        for (std::size_t i = 0; i < d.records.size() && i < grids_.size(); ++i)
            choices.push_back({grids_[i]->policy(), &d.records[i]});
        // Short in the status bar, which it shares; the choices in its tooltip.
        divergence_status_->setText(tr("first divergence @ wakeup #%1 (%2)")
                                        .arg(d.wakeup)
                                        .arg(duration_text(d.records.empty() ? Time() : d.records.front().time)));
        divergence_status_->setToolTip(divergence_text(d.wakeup, choices));
    }
    if (!frame.runs.empty()) {
        Time now = Time::max();
        for (const RunSnapshot& r : frame.runs)
            now = std::min(now, r.now);
        time_status_->setText(tr("simulated %1").arg(duration_text(now)));
        if (moving)
            rate_status_->setText(events_text(frame.events_per_second));
        else
            rate_status_->setText(frame.state == SimState::Finished ? tr("finished") : tr("paused"));
        const double p = frame.runs.front().progress;
        progress_status_->setText(p >= 0 ? tr("%1% done").arg(p * 100, 0, 'f', 1)
                                         : tr("%1 ops").arg(frame.runs.front().ops, 0, 'f', 0));
    }
    const qint64 now_ms = QDateTime::currentMSecsSinceEpoch();
    const bool full = !moving || now_ms - last_chart_ms_ >= kChartIntervalMs;
    if (full)
        last_chart_ms_ = now_ms;
    updateChartsFromFrame(frame, full);
    const double ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    ++frame_stats_.frames;
    frame_stats_.total_ms += ms;
    frame_stats_.max_ms = std::max(frame_stats_.max_ms, ms);
    emit frameShown(frame.serial);
}

// The throughput line takes every frame's point; the distributions and the
// headline, which redraw whole, only a few times a second.
void MainWindow::updateChartsFromFrame(const SimFrame& frame, bool full)
{
    const std::size_t n = std::min(frame.runs.size(), last_ops_.size());
    for (std::size_t i = 0; i < n; ++i) {
        const RunSnapshot& r = frame.runs[i];
        const int policy = static_cast<int>(i);
        // A rate over a sliver of time (a step, the last wakeup before a
        // pause) is mostly noise: a point needs at least 1/500 of the run
        // so far, or 100 us, unless the run just ended.
        const Time window = std::max(Time::us(100), Time::ns(r.now.ns() / 500));
        if (r.now > last_time_[i] && (r.now - last_time_[i] >= window || r.finished)) {
            // The rate is the mean over the window: drawn flat across it,
            // so that even a single frame (a headless --at) shows a line.
            const double rate = (r.ops - last_ops_[i]) / (r.now - last_time_[i]).to_seconds();
            charts_->throughput()->addSample(policy, last_time_[i].to_seconds(), rate);
            charts_->throughput()->addSample(policy, r.now.to_seconds(), rate);
            last_ops_[i] = r.ops;
            last_time_[i] = r.now;
        }
        if (!full)
            continue;
        charts_->latency()->setDistribution(policy, r.metrics.wakeup_latency);
        // The figures `wakesim run --json` writes, of the run so far; none
        // before any simulated time, when no rate is defined.
        if (r.now > Time())
            charts_->figures()->setFigures(policy, run_figures(r.metrics, r.now, r.ops, r.headline), r.headline);
        if (!comparison_)
            charts_->placement()->setPlacement(policy, placement_fractions(r.metrics.placement_from_waker));
    }
    // Until the full comparison has run, the headline chart shows the one
    // seed on screen, as a comparison of one run.
    if (!full || comparison_ || !loaded_ || frame.runs.empty())
        return;
    Comparison live;
    live.cases = {loaded_->setup.case_label};
    live.workloads = {loaded_->setup.base.workload};
    live.runs = 1;
    for (const RunSnapshot& r : frame.runs) {
        live.policies.push_back(r.policy);
        ComparisonCell cell;
        cell.policy = r.policy;
        cell.case_label = loaded_->setup.case_label;
        cell.metric = r.headline.name;
        cell.unit = r.headline.unit;
        cell.lower_is_better = r.headline.lower_is_better;
        cell.values = {r.headline.value};
        cell.unfinished = r.finished ? 0 : 1;
        cell.placement = placement_fractions(r.metrics.placement_from_waker);
        live.cells.push_back(std::move(cell));
    }
    finish_comparison(live);
    charts_->headline()->setComparison(live);
}

void MainWindow::onStepped(const StepRecords& records)
{
    for (std::size_t i = 0; i < records.records.size() && i < grids_.size(); ++i) {
        const auto& rec = records.records[i];
        grids_[i]->view()->topologyScene()->showDecision(rec ? &*rec : nullptr);
        if (rec && rec->seq >= recent_seen_[i]) {
            recent_->addRecord(static_cast<int>(i), *rec);
            recent_seen_[i] = rec->seq + 1;
        }
    }
    // Every policy's path for this wakeup, overlaid in policy order so that
    // each keeps its colour and lane.
    LabelledRecords shown;
    for (std::size_t i = 0; i < records.records.size() && i < grids_.size(); ++i)
        if (records.records[i])
            shown.push_back({grids_[i]->policy(), palette::policy_colour(static_cast<int>(i)), *records.records[i]});
    if (!shown.empty())
        diagram_->showRecords(shown);
    showWhatIf(records);
    if (records.diverged && !records.records.empty() && records.records.front()) {
        std::vector<PolicyChoice> choices;
        for (std::size_t i = 0; i < records.records.size() && i < grids_.size(); ++i)
            choices.push_back({grids_[i]->policy(), records.records[i] ? &*records.records[i] : nullptr});
        message_status_->setText(tr("differs: %1").arg(divergence_text(records.records.front()->seq, choices)));
    }
}

// A wakeup picked in the list: with the other policies' records of the same
// wakeup the list still holds, so that the diagram compares them.
void MainWindow::showRecordInDiagram(int policy, const DecisionRecord& rec)
{
    std::vector<std::optional<DecisionRecord>> by_policy(grids_.size());
    if (policy >= 0 && policy < gridCount())
        by_policy[static_cast<std::size_t>(policy)] = rec;
    const RecentWakeupsModel* model = recent_->wakeupsModel();
    for (int row = model->rowCount() - 1; row >= 0; --row) {
        const int p = model->policyAt(row);
        if (p >= 0 && p < gridCount() && !by_policy[static_cast<std::size_t>(p)] && model->recordAt(row).seq == rec.seq)
            by_policy[static_cast<std::size_t>(p)] = model->recordAt(row);
    }
    LabelledRecords shown;
    for (std::size_t i = 0; i < by_policy.size(); ++i)
        if (by_policy[i])
            shown.push_back({grids_[i]->policy(), palette::policy_colour(static_cast<int>(i)), *by_policy[i]});
    if (shown.empty())
        shown.push_back({QString(), palette::policy_colour(policy), rec});
    diagram_->showRecords(shown);
}

void MainWindow::onStateChanged(SimState state)
{
    const bool moving = state == SimState::Running || state == SimState::Seeking;
    run_->setEnabled(!moving && state == SimState::Paused);
    pause_->setEnabled(moving);
    step_->setEnabled(state == SimState::Paused);
    divergence_->setEnabled(state == SimState::Paused && gridCount() > 1);
    divergence_->setToolTip(tr("Step to the next wakeup the policies decide differently (D)"));
    restart_->setEnabled(true);
    // Animating every record while running would only flicker.
    diagram_->setAnimationInterval(moving ? 0 : 350);
    if (inTraceMode())
        updateTraceActions();  // the simulation waits behind the trace
}

void MainWindow::onStopped(const QString& why)
{
    message_status_->setText(why);
}

// A policy broke its contract mid-run: the worker has dropped the runs. The
// grids keep the last frame and the form the scenario, to change the policy
// or rebuild the plugin and reload it.
void MainWindow::onRunFailed(const QString& message)
{
    rate_status_->setText(tr("stopped"));
    message_status_->setText(tr("the run stopped: %1").arg(message));
    fail(tr("The run stopped"),
         tr("A policy broke the hook contract: the runs stopped, the scenario stays.\n%1\n"
            "Restart runs them again; after a fix, File ▸ Reload policy plugins (Ctrl+R) loads the rebuilt plugin.")
             .arg(message));
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// MainWindow: a recorded trace in the window (File ▸ Open trace…). The
// trace is replayed on a worker thread (TraceJob, replay_trace() as
// `wakesim trace replay` runs it); the window then shows its wakeups one at
// a time in grids of their own, in place of the simulation's, which stay
// as they were behind them: each replayed wakeup's CPUs (the state every
// policy was asked in), each policy's record over its grid beside the
// kernel's choice (a dashed ring and K), every policy's path in the
// diagram, and in the What if dock every policy's choice. Step, Next
// divergence and the keys walk the wakeups; Close trace, or a scenario
// opened, brings the simulation back.
#include "main_window.h"

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QProgressDialog>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStringList>
#include <algorithm>

#include "decision/decision_diagram.h"
#include "decision/palette.h"
#include "decision/what_if_panel.h"
#include "divergence_text.h"
#include "io/input_error.h"
#include "io/lscpu_import.h"
#include "io/topology_library.h"
#include "main_window_loaded.h"
#include "policies/registry.h"
#include "run_keys.h"
#include "session/run_snapshot.h"
#include "sim/sim_session.h"
#include "sim/trace_job.h"
#include "topology/machine.h"
#include "views/topology_scene.h"
#include "views/topology_view.h"
#include "widgets/policy_grid.h"
#include "widgets/trace_open_dialog.h"
#include "window_text.h"

namespace wb {

namespace {

const QString kLscpuPrefix = QStringLiteral("lscpu:");

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// A word of a shell command, quoted when it needs to be.
QString shell_word(const QString& word)
{
    static const QString safe = QStringLiteral("-_./:=,+@%^");
    const bool plain = !word.isEmpty() && std::all_of(word.begin(), word.end(), [](QChar c) {
        return c.isLetterOrNumber() || safe.contains(c);
    });
    if (plain)
        return word;
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

// The replayed CPUs as the grid draws a run's: the running task coloured
// by its name, so that one task keeps its colour from wakeup to wakeup.
std::vector<CpuSnapshot> snapshot_of(const ReplayFrame& frame)
{
    std::vector<CpuSnapshot> out;
    out.reserve(frame.cpus.size());
    for (std::size_t i = 0; i < frame.cpus.size(); ++i) {
        const ReplayCpu& c = frame.cpus[i];
        CpuSnapshot s;
        s.cpu = static_cast<CpuId>(i);
        s.nr_running = c.nr_running;
        s.curr = c.curr_pid > 0 ? c.curr_pid : kNoTask;
        s.curr_group = static_cast<int>(qHash(qs(c.curr_comm)) % 9);
        s.idle = c.idle;
        s.util_avg = c.util_avg;
        s.llc_has_idle_cores = c.llc_has_idle_cores;
        out.push_back(s);
    }
    return out;
}

std::vector<QString> names_of(const ReplayFrame& frame)
{
    std::vector<QString> out;
    for (const ReplayCpu& c : frame.cpus)
        out.push_back(c.curr_pid > 0 ? QStringLiteral("%1 %2").arg(qs(c.curr_comm)).arg(c.curr_pid) : QString());
    return out;
}

bool reference_differs(const ReplayFrame& f)
{
    return !f.choices.empty() && f.choices.front().second.chosen != f.kernel_cpu;
}

}  // namespace

void MainWindow::buildTraceMode()
{
    trace_job_ = new TraceJob(this);
    connect(trace_job_, &TraceJob::progress, this, [this](double done) {
        if (trace_progress_) {
            trace_progress_->setLabelText(tr("Replaying %1…").arg(QFileInfo(trace_progress_->windowTitle()).fileName()));
            trace_progress_->setValue(static_cast<int>(done * 1000));
        }
    });
    connect(trace_job_, &TraceJob::finished, this, &MainWindow::onTraceLoaded);
    connect(trace_job_, &TraceJob::failed, this, [this](const QString& message) {
        if (trace_progress_)
            trace_progress_->reset();
        fail(tr("Cannot open trace"), tr("The trace could not be replayed; the scenario stays.\n%1").arg(message));
        emit traceLoadStopped(message);
    });

    trace_progress_ = new QProgressDialog(this);
    trace_progress_->setObjectName(QStringLiteral("traceProgress"));
    trace_progress_->setRange(0, 1000);
    trace_progress_->setWindowModality(Qt::WindowModal);
    trace_progress_->setMinimumDuration(400);  // a small trace is replayed before it would show
    trace_progress_->setAutoClose(true);  // reset() hides it
    trace_progress_->setAutoReset(false);
    connect(trace_progress_, &QProgressDialog::canceled, this, &MainWindow::cancelTraceLoad);
    trace_progress_->reset();

    trace_area_ = new QWidget(central_);
    trace_area_->setObjectName(QStringLiteral("traceArea"));
    trace_layout_ = new QGridLayout(trace_area_);
    trace_layout_->setContentsMargins(4, 4, 4, 4);
    trace_layout_->setSpacing(6);
    central_->addWidget(trace_area_);

    what_if_ = new WhatIfPanel(this);
    what_if_->setObjectName(QStringLiteral("whatIfPanel"));
    what_if_dock_ = new QDockWidget(tr("What if"), this);
    what_if_dock_->setObjectName(QStringLiteral("whatIfDock"));
    what_if_dock_->setWidget(what_if_);
    // In the window with a trace only (enterTraceMode), so that the
    // simulation's layout is the one it had without: a dock hidden in a tab
    // group still weighs on its area's size.
    what_if_dock_->hide();
    connect(what_if_, &WhatIfPanel::policyChosen, this, &MainWindow::showWhatIfRow);
    connect(what_if_, &WhatIfPanel::flipsChanged, this, &MainWindow::pushWhatIfCases);
    what_if_action_ = new QAction(tr("&What if"), this);
    what_if_action_->setObjectName(QStringLiteral("whatIfAction"));
    what_if_action_->setCheckable(true);
    what_if_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    what_if_action_->setToolTip(tr("At each stepped wakeup, what every policy and mainline with a flipped "
                                   "feature would choose in the same state (Ctrl+I)"));
    connect(what_if_action_, &QAction::toggled, this, &MainWindow::setWhatIfShown);

    open_trace_ = new QAction(tr("Open &trace…"), this);
    open_trace_->setObjectName(QStringLiteral("openTraceAction"));
    open_trace_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    open_trace_->setToolTip(tr("Replay a recorded trace's wakeups, each in the state the kernel decided it in"));
    connect(open_trace_, &QAction::triggered, this, &MainWindow::openTraceDialog);
    close_trace_ = new QAction(tr("&Close trace"), this);
    close_trace_->setObjectName(QStringLiteral("closeTraceAction"));
    close_trace_->setEnabled(false);
    connect(close_trace_, &QAction::triggered, this, &MainWindow::closeTrace);
    step_back_ = new QAction(tr("Step &back one wakeup"), this);
    step_back_->setObjectName(QStringLiteral("stepBackAction"));
    step_back_->setShortcuts({QKeySequence(Qt::Key_Comma), QKeySequence(Qt::Key_Left)});
    step_back_->setToolTip(tr("The trace's wakeup before this one (, or Left)"));
    step_back_->setEnabled(false);
    connect(step_back_, &QAction::triggered, this, &MainWindow::stepTraceBack);
    addAction(step_back_);

    trace_status_ = new QLabel(this);
    trace_status_->setObjectName(QStringLiteral("traceStatus"));
    trace_flag_ = new QLabel(this);
    trace_flag_->setObjectName(QStringLiteral("traceFlag"));
    trace_flag_->setAutoFillBackground(true);
    QPalette flag = trace_flag_->palette();
    flag.setColor(QPalette::Window, palette::divergence_background());
    flag.setColor(QPalette::WindowText, Qt::black);
    trace_flag_->setPalette(flag);
    statusBar()->addWidget(trace_status_);
    statusBar()->addWidget(trace_flag_);
    trace_status_->hide();
    trace_flag_->hide();
}

void MainWindow::openTraceDialog()
{
    QStringList policies;
    if (loaded_)
        for (const std::string& p : loaded_->setup.policies)
            policies << QString::fromStdString(p);
    if (policies.isEmpty())
        policies << QStringLiteral("baseline");
    TraceOpenDialog dialog(loaded_ ? QString::fromStdString(loaded_->setup.machine.name) : tr("none"), policies, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const TraceRequest r = dialog.request();
    openTrace(r.path, r.machine, r.policies);
}

bool MainWindow::openTrace(const QString& path, const QString& machine_spec, const QStringList& policies)
{
    ReplayOptions options;
    Machine machine;
    try {
        if (machine_spec.startsWith(kLscpuPrefix))
            machine = import_lscpu(machine_spec.mid(kLscpuPrefix.size()).toStdString()).machine;
        else if (!machine_spec.isEmpty())
            machine = resolve_machine(machine_spec.toStdString());
        else if (loaded_)
            machine = loaded_->setup.machine;
        else
            machine = resolve_machine(defaultScenario().machine);
        if (!policies.isEmpty()) {
            options.policies.clear();
            for (const QString& p : policies)
                options.policies.push_back(p.toStdString());
        } else if (loaded_) {
            options.policies = loaded_->setup.policies;
        }
        for (const std::string& p : options.policies)
            make_policy(p, "--policies");
    } catch (const std::exception& e) {
        fail(tr("Cannot open trace"),
             tr("Could not replay %1; the scenario stays.\n%2").arg(path, QString::fromStdString(e.what())));
        return false;
    }
    // The spec wakesim is given: the scenario's machine by its spec.
    const QString spec = !machine_spec.isEmpty() ? machine_spec
                         : loaded_             ? QString::fromStdString(loaded_->setup.machine_spec)
                                               : QString::fromStdString(defaultScenario().machine);
    trace_progress_->setWindowTitle(path);
    trace_progress_->setLabelText(tr("Reading %1…").arg(QFileInfo(path).fileName()));
    trace_progress_->setValue(0);
    message_status_->setText(tr("replaying %1…").arg(QFileInfo(path).fileName()));
    trace_job_->start(path, spec, machine, options);
    return true;
}

void MainWindow::cancelTraceLoad()
{
    if (!trace_job_->running())
        return;
    trace_job_->cancel();
    trace_progress_->reset();
    message_status_->setText(tr("trace replay cancelled"));
    emit traceLoadStopped(tr("cancelled"));
}

bool MainWindow::isLoadingTrace() const
{
    return trace_job_ && trace_job_->running();
}

void MainWindow::onTraceLoaded()
{
    trace_progress_->reset();
    std::unique_ptr<LoadedTrace> t = trace_job_->take();
    if (!t)
        return;
    if (t->frames.empty()) {
        fail(tr("Cannot open trace"),
             tr("%1: no wakeup to replay: none of its wakeups went through select_task_rq() (forks and "
                "per-CPU kthreads are not replayed); the scenario stays.")
                 .arg(t->path));
        emit traceLoadStopped(tr("no wakeups"));
        return;
    }
    enterTraceMode(std::move(t));
    emit traceLoaded();
}

void MainWindow::enterTraceMode(std::unique_ptr<LoadedTrace> trace)
{
    const bool what_if_shown = trace_ != nullptr;
    if (!trace_) {
        // The simulation waits, as it was, behind the trace.
        session_->pause();
        sim_diagram_ = diagram_->records();
    }
    trace_ = std::move(trace);
    for (PolicyGrid* g : trace_grids_)
        delete g;
    trace_grids_.clear();
    const int n = static_cast<int>(trace_->options.policies.size());
    const int columns = n == 1 ? 1 : 2;
    for (int i = 0; i < n; ++i) {
        const std::size_t at = static_cast<std::size_t>(i);
        auto* g = new PolicyGrid(i, QString::fromStdString(trace_->options.policies[at]), palette::policy_colour(i),
                                 trace_area_);
        g->setObjectName(QStringLiteral("traceGrid%1").arg(i));
        trace_layout_->addWidget(g, i / columns, i % columns);
        trace_grids_.push_back(g);
    }
    for (int r = 0; r < 2; ++r)
        trace_layout_->setRowStretch(r, r < (n + columns - 1) / columns ? 1 : 0);
    for (int c = 0; c < 2; ++c)
        trace_layout_->setColumnStretch(c, c < columns ? 1 : 0);
    central_->setCurrentWidget(trace_area_);
    trace_layout_->activate();
    for (std::size_t i = 0; i < trace_grids_.size(); ++i) {
        PolicyGrid* g = trace_grids_[i];
        if (QLayout* inner = g->layout())
            inner->activate();
        g->view()->setMachine(trace_->machine);
        g->view()->topologyScene()->setDark(dark_);
        if (i < trace_->result.policies.size()) {
            const ReplayFigures& f = trace_->result.policies[i].sync_inferred;
            const double share = f.wakeups ? 100.0 * static_cast<double>(f.same_cpu) / static_cast<double>(f.wakeups) : 0;
            g->showFiguresText(tr("kernel's CPU %1%").arg(share, 0, 'f', 1),
                               tr("the kernel's CPU at %1 of %2 replayed wakeups (WF_SYNC inferred)")
                                   .arg(f.same_cpu)
                                   .arg(f.wakeups));
        }
    }
    if (!trace_grids_.empty()) {
        run_keys_->setHome(trace_grids_.front()->view());
        trace_grids_.front()->view()->setFocus(Qt::OtherFocusReason);
    }
    for (QLabel* l : {time_status_, rate_status_, progress_status_, divergence_status_})
        l->hide();
    trace_status_->show();
    if (!what_if_shown && !whatIfShown()) {
        addDockWidget(Qt::RightDockWidgetArea, what_if_dock_);
        tabifyDockWidget(docks_[3], what_if_dock_);  // beside the recent wakeups
    }
    what_if_->setFlipsOffered(false);  // the replay asked its policies once, on loading
    what_if_dock_->show();
    what_if_dock_->raise();
    const QString file = QFileInfo(trace_->path).fileName();
    setWindowTitle(tr("Wakebench — trace %1 — %2").arg(file, QString::fromStdString(trace_->machine.name)));
    machine_status_->setText(tr("%1 · %2 CPUs").arg(QString::fromStdString(trace_->machine.name)).arg(trace_->machine.nr_cpus()));
    message_status_->setText(
        trace_->capped ? tr("kept the first %1 of %2 replayed wakeups").arg(trace_->frames.size()).arg(trace_->result.replayed)
                       : tr("%1 wakeups replayed").arg(trace_->result.replayed));
    trace_index_ = -1;
    updateTraceActions();
    showTraceFrame(0);
}

void MainWindow::closeTrace()
{
    if (!trace_)
        return;
    trace_.reset();
    trace_index_ = -1;
    for (PolicyGrid* g : trace_grids_)
        delete g;
    trace_grids_.clear();
    central_->setCurrentWidget(grid_area_);
    trace_status_->hide();
    trace_flag_->hide();
    for (QLabel* l : {time_status_, rate_status_, progress_status_, divergence_status_})
        l->show();
    what_if_->clear();
    if (whatIfShown())
        setWhatIfShown(true);  // the simulation's own What if again
    else
        removeDockWidget(what_if_dock_);
    if (sim_diagram_.empty())
        diagram_->clear();
    else
        diagram_->showRecords(sim_diagram_);
    sim_diagram_.clear();
    message_status_->clear();
    if (loaded_) {
        const Machine& m = loaded_->setup.machine;
        setWindowTitle(tr("Wakebench — %1 — %2")
                           .arg(QString::fromStdString(loaded_->scenario.name), QString::fromStdString(m.name)));
        machine_status_->setText(tr("%1 · %2 · %3")
                                     .arg(QString::fromStdString(m.name), plural(m.nr_cpus(), "CPU", "CPUs"),
                                          plural(m.nr_llcs(), "LLC", "LLCs")));
    }
    if (!grids_.empty()) {
        run_keys_->setHome(grids_.front()->view());
        grids_.front()->view()->setFocus(Qt::OtherFocusReason);
    }
    updateTraceActions();
    onStateChanged(session_->state());
}

void MainWindow::updateTraceActions()
{
    const bool on = trace_ != nullptr;
    close_trace_->setEnabled(on);
    step_back_->setEnabled(on && trace_index_ > 0);
    if (!on)
        return;
    const int last = traceFrameCount() - 1;
    run_->setEnabled(false);
    pause_->setEnabled(false);
    restart_->setEnabled(false);
    step_->setEnabled(trace_index_ < last);
    divergence_->setEnabled(trace_index_ < last);
    divergence_->setToolTip(tr("Step to the next wakeup the reference policy places elsewhere than the kernel (D)"));
}

int MainWindow::traceFrameCount() const
{
    return trace_ ? static_cast<int>(trace_->frames.size()) : 0;
}

const ReplayFrame* MainWindow::traceFrame() const
{
    if (!trace_ || trace_index_ < 0 || trace_index_ >= traceFrameCount())
        return nullptr;
    return &trace_->frames[static_cast<std::size_t>(trace_index_)];
}

void MainWindow::showTraceFrame(int index)
{
    if (!trace_ || index < 0 || index >= traceFrameCount())
        return;
    trace_index_ = index;
    const ReplayFrame& f = trace_->frames[static_cast<std::size_t>(index)];
    const std::vector<CpuSnapshot> cpus = snapshot_of(f);
    const std::vector<QString> names = names_of(f);
    LabelledRecords shown;
    for (std::size_t i = 0; i < trace_grids_.size(); ++i) {
        TopologyScene* scene = trace_grids_[i]->view()->topologyScene();
        scene->applySnapshot(cpus);
        scene->setTaskNames(names);
        scene->showKernelChoice(f.kernel_cpu);
        scene->showDecision(i < f.choices.size() ? &f.choices[i].second : nullptr);
        if (i < f.choices.size())
            shown.push_back({qs(f.choices[i].first), palette::policy_colour(static_cast<int>(i)), f.choices[i].second});
    }
    if (!shown.empty())
        diagram_->showRecords(shown);

    QString heading = tr("line %1 · %2 %3 woken").arg(f.line).arg(qs(f.comm)).arg(f.pid);
    heading += f.waker_pid > 0 ? tr(" by pid %1 on CPU %2").arg(f.waker_pid).arg(f.waker_cpu)
                               : tr(" from interrupt context on CPU %1").arg(f.waker_cpu);
    heading += tr(" · prev CPU %1 · kernel CPU %2").arg(f.prev_cpu).arg(f.kernel_cpu);
    if (f.sync)
        heading += tr(" · WF_SYNC (inferred)");
    what_if_->showChoices(heading, f.kernel_cpu, f.choices);

    trace_status_->setText(traceStatusText());
    trace_status_->setToolTip(tr("The same replay: %1").arg(traceCommand()));
    QStringList differ;
    for (const auto& [spec, rec] : f.choices)
        if (rec.chosen != f.kernel_cpu) {
            QString part = QStringLiteral("%1 → CPU %2").arg(qs(spec)).arg(rec.chosen);
            const QString reason = choice_reason(rec, qs(spec));
            if (!reason.isEmpty())
                part += QStringLiteral(" (%1)").arg(reason);
            differ << part;
        }
    if (differ.isEmpty()) {
        trace_flag_->clear();
        trace_flag_->hide();
    } else {
        trace_flag_->setText(tr(" differs: kernel → CPU %1, %2 ").arg(f.kernel_cpu).arg(differ.join(QStringLiteral(", "))));
        trace_flag_->show();
    }
    updateTraceActions();
}

QString MainWindow::traceStatusText() const
{
    const ReplayFrame* f = traceFrame();
    if (!f)
        return {};
    QString text = tr("trace %1 — wakeup %2 of %3, line %4: kernel CPU %5")
                       .arg(QFileInfo(trace_->path).fileName())
                       .arg(trace_index_ + 1)
                       .arg(traceFrameCount())
                       .arg(f->line)
                       .arg(f->kernel_cpu);
    if (!f->choices.empty()) {
        const auto& [spec, rec] = f->choices.front();
        text += tr(", %1 CPU %2 (%3)").arg(qs(spec)).arg(rec.chosen).arg(qs(wake_path_name(rec.path)));
    }
    return text;
}

void MainWindow::stepTraceBack()
{
    if (trace_ && trace_index_ > 0)
        showTraceFrame(trace_index_ - 1);
}

void MainWindow::nextTraceDifference()
{
    if (!trace_)
        return;
    for (int i = trace_index_ + 1; i < traceFrameCount(); ++i)
        if (reference_differs(trace_->frames[static_cast<std::size_t>(i)])) {
            showTraceFrame(i);
            return;
        }
    message_status_->setText(tr("no later wakeup where %1 differs from the kernel")
                                 .arg(QString::fromStdString(trace_->options.policies.front())));
}

QString MainWindow::traceCommand() const
{
    if (!trace_)
        return {};
    QStringList words{QStringLiteral("wakesim"), QStringLiteral("trace"), QStringLiteral("replay"),
                      shell_word(trace_->path)};
    if (trace_->machine_spec.startsWith(kLscpuPrefix))
        words << QStringLiteral("--lscpu") << shell_word(trace_->machine_spec.mid(kLscpuPrefix.size()));
    else
        words << QStringLiteral("--topology") << shell_word(trace_->machine_spec);
    QStringList policies;
    for (const std::string& p : trace_->options.policies)
        policies << QString::fromStdString(p);
    words << QStringLiteral("--policies") << shell_word(policies.join(QLatin1Char(',')));
    return words.join(QLatin1Char(' '));
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QGridLayout>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStringList>
#include <QStyle>
#include <QPointer>
#include <QTimer>
#include <QToolBar>
#include <algorithm>
#include <cmath>
#include <fstream>

#include "charts/charts_panel.h"
#include "charts/headline_chart.h"
#include "charts/placement_chart.h"
#include "decision/decision_diagram.h"
#include "decision/decision_focus.h"
#include "decision/decision_panel.h"
#include "decision/recent_wakeups.h"
#include "export/export_dialog.h"
#include "export/export_frame.h"
#include "export/export_view.h"
#include "export/results_export.h"
#include "export/window_export.h"
#include "guarded_application.h"
#include "main_window_loaded.h"
#include "message_box.h"
#include "metrics/comparison.h"
#include "policies/registry.h"
#include "run_keys.h"
#include "session/scenario_session.h"
#include "session/trace_export.h"
#include "sim/comparison_job.h"
#include "sim/sim_session.h"
#include "sim/trace_job.h"
#include "sweep/sweep_menu.h"
#include "theme.h"
#include "topology/machine.h"
#include "views/topology_scene.h"
#include "views/topology_view.h"
#include "widgets/domain_panel.h"
#include "widgets/grid_legend.h"
#include "widgets/policy_grid.h"
#include "widgets/scenario_panel.h"
#include "window_text.h"

namespace wb {

namespace {

// Simulated seconds per wall second, slow to fast; 0 is "as fast as possible".
const double kSpeeds[] = {1e-6, 2e-6, 5e-6, 1e-5, 2e-5, 5e-5, 1e-4, 2e-4, 5e-4, 1e-3,
                          2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 0.1,  0.2,  0.5,  1.0,  0.0};
constexpr int kSpeedCount = static_cast<int>(sizeof(kSpeeds) / sizeof(kSpeeds[0]));
// Wall seconds the first SimWorker::kPacedWakeups decisions take at the
// default speed: slow enough to watch, quick enough not to wait.
constexpr double kPacedSeconds = 10;
// Presentation mode's fonts, over the window's usual ones.
constexpr double kPresentationScale = 1.45;

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowTitle(tr("Wakebench"));
    setDockNestingEnabled(true);
    setErrorHandler({});
    normal_font_ = font();
    // An exception that escapes into the event loop is shown here, after the
    // event that threw is over, and the window goes on.
    GuardedApplication::setReporter([window = QPointer<MainWindow>(this)](const QString& what) {
        if (!window)
            return;
        QTimer::singleShot(0, window.data(), [window, what] {
            if (!window)
                return;
            window->message_status_->setText(tr("internal error: %1").arg(what));
            window->fail(tr("Internal error"),
                         tr("Something went wrong inside Wakebench, and the step it was taking was abandoned:\n%1\n\n"
                            "The window and your scenario are intact.")
                             .arg(what));
        });
    });

    session_ = new SimSession(this);
    connect(session_, &SimSession::frameReady, this, &MainWindow::onFrame);
    connect(session_, &SimSession::stepped, this, &MainWindow::onStepped);
    connect(session_, &SimSession::stateChanged, this, &MainWindow::onStateChanged);
    connect(session_, &SimSession::stopped, this, &MainWindow::onStopped);
    connect(session_, &SimSession::paced, this, &MainWindow::applyPace);
    connect(session_, &SimSession::failed, this, [this](const QString& message) {
        fail(tr("Cannot run the scenario"), tr("The runs could not start.\n%1").arg(message));
    });
    connect(session_, &SimSession::runFailed, this, &MainWindow::onRunFailed);
    comparison_job_ = new ComparisonJob(this);
    connect(comparison_job_, &ComparisonJob::progress, this, [this](int done, int total) {
        message_status_->setText(tr("comparison %1/%2 runs").arg(done).arg(total));
    });
    connect(comparison_job_, &ComparisonJob::finished, this, [this](const Comparison& c, const QString&) {
        comparison_ = std::make_unique<Comparison>(c);
        charts_->headline()->setComparison(c);
        charts_->placement()->setComparison(c);
        message_status_->setText(tr("comparison done: %1 runs per policy").arg(c.runs));
    });
    connect(comparison_job_, &ComparisonJob::failed, this, [this](const QString& message) {
        fail(tr("Comparison failed"), tr("The comparison stopped.\n%1").arg(message));
    });

    grid_area_ = new QWidget;
    grid_area_->setObjectName(QStringLiteral("gridArea"));
    grid_layout_ = new QGridLayout(grid_area_);
    grid_layout_->setContentsMargins(4, 4, 4, 4);
    grid_layout_->setSpacing(6);
    // Rows 0 and 1 hold the grids (rebuildGrids); the legend stays below.
    grid_layout_->addWidget(new GridLegend(grid_area_), 2, 0, 1, 2);
    central_ = new QStackedWidget(this);
    central_->setObjectName(QStringLiteral("centralStack"));
    central_->addWidget(grid_area_);
    setCentralWidget(central_);

    run_keys_ = new RunKeys(this);
    buildActions();
    buildDocks();
    buildTraceMode();
    buildMenus();
    buildToolbar();

    machine_status_ = new QLabel(tr("No scenario loaded"), this);
    machine_status_->setObjectName(QStringLiteral("machineStatus"));
    time_status_ = new QLabel(this);
    time_status_->setObjectName(QStringLiteral("timeStatus"));
    rate_status_ = new QLabel(this);
    progress_status_ = new QLabel(this);
    divergence_status_ = new QLabel(this);
    divergence_status_->setObjectName(QStringLiteral("divergenceStatus"));
    message_status_ = new QLabel(this);
    message_status_->setObjectName(QStringLiteral("messageStatus"));
    statusBar()->addWidget(time_status_);
    statusBar()->addWidget(rate_status_);
    statusBar()->addWidget(progress_status_);
    statusBar()->addWidget(divergence_status_);
    statusBar()->addWidget(message_status_, 1);
    statusBar()->addPermanentWidget(machine_status_);
}

MainWindow::~MainWindow()
{
    // The worker thread and the comparison stop before the views they feed go.
    session_->shutdown();
    comparison_job_->cancel();
    trace_job_->cancel();
    stopMeasuringHost();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    session_->shutdown();
    comparison_job_->cancel();
    trace_job_->cancel();
    stopMeasuringHost();
    event->accept();
}

void MainWindow::buildActions()
{
    auto icon = [this](QStyle::StandardPixmap p) { return style()->standardIcon(p); };
    open_ = new QAction(icon(QStyle::SP_DialogOpenButton), tr("&Open scenario…"), this);
    open_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_O));
    connect(open_, &QAction::triggered, this, &MainWindow::openScenarioDialog);
    save_ = new QAction(icon(QStyle::SP_DialogSaveButton), tr("&Save scenario…"), this);
    save_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_S));
    connect(save_, &QAction::triggered, this, &MainWindow::saveScenarioDialog);

    run_ = new QAction(icon(QStyle::SP_MediaPlay), tr("&Run"), this);
    run_->setObjectName(QStringLiteral("runAction"));
    run_->setToolTip(tr("Run (Space)"));
    connect(run_, &QAction::triggered, this, &MainWindow::runSimulation);
    pause_ = new QAction(icon(QStyle::SP_MediaPause), tr("&Pause"), this);
    pause_->setToolTip(tr("Pause (Space)"));
    connect(pause_, &QAction::triggered, this, &MainWindow::pauseSimulation);
    toggle_ = new QAction(tr("Run / pause"), this);
    toggle_->setShortcut(QKeySequence(Qt::Key_Space));
    connect(toggle_, &QAction::triggered, this, &MainWindow::toggleRun);
    addAction(toggle_);
    step_ = new QAction(icon(QStyle::SP_MediaSeekForward), tr("&Step one wakeup"), this);
    step_->setObjectName(QStringLiteral("stepAction"));
    step_->setShortcuts({QKeySequence(Qt::Key_Period), QKeySequence(Qt::Key_Right)});
    step_->setToolTip(tr("Step one wakeup in every policy (. or Right)"));
    connect(step_, &QAction::triggered, this, &MainWindow::stepWakeup);
    divergence_ = new QAction(icon(QStyle::SP_MediaSkipForward), tr("Next &divergence"), this);
    divergence_->setShortcut(QKeySequence(Qt::Key_D));
    divergence_->setToolTip(tr("Step to the next wakeup the policies decide differently (D)"));
    connect(divergence_, &QAction::triggered, this, &MainWindow::nextDivergence);
    restart_ = new QAction(icon(QStyle::SP_BrowserReload), tr("Re&start"), this);
    restart_->setToolTip(tr("Start the runs again from time 0"));
    connect(restart_, &QAction::triggered, this, &MainWindow::restartSimulation);
    reload_plugins_ = new QAction(tr("Re&load policy plugins"), this);
    reload_plugins_->setObjectName(QStringLiteral("reloadPluginsAction"));
    // Ctrl+R: rebuild, reload, watch, the loop of writing a policy.
    reload_plugins_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    reload_plugins_->setToolTip(
        tr("Load every policy plugin again from its file (a rebuilt one replaces its policies) and restart the "
           "runs on the same scenario and seed (Ctrl+R)"));
    reload_plugins_->setEnabled(false);  // until a plugin is loaded
    connect(reload_plugins_, &QAction::triggered, this, &MainWindow::reloadPlugins);

    present_ = new QAction(tr("&Presentation mode"), this);
    present_->setCheckable(true);
    present_->setShortcut(QKeySequence(Qt::Key_F11));
    connect(present_, &QAction::toggled, this, &MainWindow::setPresentationMode);
    addAction(present_);
    export_ = new QAction(tr("&Export focused view…"), this);
    export_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    connect(export_, &QAction::triggered, this, &MainWindow::exportFocused);
    addAction(export_);
    decision_focus_ = new QAction(tr("&Decision focus"), this);
    decision_focus_->setObjectName(QStringLiteral("decisionFocusAction"));
    decision_focus_->setCheckable(true);
    decision_focus_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    decision_focus_->setToolTip(tr("The decision path in a window of its own, as large as this one (Ctrl+D)"));
    addAction(decision_focus_);
}

void MainWindow::buildDocks()
{
    auto dock = [this](const QString& title, const QString& name, QWidget* w, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(w);
        addDockWidget(area, d);
        return d;
    };
    scenario_panel_ = new ScenarioPanel(this);
    scenario_panel_->setObjectName(QStringLiteral("scenarioPanel"));
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(scenario_panel_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    QDockWidget* scenario_dock = dock(tr("Scenario"), QStringLiteral("scenarioDock"), scroll, Qt::LeftDockWidgetArea);
    connect(scenario_panel_, &ScenarioPanel::applyRequested, this, &MainWindow::applyPanel);
    connect(scenario_panel_, &ScenarioPanel::edited, this, &MainWindow::saveDraft);
    connect(scenario_panel_, &ScenarioPanel::caseChosen, this, [this](int index) {
        if (loaded_)
            setScenario(loaded_->scenario, loaded_->path, index);
    });
    connect(scenario_panel_, &ScenarioPanel::copyCommandRequested, this, &MainWindow::copyWakesimCommand);
    connect(scenario_panel_, &ScenarioPanel::openMachineFileRequested, this, &MainWindow::openMachineFileDialog);
    connect(scenario_panel_, &ScenarioPanel::importHostRequested, this, [this] { importHostMachine(); });
    connect(scenario_panel_, &ScenarioPanel::importMeasuredHostRequested, this, [this] { importAndMeasureHost(); });

    domains_ = new DomainPanel(this);
    domains_->setObjectName(QStringLiteral("domainPanel"));
    QDockWidget* domain_dock =
        dock(tr("Sched domains"), QStringLiteral("domainDock"), domains_, Qt::LeftDockWidgetArea);
    connect(domains_, &DomainPanel::domainSelected, this, &MainWindow::onDomainSelected);

    auto* decision = new DecisionPanel(this);
    diagram_ = decision->diagram();
    diagram_->setObjectName(QStringLiteral("decisionDiagram"));
    decision->addToolAction(decision_focus_);
    auto* focus = new DecisionFocus(decision, this);
    focus->carryActions({toggle_, step_, divergence_, decision_focus_, export_});
    connect(decision_focus_, &QAction::toggled, focus, &DecisionFocus::setFocused);
    connect(focus, &DecisionFocus::focusedChanged, decision_focus_, &QAction::setChecked);
    QDockWidget* diagram_dock =
        dock(tr("Decision path"), QStringLiteral("diagramDock"), focus->home(), Qt::RightDockWidgetArea);
    connect(diagram_, &DecisionDiagram::breakOnBranchRequested, this,
            [this](const QString& function, const QString& branch) {
                addBreakpoint({Breakpoint::Kind::Branch, function.toStdString(), branch.toStdString()});
            });

    recent_ = new RecentWakeups(this);
    recent_->setObjectName(QStringLiteral("recentWakeups"));
    QDockWidget* recent_dock =
        dock(tr("Recent wakeups"), QStringLiteral("recentDock"), recent_, Qt::RightDockWidgetArea);
    connect(recent_, &RecentWakeups::recordActivated, this, [this](int policy, const DecisionRecord& rec) {
        showRecordInDiagram(policy, rec);
        if (policy >= 0 && policy < gridCount())
            grid(policy)->view()->topologyScene()->showDecision(&rec);
    });

    charts_ = new ChartsPanel(this);
    charts_->setObjectName(QStringLiteral("chartsPanel"));
    QDockWidget* charts_dock = dock(tr("Charts"), QStringLiteral("chartsDock"), charts_, Qt::BottomDockWidgetArea);

    splitDockWidget(diagram_dock, recent_dock, Qt::Vertical);
    tabifyDockWidget(scenario_dock, domain_dock);
    scenario_dock->raise();
    resizeDocks({scenario_dock, diagram_dock}, {300, 370}, Qt::Horizontal);
    resizeDocks({diagram_dock, recent_dock}, {340, 160}, Qt::Vertical);
    resizeDocks({charts_dock}, {270}, Qt::Vertical);
    docks_ = {scenario_dock, domain_dock, diagram_dock, recent_dock, charts_dock};
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(open_);
    recent_menu_ = file->addMenu(tr("Open &recent"));
    file->addAction(save_);
    file->addSeparator();
    file->addAction(open_trace_);
    file->addAction(close_trace_);
    file->addSeparator();
    file->addAction(tr("Open &machine file…"), this, &MainWindow::openMachineFileDialog);
    file->addSeparator();
    file->addAction(tr("Load policy &plugin…"), this, &MainWindow::loadPluginDialog)
        ->setObjectName(QStringLiteral("loadPluginAction"));
    file->addAction(reload_plugins_);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    rebuildRecentMenu();

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    for (QAction* a : {run_, pause_, step_, step_back_, divergence_, restart_})
        run->addAction(a);
    run->addSeparator();
    run->addAction(tr("Run the &comparison (every seed)"), this, &MainWindow::startComparison);

    break_menu_ = menuBar()->addMenu(tr("&Breakpoints"));
    break_divergence_ = break_menu_->addAction(tr("Pause when the policies first &diverge"));
    break_divergence_->setCheckable(true);
    connect(break_divergence_, &QAction::toggled, this, &MainWindow::setBreakOnDivergence);
    QMenu* lands = break_menu_->addMenu(tr("Pause when a wakeup &lands in"));
    for (std::size_t c = 0; c < kDistanceClassCount; ++c) {
        const auto cls = static_cast<DistanceClass>(c);
        QAction* a = lands->addAction(QString::fromLatin1(distance_class_name(cls).data(),
                                                          static_cast<qsizetype>(distance_class_name(cls).size())));
        connect(a, &QAction::triggered, this, [this, cls] {
            addBreakpoint({Breakpoint::Kind::Lands, "", "", cls, break_idle_core_->isChecked()});
        });
    }
    break_idle_core_ = break_menu_->addAction(tr("…only while the waker's LLC has an idle core"));
    break_idle_core_->setCheckable(true);
    break_menu_->addAction(tr("&Clear breakpoints"), this, &MainWindow::clearBreakpoints);
    active_breaks_ = break_menu_->addMenu(tr("Active"));
    active_breaks_->setEnabled(false);

    QMenu* results = menuBar()->addMenu(tr("Re&sults"));
    results->addAction(tr("Export &CSV…"), this, [this] { exportResults(QStringLiteral("csv")); });
    results->addAction(tr("Export &JSON…"), this, [this] { exportResults(QStringLiteral("json")); });
    results->addAction(tr("Copy as &text table"), this, &MainWindow::copyTextTable);
    results->addSeparator();
    results->addAction(tr("Export the runs as a &trace…"), this, &MainWindow::exportRunTracesDialog)
        ->setObjectName(QStringLiteral("exportTraceAction"));
    add_sweep_menu(results, this);

    view_menu_ = menuBar()->addMenu(tr("&View"));
    view_menu_->addAction(present_);
    view_menu_->addAction(decision_focus_);
    view_menu_->addAction(export_);
    view_menu_->addAction(what_if_action_);
    auto* themes = new QActionGroup(this);
    QAction* light = view_menu_->addAction(tr("&Light theme"));
    QAction* dark = view_menu_->addAction(tr("&Dark theme"));
    for (QAction* a : {light, dark}) {
        a->setCheckable(true);
        themes->addAction(a);
    }
    light->setChecked(true);
    connect(dark, &QAction::toggled, this, &MainWindow::setDarkTheme);
    view_menu_
        ->addAction(tr("&Fit machine in view"), this,
                    [this] {
                        for (PolicyGrid* g : grids_)
                            g->view()->fitAll();
                    })
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    view_menu_->addSeparator();
    for (QDockWidget* d : docks_)
        view_menu_->addAction(d->toggleViewAction());
}

void MainWindow::buildToolbar()
{
    QToolBar* bar = addToolBar(tr("Run"));
    run_toolbar_ = bar;
    bar->setObjectName(QStringLiteral("runToolbar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(open_);
    bar->addAction(save_);
    bar->addSeparator();
    for (QAction* a : {run_, pause_, step_, divergence_, restart_})
        bar->addAction(a);
    bar->addSeparator();
    bar->addWidget(new QLabel(tr(" speed "), bar));
    speed_slider_ = new QSlider(Qt::Horizontal, bar);
    speed_slider_->setObjectName(QStringLiteral("speedSlider"));
    speed_slider_->setRange(0, kSpeedCount - 1);
    speed_slider_->setFixedWidth(150);
    speed_slider_->setToolTip(tr("Simulated time per second of wall time"));
    speed_slider_->setFocusPolicy(Qt::NoFocus);  // Left/Right belong to stepping
    const int initial =
        static_cast<int>(std::find(std::begin(kSpeeds), std::end(kSpeeds), speed_) - std::begin(kSpeeds));
    speed_slider_->setValue(initial);
    connect(speed_slider_, &QSlider::valueChanged, this,
            [this](int v) { setSpeed(kSpeeds[std::clamp(v, 0, kSpeedCount - 1)]); });
    bar->addWidget(speed_slider_);
    speed_label_ = new QLabel(bar);
    speed_label_->setMinimumWidth(80);
    bar->addWidget(speed_label_);
    updateSpeedLabel();
}

// The slider step nearest (on its log scale) to the speed at which the
// scenario's first decisions take kPacedSeconds of wall time.
void MainWindow::applyPace(qint64 first_wakeups_ns)
{
    const double wanted = static_cast<double>(first_wakeups_ns) / 1e9 / kPacedSeconds;
    if (!(wanted > 0))
        return;
    int best = 0;
    for (int i = 0; i < kSpeedCount; ++i)
        if (kSpeeds[i] > 0 && std::abs(std::log(kSpeeds[i] / wanted)) < std::abs(std::log(kSpeeds[best] / wanted)))
            best = i;
    const QSignalBlocker quiet(speed_slider_);
    speed_slider_->setValue(best);
    setSpeed(kSpeeds[best]);
}

void MainWindow::updateSpeedLabel()
{
    speed_label_->setText(QStringLiteral(" ") + speed_text(speed_));
}

// --- selection --------------------------------------------------------------------

void MainWindow::selectCpu(int cpu)
{
    for (PolicyGrid* g : grids_)
        g->view()->selectCpu(cpu);
}

void MainWindow::onCpuSelected(int cpu)
{
    // The same CPU in every grid, so that side by side compares like with like.
    for (PolicyGrid* g : grids_)
        if (g->view()->selectedCpu() != cpu) {
            const QSignalBlocker block(g->view());
            g->view()->selectCpu(cpu);
        }
    if (!loaded_ || cpu < 0) {
        domains_->clear();
        for (PolicyGrid* g : grids_)
            g->view()->showSpan(CpuMask());
        return;
    }
    domains_->showCpu(loaded_->setup.machine, loaded_->domains, cpu);
}

void MainWindow::onDomainSelected(int domain_id)
{
    const CpuMask span = loaded_ && domain_id >= 0 ? loaded_->domains.domain(domain_id).span : CpuMask();
    for (PolicyGrid* g : grids_)
        g->view()->showSpan(span);
}

void MainWindow::setErrorHandler(ErrorHandler handler)
{
    // Never empty: an error must reach the user, not std::bad_function_call.
    if (!handler)
        handler = [this](const QString& title, const QString& message) { show_message_box(this, title, message); };
    on_error_ = std::move(handler);
}

TopologyView* MainWindow::topologyView() const
{
    return grids_.empty() ? nullptr : grids_.front()->view();
}

QString MainWindow::statusText() const
{
    return machine_status_->text();
}

QString MainWindow::simStatusText() const
{
    QStringList parts;
    for (QLabel* l : {time_status_, rate_status_, progress_status_, divergence_status_})
        if (!l->text().isEmpty())
            parts << l->text();
    return parts.join(QStringLiteral(" | "));
}

// --- presentation and export --------------------------------------------------------

void MainWindow::setPresentationMode(bool on)
{
    if (on == presenting_)
        return;
    presenting_ = on;
    if (present_->isChecked() != on)
        present_->setChecked(on);
    charts_->setFontScale(on ? kPresentationScale : 1.0);
    // Icons alone keep the run toolbar within 1280 px at the larger font;
    // each action still says what it does in its tooltip.
    run_toolbar_->setToolButtonStyle(on ? Qt::ToolButtonIconOnly : Qt::ToolButtonTextBesideIcon);
    if (on) {
        normal_font_ = font();
        was_maximized_ = isMaximized();
        QFont big = font();
        big.setPointSizeF(big.pointSizeF() * kPresentationScale);
        setFont(big);
        showFullScreen();
    } else {
        setFont(normal_font_);
        if (was_maximized_)
            showMaximized();
        else
            showNormal();
    }
}

void MainWindow::setDarkTheme(bool dark)
{
    dark_ = dark;
    QApplication::setPalette(dark ? dark_palette() : QApplication::style()->standardPalette());
    charts_->setDark(dark);
    diagram_->setDark(dark);
    for (PolicyGrid* g : grids_)
        g->view()->topologyScene()->setDark(dark);
    for (QAction* a : run_toolbar_->actions()) {
        if (a->icon().isNull())
            continue;
        if (!light_icons_.contains(a))
            light_icons_.insert(a, a->icon());
        a->setIcon(dark ? tinted_icon(light_icons_.value(a), dark_palette().color(QPalette::WindowText))
                        : light_icons_.value(a));
    }
}

QWidget* MainWindow::focusedView() const
{
    for (QWidget* w = QApplication::focusWidget(); w; w = w->parentWidget()) {
        if (qobject_cast<TopologyView*>(w) || w == diagram_ || w == recent_)
            return w;
        if (w == charts_)
            return charts_->currentChart();
    }
    return topologyView();
}

bool MainWindow::exportView(QWidget* view, const QString& path)
{
    QString error;
    if (!view || !export_view(view, path, &error)) {
        fail(tr("Cannot export"), tr("Could not export the view.\n%1").arg(error));
        return false;
    }
    message_status_->setText(tr("exported %1").arg(path));
    return true;
}

void MainWindow::exportFocused()
{
    QWidget* view = focusedView();
    ExportDialog dialog(window_view_label(*this, view), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QString error;
    if (!write_export_frame(window_export_frame(*this, view), dialog.pictureSize(), dialog.path(), &error)) {
        fail(tr("Cannot export"), tr("Could not export the view.\n%1").arg(error));
        return;
    }
    message_status_->setText(tr("exported %1").arg(dialog.path()));
}

void MainWindow::exportResults(const QString& format)
{
    if (!comparison_) {
        fail(tr("No results yet"),
             tr("Run the comparison first (Run ▸ Run the comparison).\n"
                "The results are the scenario's every policy × case × seed, as wakesim compare prints them."));
        return;
    }
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export results"), QString(),
                                     format == QLatin1String("csv") ? tr("CSV (*.csv)") : tr("JSON (*.json)"));
    if (path.isEmpty())
        return;
    const QString text = format == QLatin1String("csv")
                             ? results_csv(*comparison_)
                             : results_json(*comparison_, QString::fromStdString(loaded_->setup.machine.name));
    QString error;
    if (!write_text_file(path, text, &error))
        fail(tr("Cannot export"), tr("Could not write the results.\n%1").arg(error));
}

// Each grid's policy, made a file-name part: "sync-waker-v3:smt_check=off" -> "sync-waker-v3_smt_check_off".
static QString file_part(const std::string& policy)
{
    QString out;
    for (const QChar c : QString::fromStdString(policy))
        out += c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('.') ? c : QLatin1Char('_');
    return out;
}

QStringList MainWindow::exportRunTraces(const QString& path)
{
    if (!loaded_ || !session_->hasFrame()) {
        fail(tr("Nothing to export yet"), tr("Run or step the simulation first: the trace holds the runs up to the "
                                             "time the grids show."));
        return {};
    }
    const std::optional<TraceFileFormat> format = trace_file_format(path.toStdString());
    if (!format) {
        fail(tr("Cannot export the trace"),
             tr("%1: expected a file name ending in .txt (ftrace text, for wakesim trace import and Perfetto) or "
                ".json (Chrome trace events, for Perfetto and chrome://tracing)")
                 .arg(path));
        return {};
    }
    const SessionSetup& setup = loaded_->setup;
    const std::vector<RunSnapshot>& runs = session_->lastFrame().runs;
    const int dot = path.lastIndexOf(QLatin1Char('.'));
    QStringList written, commands;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    for (std::size_t i = 0; i < setup.policies.size() && i < runs.size(); ++i) {
        const std::string& policy = setup.policies[i];
        const QString file = setup.policies.size() == 1
                                 ? path
                                 : path.left(dot) + QLatin1Char('-') + file_part(policy) + path.mid(dot);
        RunRequest request = setup.base;
        request.policy = policy;
        const Time until = runs[i].now;
        // As `wakesim run` names the run in the file's header.
        const std::string what = setup.machine.name + " " + request.workload + " " + policy + " seed " +
                                 std::to_string(request.seed);
        std::ofstream out(file.toStdString());
        TraceExport done;
        try {
            done = export_run_trace(setup.machine, request, until, *format, out, TraceLimit{}, what);
        } catch (const std::exception& e) {
            QApplication::restoreOverrideCursor();
            fail(tr("Cannot export the trace"), QString::fromStdString(e.what()));
            return {};
        }
        out.close();
        if (!out) {
            QApplication::restoreOverrideCursor();
            fail(tr("Cannot export the trace"), tr("Could not write %1.").arg(file));
            return {};
        }
        written << file;
        commands << QString::fromStdString(wakesim_run_command(setup, policy) + " --time-limit " +
                                           format_duration(until) + " --trace " + file.toStdString());
    }
    QApplication::restoreOverrideCursor();
    message_status_->setText(tr("wrote %1").arg(written.join(QStringLiteral(", "))));
    message_status_->setToolTip(tr("The same traces: %1").arg(commands.join(QStringLiteral("; "))));
    return written;
}

void MainWindow::exportRunTracesDialog()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the runs as a trace"), QString(),
        tr("ftrace text, for wakesim trace import and Perfetto (*.txt);;Chrome trace events, for Perfetto (*.json)"));
    if (!path.isEmpty())
        exportRunTraces(path);
}

void MainWindow::copyTextTable()
{
    if (!comparison_) {
        fail(tr("No results yet"), tr("Run the comparison first (Run ▸ Run the comparison)."));
        return;
    }
    QApplication::clipboard()->setText(text_table(*comparison_));
    message_status_->setText(tr("text table copied"));
}

}  // namespace wb

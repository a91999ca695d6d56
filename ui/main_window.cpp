// SPDX-License-Identifier: Apache-2.0
#include "main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLayout>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPalette>
#include <QScrollArea>
#include <QSettings>
#include <QSignalBlocker>
#include <QSlider>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStringList>
#include <QStyle>
#include <QThread>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>

#include "charts/charts_panel.h"
#include "charts/headline_chart.h"
#include "charts/latency_cdf_chart.h"
#include "charts/placement_chart.h"
#include "charts/throughput_chart.h"
#include "decision/decision_diagram.h"
#include "decision/palette.h"
#include "decision/recent_wakeups.h"
#include "export/export_view.h"
#include "export/results_export.h"
#include "io/input_error.h"
#include "io/sysfs_import.h"
#include "io/topology_json.h"
#include "io/topology_library.h"
#include "metrics/comparison.h"
#include "metrics/run_summary.h"
#include "policies/registry.h"
#include "session/scenario_session.h"
#include "sim/comparison_job.h"
#include "sim/sim_session.h"
#include "topology/machine.h"
#include "topology/sched_domains.h"
#include "views/topology_scene.h"
#include "views/topology_view.h"
#include "widgets/domain_panel.h"
#include "widgets/policy_grid.h"
#include "widgets/scenario_panel.h"
#include "workload/workload_spec.h"

namespace wb {

namespace {

// A message box taller than the screen hides its OK button; the rest goes
// into "Show Details...".
constexpr int kMaxProblemsShown = 12;
constexpr int kMaxRecent = 8;
constexpr qint64 kChartIntervalMs = 200;

// Simulated seconds per wall second, slow to fast; 0 is "as fast as possible".
const double kSpeeds[] = {1e-6, 2e-6, 5e-6, 1e-5, 2e-5, 5e-5, 1e-4, 2e-4, 5e-4, 1e-3,
                          2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 0.1,  0.2,  0.5,  1.0,  0.0};
constexpr int kSpeedCount = static_cast<int>(sizeof(kSpeeds) / sizeof(kSpeeds[0]));

QString plural(int n, const char* one, const char* many)
{
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}

QString duration_text(Time t)
{
    const double ns = static_cast<double>(t.ns());
    if (ns < 1e3)
        return QStringLiteral("%1 ns").arg(t.ns());
    if (ns < 1e6)
        return QStringLiteral("%1 µs").arg(ns / 1e3, 0, 'f', 1);
    if (ns < 1e9)
        return QStringLiteral("%1 ms").arg(ns / 1e6, 0, 'f', 3);
    return QStringLiteral("%1 s").arg(ns / 1e9, 0, 'f', 4);
}

QString speed_text(double s)
{
    if (s <= 0)
        return QObject::tr("max");
    return QObject::tr("%1/s").arg(duration_text(Time::s(s)));
}

QString events_text(double per_second)
{
    if (per_second >= 1e6)
        return QObject::tr("%1 M events/s").arg(per_second / 1e6, 0, 'f', 1);
    if (per_second >= 1e3)
        return QObject::tr("%1 k events/s").arg(per_second / 1e3, 0, 'f', 1);
    return QObject::tr("%1 events/s").arg(per_second, 0, 'f', 0);
}

// `message`: a summary line, then one problem per line.
void show_message_box(QWidget* parent, const QString& title, const QString& message)
{
    QStringList lines = message.split(QLatin1Char('\n'));
    QMessageBox box(QMessageBox::Warning, title, QStringLiteral("<b>%1</b>").arg(lines.takeFirst().toHtmlEscaped()),
                    QMessageBox::Ok, parent);
    if (lines.size() > kMaxProblemsShown)
        box.setDetailedText(lines.join(QLatin1Char('\n')));
    QString items;
    for (qsizetype i = 0; i < std::min<qsizetype>(lines.size(), kMaxProblemsShown); ++i)
        items += QStringLiteral("<li>%1</li>").arg(lines[i].toHtmlEscaped());
    if (lines.size() > kMaxProblemsShown)
        items += QObject::tr("<li>… and %1 more (Show Details)</li>").arg(lines.size() - kMaxProblemsShown);
    box.setInformativeText(QStringLiteral("<ul style='margin-left:-24px'>%1</ul>").arg(items));
    box.exec();
}

QSettings settings()
{
    return QSettings(QSettings::IniFormat, QSettings::UserScope, QStringLiteral("wakebench"),
                     QStringLiteral("wakebench"));
}

// How far a workload has come, when its spec says where it ends: a loop
// count (pipe) or a run time (schbench, tee, io-uring); -1 when unknown.
double progress_of(const std::string& spec, const RunSnapshot& snap)
{
    const QString text = QString::fromStdString(spec);
    const QString name = text.section(QLatin1Char(':'), 0, 0);
    auto param = [&](const QString& key) -> QString {
        for (const QString& piece : text.section(QLatin1Char(':'), 1).split(QLatin1Char(',')))
            if (piece.startsWith(key + QLatin1Char('=')))
                return piece.mid(key.size() + 1);
        for (const WorkloadInfo& info : workload_catalog())
            if (QString::fromStdString(info.name) == name)
                for (const WorkloadParam& p : info.params)
                    if (QString::fromStdString(p.name) == key)
                        return QString::fromStdString(p.default_value);
        return {};
    };
    if (snap.finished)
        return 1.0;
    if (name == QLatin1String("pipe")) {
        const double loops = param(QStringLiteral("loops")).toDouble();
        return loops > 0 ? snap.ops / loops : -1;
    }
    for (const char* key : {"runtime", "timeout"}) {
        Time limit;
        if (parse_duration(param(QLatin1String(key)).toStdString(), limit) && limit > Time())
            return std::min(1.0, static_cast<double>(snap.now.ns()) / static_cast<double>(limit.ns()));
    }
    return -1;
}

QPalette dark_palette()
{
    QPalette p;
    const QColor window(0x2b, 0x30, 0x36), base(0x1f, 0x23, 0x28), text(0xe6, 0xe9, 0xec);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::Highlight, QColor(0x00, 0x72, 0xb2));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, QColor(0x8a, 0x93, 0x9c));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x6b, 0x73, 0x7b));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x6b, 0x73, 0x7b));
    return p;
}

}  // namespace

struct MainWindow::Loaded {
    Scenario scenario;
    QString path;
    int case_index = 0;
    SessionSetup setup;
    SchedDomains domains;
};

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowTitle(tr("Wakebench"));
    setDockNestingEnabled(true);
    on_error_ = [this](const QString& title, const QString& message) { show_message_box(this, title, message); };
    normal_font_ = font();

    session_ = new SimSession(this);
    connect(session_, &SimSession::frameReady, this, &MainWindow::onFrame);
    connect(session_, &SimSession::stepped, this, &MainWindow::onStepped);
    connect(session_, &SimSession::stateChanged, this, &MainWindow::onStateChanged);
    connect(session_, &SimSession::stopped, this, &MainWindow::onStopped);
    connect(session_, &SimSession::failed, this, [this](const QString& message) {
        fail(tr("Cannot run the scenario"), tr("The runs could not start.\n%1").arg(message));
    });
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

    grid_area_ = new QWidget(this);
    grid_area_->setObjectName(QStringLiteral("gridArea"));
    grid_layout_ = new QGridLayout(grid_area_);
    grid_layout_->setContentsMargins(4, 4, 4, 4);
    grid_layout_->setSpacing(6);
    setCentralWidget(grid_area_);

    buildActions();
    buildDocks();
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
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    session_->shutdown();
    comparison_job_->cancel();
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

    present_ = new QAction(tr("&Presentation mode"), this);
    present_->setCheckable(true);
    present_->setShortcut(QKeySequence(Qt::Key_F11));
    connect(present_, &QAction::toggled, this, &MainWindow::setPresentationMode);
    addAction(present_);
    export_ = new QAction(tr("&Export focused view…"), this);
    export_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    connect(export_, &QAction::triggered, this, &MainWindow::exportFocused);
    addAction(export_);
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
    connect(scenario_panel_, &ScenarioPanel::caseChosen, this, [this](int index) {
        if (loaded_)
            setScenario(loaded_->scenario, loaded_->path, index);
    });
    connect(scenario_panel_, &ScenarioPanel::copyCommandRequested, this, &MainWindow::copyWakesimCommand);
    connect(scenario_panel_, &ScenarioPanel::openMachineFileRequested, this, &MainWindow::openMachineFileDialog);
    connect(scenario_panel_, &ScenarioPanel::importHostRequested, this, [this] { importHostMachine(); });

    domains_ = new DomainPanel(this);
    domains_->setObjectName(QStringLiteral("domainPanel"));
    QDockWidget* domain_dock =
        dock(tr("Sched domains"), QStringLiteral("domainDock"), domains_, Qt::LeftDockWidgetArea);
    connect(domains_, &DomainPanel::domainSelected, this, &MainWindow::onDomainSelected);

    diagram_ = new DecisionDiagram(this);
    diagram_->setObjectName(QStringLiteral("decisionDiagram"));
    QDockWidget* diagram_dock =
        dock(tr("Decision path"), QStringLiteral("diagramDock"), diagram_, Qt::RightDockWidgetArea);
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
    file->addAction(tr("Open &machine file…"), this, &MainWindow::openMachineFileDialog);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    rebuildRecentMenu();

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    for (QAction* a : {run_, pause_, step_, divergence_, restart_})
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

    view_menu_ = menuBar()->addMenu(tr("&View"));
    view_menu_->addAction(present_);
    view_menu_->addAction(export_);
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

void MainWindow::updateSpeedLabel()
{
    speed_label_->setText(QStringLiteral(" ") + speed_text(speed_));
}

// --- scenarios -------------------------------------------------------------

void MainWindow::fail(const QString& title, const QString& message)
{
    on_error_(title, message);
}

Scenario MainWindow::defaultScenario()
{
    Scenario s;
    s.name = "altra-pipe-side-by-side";
    s.description = "perf bench sched pipe on an 80-core Ampere Altra, mainline and sync-waker-v3 side by side";
    s.machine = "ampere-altra-80";
    s.cases = {{"default", "pipe:loops=1000000"}};
    s.policies = {"baseline", "sync-waker-v3"};
    return s;
}

bool MainWindow::openScenario(const QString& path)
{
    const QString keep = loaded_ ? tr("Still showing %1.").arg(QString::fromStdString(loaded_->scenario.name))
                                 : tr("No scenario is loaded.");
    Scenario s;
    try {
        s = load_scenario_file(path.toStdString());
    } catch (const InputError& e) {
        fail(tr("Cannot open scenario"),
             tr("Could not open %1. %2\n%3").arg(path, keep, QString::fromStdString(e.what())));
        return false;
    } catch (const std::exception& e) {
        fail(tr("Cannot open scenario"),
             tr("Could not open %1. %2\ninternal error: %3").arg(path, keep, QString::fromStdString(e.what())));
        return false;
    }
    if (!setScenario(s, path, 0))
        return false;
    pushRecent(path);
    return true;
}

bool MainWindow::setScenario(const Scenario& scenario, const QString& path, int case_index)
{
    const QString keep = loaded_ ? tr("Still showing %1.").arg(QString::fromStdString(loaded_->scenario.name))
                                 : tr("No scenario is loaded.");
    const QString label = path.isEmpty() ? QString::fromStdString(scenario.name) : path;
    auto problem = [&](const QString& why) {
        fail(tr("Cannot use scenario"), tr("Could not use %1. %2\n%3").arg(label, keep, why));
        if (loaded_)
            scenario_panel_->setScenario(loaded_->scenario, loaded_->case_index);
        return false;
    };
    if (scenario.cases.empty())
        return problem(tr("%1: /cases: expected at least one case").arg(label));
    if (case_index < 0 || static_cast<std::size_t>(case_index) >= scenario.cases.size())
        case_index = 0;
    auto loaded = std::make_unique<Loaded>();
    try {
        // What the scenario reader checks, for a scenario edited in the panel.
        for (const ScenarioCase& c : scenario.cases)
            make_workload(c.workload);
        for (const std::string& p : scenario.policies)
            make_policy(p, "policy");
        loaded->setup = make_session_setup(scenario, path.toStdString(), static_cast<std::size_t>(case_index));
        loaded->domains = SchedDomains::build(loaded->setup.machine);
    } catch (const InputError& e) {
        return problem(QString::fromStdString(e.what()));
    } catch (const std::exception& e) {
        return problem(tr("internal error: %1").arg(QString::fromStdString(e.what())));
    }
    loaded->scenario = scenario;
    loaded->path = path;
    loaded->case_index = case_index;
    loaded_ = std::move(loaded);

    comparison_job_->cancel();
    comparison_.reset();
    rebuildGrids(loaded_->setup);
    domains_->clear();
    scenario_panel_->setScenario(loaded_->scenario, case_index);
    QStringList names;
    QList<QColor> colours;
    for (std::size_t i = 0; i < loaded_->setup.policies.size(); ++i) {
        names << QString::fromStdString(loaded_->setup.policies[i]);
        colours << palette::policy_colour(static_cast<int>(i));
    }
    recent_->clear();
    recent_->setPolicies(names, colours);
    diagram_->clear();
    charts_->setPolicies(names, colours);
    recent_seen_.assign(names.size(), 0);
    last_ops_.assign(names.size(), 0);
    last_time_.assign(names.size(), Time());
    divergence_status_->clear();
    message_status_->clear();

    const Machine& m = loaded_->setup.machine;
    setWindowTitle(
        tr("Wakebench — %1 — %2").arg(QString::fromStdString(scenario.name), QString::fromStdString(m.name)));
    machine_status_->setText(tr("%1 · %2 · %3")
                                 .arg(QString::fromStdString(m.name), plural(m.nr_cpus(), "CPU", "CPUs"),
                                      plural(m.nr_llcs(), "LLC", "LLCs")));
    divergence_->setEnabled(loaded_->setup.policies.size() > 1);
    session_->setSpeed(speed_);
    pushBreakpoints();
    session_->load(loaded_->setup);
    rememberScenario();
    emit machineChanged();
    emit scenarioChanged();
    return true;
}

void MainWindow::rebuildGrids(const SessionSetup& setup)
{
    for (PolicyGrid* g : grids_)
        delete g;
    grids_.clear();
    const int n = static_cast<int>(setup.policies.size());
    // Side by side in two columns: 1, 1x2, 2x2.
    const int columns = n == 1 ? 1 : 2;
    for (int i = 0; i < n; ++i) {
        auto* g = new PolicyGrid(i, QString::fromStdString(setup.policies[static_cast<std::size_t>(i)]),
                                 palette::policy_colour(i), grid_area_);
        grid_layout_->addWidget(g, i / columns, i % columns);
        g->show();
        connect(g->view(), &TopologyView::cpuSelected, this, [this, i](int cpu) {
            diagram_policy_ = i;
            onCpuSelected(cpu);
        });
        grids_.push_back(g);
    }
    for (int r = 0; r < 2; ++r)
        grid_layout_->setRowStretch(r, r < (n + columns - 1) / columns ? 1 : 0);
    // Laid out first, so that every grid is built for its view's real shape
    // and side-by-side grids come out alike.
    grid_layout_->activate();
    for (PolicyGrid* g : grids_) {
        if (QLayout* inner = g->layout())
            inner->activate();
        g->view()->setMachine(setup.machine);
        g->view()->topologyScene()->setDark(dark_);
    }
    diagram_policy_ = 0;
}

bool MainWindow::saveScenario(const QString& path)
{
    if (!loaded_)
        return false;
    try {
        Scenario s = scenario_panel_->scenario();
        save_scenario_file(s, path.toStdString());
        loaded_->scenario = s;
        loaded_->path = path;
    } catch (const std::exception& e) {
        fail(tr("Cannot save scenario"), tr("Could not save %1.\n%2").arg(path, QString::fromStdString(e.what())));
        return false;
    }
    pushRecent(path);
    rememberScenario();
    return true;
}

void MainWindow::restoreLastScenario()
{
    QSettings st = settings();
    const QString json = st.value(QStringLiteral("last/scenario")).toString();
    const QString path = st.value(QStringLiteral("last/path")).toString();
    const int case_index = st.value(QStringLiteral("last/case"), 0).toInt();
    if (!json.isEmpty()) {
        try {
            const Scenario s = parse_scenario_json(json.toStdString(), "last session's scenario");
            // Quietly: a scenario that no longer loads (a machine file moved)
            // falls back to the default rather than greeting with an error.
            ErrorHandler saved = on_error_;
            bool failed = false;
            on_error_ = [&](const QString&, const QString&) { failed = true; };
            setScenario(s, path, case_index);
            on_error_ = saved;
            if (!failed)
                return;
        } catch (const std::exception&) {
        }
    }
    setScenario(defaultScenario());
}

void MainWindow::rememberScenario()
{
    if (!loaded_ || !remember_)
        return;
    QSettings st = settings();
    st.setValue(QStringLiteral("last/scenario"), QString::fromStdString(scenario_to_json(loaded_->scenario)));
    st.setValue(QStringLiteral("last/path"), loaded_->path);
    st.setValue(QStringLiteral("last/case"), loaded_->case_index);
}

QStringList MainWindow::recentScenarios() const
{
    return settings().value(QStringLiteral("recent")).toStringList();
}

void MainWindow::pushRecent(const QString& path)
{
    if (!remember_)
        return;
    QStringList list = recentScenarios();
    const QString full = QFileInfo(path).absoluteFilePath();
    list.removeAll(full);
    list.prepend(full);
    while (list.size() > kMaxRecent)
        list.removeLast();
    QSettings st = settings();
    st.setValue(QStringLiteral("recent"), list);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    recent_menu_->clear();
    const QStringList list = recentScenarios();
    for (const QString& path : list)
        recent_menu_->addAction(QFileInfo(path).fileName(), this, [this, path] { openScenario(path); })
            ->setToolTip(path);
    recent_menu_->setEnabled(!list.isEmpty());
}

bool MainWindow::hasScenario() const
{
    return loaded_ != nullptr;
}

const Scenario& MainWindow::scenario() const
{
    return loaded_->scenario;
}

QString MainWindow::scenarioPath() const
{
    return loaded_ ? loaded_->path : QString();
}

int MainWindow::caseIndex() const
{
    return loaded_ ? loaded_->case_index : 0;
}

bool MainWindow::loadMachine(const QString& spec)
{
    Scenario s = loaded_ ? loaded_->scenario : defaultScenario();
    s.machine = spec.toStdString();
    return setScenario(s, loaded_ ? loaded_->path : QString(), loaded_ ? loaded_->case_index : 0);
}

bool MainWindow::hasMachine() const
{
    return loaded_ != nullptr;
}

const Machine& MainWindow::machine() const
{
    return loaded_->setup.machine;
}

const SchedDomains& MainWindow::schedDomains() const
{
    return loaded_->domains;
}

QString MainWindow::machineSpec() const
{
    return loaded_ ? QString::fromStdString(loaded_->setup.machine_spec) : QString();
}

QString MainWindow::wakesimCommand() const
{
    if (!loaded_)
        return {};
    QStringList lines;
    for (const std::string& p : loaded_->setup.policies)
        lines << QString::fromStdString(wakesim_run_command(loaded_->setup, p));
    if (loaded_->setup.policies.size() > 1 || loaded_->scenario.runs > 1)
        lines << QString::fromStdString(wakesim_compare_command(loaded_->setup, loaded_->scenario.runs));
    return lines.join(QLatin1Char('\n'));
}

void MainWindow::applyPanel()
{
    setScenario(scenario_panel_->scenario(), loaded_ ? loaded_->path : QString(), scenario_panel_->caseIndex());
}

void MainWindow::openScenarioDialog()
{
    const QString dir = loaded_ && !loaded_->path.isEmpty() ? QFileInfo(loaded_->path).absolutePath()
                                                            : QStringLiteral(WB_SOURCE_DIR "/resources/scenarios");
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open scenario"), dir, tr("Scenarios (*.json);;All files (*)"));
    if (!path.isEmpty())
        openScenario(path);
}

void MainWindow::saveScenarioDialog()
{
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save scenario"), scenarioPath(), tr("Scenarios (*.json)"));
    if (!path.isEmpty())
        saveScenario(path);
}

void MainWindow::openMachineFileDialog()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open machine file"), QString::fromStdString(topologies_dir()),
                                     tr("Machine files (*.json);;All files (*)"));
    if (!path.isEmpty())
        loadMachine(path);
}

bool MainWindow::importHostMachine(const QString& sysfs_root)
{
    const QString keep = loaded_ ? tr("Still showing %1.").arg(QString::fromStdString(loaded_->setup.machine_spec))
                                 : tr("No machine is loaded.");
    try {
        const ImportResult imported = import_sysfs(sysfs_root.toStdString());
        const QString folder =
            QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/machines");
        if (!QDir().mkpath(folder))
            throw std::runtime_error("cannot create " + folder.toStdString());
        const QString path =
            folder + QLatin1Char('/') + QString::fromStdString(imported.machine.name) + QStringLiteral(".json");
        save_machine_file(imported.machine, path.toStdString());
        if (!loadMachine(path))
            return false;
        imported_machine_path_ = path;
        message_status_->setText(
            imported.warnings.empty()
                ? tr("imported this host as %1").arg(path)
                : tr("imported as %1; %2").arg(path, QString::fromStdString(imported.warnings[0])));
        return true;
    } catch (const std::exception& e) {
        fail(
            tr("Cannot import this host"),
            tr("Could not import the machine from %1. %2\n%3").arg(sysfs_root, keep, QString::fromStdString(e.what())));
        return false;
    }
}

void MainWindow::copyWakesimCommand()
{
    const QString text = wakesimCommand();
    QApplication::clipboard()->setText(text);
    message_status_->setText(tr("copied: %1").arg(text.section(QLatin1Char('\n'), 0, 0)));
}

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
    const SimState s = session_->state();
    if (s == SimState::Running || s == SimState::Seeking)
        pauseSimulation();
    else
        runSimulation();
}

void MainWindow::stepWakeup()
{
    session_->step();
}

void MainWindow::nextDivergence()
{
    message_status_->setText(tr("looking for the next divergence…"));
    session_->nextDivergence();
}

void MainWindow::restartSimulation()
{
    if (!loaded_)
        return;
    recent_->clear();
    diagram_->clear();
    charts_->clear();
    recent_seen_.assign(recent_seen_.size(), 0);
    last_ops_.assign(last_ops_.size(), 0);
    last_time_.assign(last_time_.size(), Time());
    divergence_status_->clear();
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
        divergence_status_->setText(tr("first divergence @ wakeup #%1 (%2)")
                                        .arg(d.wakeup)
                                        .arg(duration_text(d.records.empty() ? Time() : d.records.front().time)));
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
        const double p = loaded_ ? progress_of(loaded_->setup.base.workload, frame.runs.front()) : -1;
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
    int shown = std::clamp(diagram_policy_, 0, static_cast<int>(records.records.size()) - 1);
    if (shown >= 0 && !records.records[static_cast<std::size_t>(shown)])
        for (std::size_t i = 0; i < records.records.size(); ++i)
            if (records.records[i])
                shown = static_cast<int>(i);
    if (shown >= 0 && records.records[static_cast<std::size_t>(shown)])
        showRecordInDiagram(shown, *records.records[static_cast<std::size_t>(shown)]);
    if (records.diverged && !records.records.empty() && records.records.front()) {
        QStringList chosen;
        for (std::size_t i = 0; i < records.records.size(); ++i)
            if (records.records[i])
                chosen << tr("%1 → CPU %2").arg(grids_[i]->policy()).arg(records.records[i]->chosen);
        message_status_->setText(
            tr("wakeup #%1 differs: %2").arg(records.records.front()->seq).arg(chosen.join(QStringLiteral(", "))));
    }
}

void MainWindow::showRecordInDiagram(int policy, const DecisionRecord& rec)
{
    diagram_->showRecord(rec, palette::policy_colour(policy));
}

void MainWindow::onStateChanged(SimState state)
{
    const bool moving = state == SimState::Running || state == SimState::Seeking;
    run_->setEnabled(!moving && state != SimState::Finished && state != SimState::Empty);
    pause_->setEnabled(moving);
    step_->setEnabled(state == SimState::Paused);
    divergence_->setEnabled(state == SimState::Paused && gridCount() > 1);
    // Animating every record while running would only flicker.
    diagram_->setAnimationInterval(moving ? 0 : 350);
}

void MainWindow::onStopped(const QString& why)
{
    message_status_->setText(why);
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
    if (on) {
        normal_font_ = font();
        was_maximized_ = isMaximized();
        QFont big = font();
        big.setPointSizeF(big.pointSizeF() * 1.45);
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
    for (PolicyGrid* g : grids_)
        g->view()->topologyScene()->setDark(dark);
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
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export view"), QString(), tr("PNG image (*.png);;SVG drawing (*.svg)"));
    if (!path.isEmpty())
        exportView(view, path);
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

// SPDX-License-Identifier: Apache-2.0
//
// MainWindow: scenarios and machines — open, save, recent files, the last
// one restored, a machine alone, this host, the wakesim command.
#include "main_window.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLayout>
#include <QMenu>
#include <QPointer>
#include <QSettings>
#include <QStandardPaths>
#include <QStringList>
#include <QThread>
#include <algorithm>
#include <exception>
#include <optional>

#include "base/data_dir.h"
#include "charts/charts_panel.h"
#include "decision/decision_diagram.h"
#include "decision/palette.h"
#include "decision/recent_wakeups.h"
#include "host/host_measure.h"
#include "io/input_error.h"
#include "io/sysfs_import.h"
#include "io/topology_json.h"
#include "io/topology_library.h"
#include "main_window_loaded.h"
#include "policies/registry.h"
#include "run_keys.h"
#include "scenario_draft.h"
#include "scenario_plugins.h"
#include "session/scenario_session.h"
#include "sim/comparison_job.h"
#include "sim/sim_session.h"
#include "sim/thread_handoff.h"
#include "topology/machine.h"
#include "topology/sched_domains.h"
#include "views/topology_scene.h"
#include "views/topology_view.h"
#include "widgets/domain_panel.h"
#include "widgets/policy_grid.h"
#include "widgets/scenario_panel.h"
#include "window_text.h"
#include "workload/workload_spec.h"

namespace wb {

namespace {

constexpr int kMaxRecent = 8;

}  // namespace

QSettings window_settings()
{
    return QSettings(QSettings::IniFormat, QSettings::UserScope, QStringLiteral("wakebench"),
                     QStringLiteral("wakebench"));
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
    // The panel keeps what the user typed, so that one bad field can be
    // corrected without the rest of the edits being lost.
    auto problem = [&](const QString& why) {
        fail(tr("Cannot use scenario"), tr("Could not use %1. %2\n%3").arg(label, keep, why));
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
    // `scenario` and `path` may be the old Loaded's own (a case chosen in
    // the panel passes them): from here on only loaded_ is read.
    loaded_ = std::move(loaded);

    comparison_job_->cancel();
    closeTrace();  // a scenario opened leaves the trace
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
        tr("Wakebench — %1 — %2").arg(QString::fromStdString(loaded_->scenario.name), QString::fromStdString(m.name)));
    machine_status_->setText(tr("%1 · %2 · %3")
                                 .arg(QString::fromStdString(m.name), plural(m.nr_cpus(), "CPU", "CPUs"),
                                      plural(m.nr_llcs(), "LLC", "LLCs")));
    divergence_->setEnabled(loaded_->setup.policies.size() > 1);
    session_->setSpeed(speed_);
    pushBreakpoints();
    pushWhatIfCases();  // before the runs are built: the worker asks the new policies from the start
    session_->load(loaded_->setup);
    rememberScenario();
    pluginsChanged();  // a scenario file may have brought plugins of its own
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
    // Side-by-side grids are the same size, whatever their names.
    for (int c = 0; c < 2; ++c)
        grid_layout_->setColumnStretch(c, c < columns ? 1 : 0);
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
    // The run's keys act from the first grid; Escape in a field comes back here.
    if (!grids_.empty()) {
        run_keys_->setHome(grids_.front()->view());
        grids_.front()->view()->setFocus(Qt::OtherFocusReason);
    }
}

bool MainWindow::saveScenario(const QString& path)
{
    if (!loaded_)
        return false;
    try {
        Scenario s = scenario_panel_->scenario();
        // The file names the plugins its policies come from, so that wakesim
        // and the next window can read it.
        s.plugins = plugins_to_save(s, loaded_->path, path);
        save_scenario_file(s, path.toStdString());
        scenario_panel_->setPlugins(s.plugins);
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
    QSettings st = window_settings();
    const QString json = st.value(QStringLiteral("last/scenario")).toString();
    const QString path = st.value(QStringLiteral("last/path")).toString();
    const int case_index = st.value(QStringLiteral("last/case"), 0).toInt();
    // Read before the scenario is set, which writes a draft of its own.
    const std::optional<ScenarioDraft> draft = load_scenario_draft(draftFolder());
    if (!json.isEmpty()) {
        try {
            // Named by its file, if it had one: its plugins' relative paths
            // are read against that file's folder.
            const Scenario s = parse_scenario_json(
                json.toStdString(), path.isEmpty() ? std::string("last session's scenario") : path.toStdString());
            // Quietly: a scenario that no longer loads (a machine file moved)
            // falls back to the default rather than greeting with an error.
            ErrorHandler saved = on_error_;
            bool failed = false;
            on_error_ = [&](const QString&, const QString&) { failed = true; };
            setScenario(s, path, case_index);
            on_error_ = saved;
            if (!failed) {
                if (draft)
                    restoreDraft(*draft);
                return;
            }
        } catch (const std::exception&) {
        }
    }
    setScenario(defaultScenario());
}

void MainWindow::rememberScenario()
{
    if (!loaded_ || !remember_)
        return;
    {
        QSettings st = window_settings();  // written out as it goes
        st.setValue(QStringLiteral("last/scenario"), QString::fromStdString(scenario_to_json(loaded_->scenario)));
        st.setValue(QStringLiteral("last/path"), loaded_->path);
        st.setValue(QStringLiteral("last/case"), loaded_->case_index);
    }
    saveDraft();
}

QString MainWindow::draftFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
}

// The form as it stands, on every edit: what a crash or a kill would lose.
void MainWindow::saveDraft()
{
    if (!loaded_ || !remember_ || restoring_draft_)
        return;
    const ScenarioDraft draft{loaded_->scenario, scenario_panel_->scenario(), scenario_panel_->caseIndex(),
                              loaded_->path};
    if (!save_scenario_draft(draftFolder(), draft))
        message_status_->setText(tr("cannot keep the scenario's edits in %1: they would not survive a crash")
                                     .arg(draftFolder()));
}

// Edits the last session left unapplied, put back into the form over the
// scenario they were made to, which restoreLastScenario() has just set.
void MainWindow::restoreDraft(const ScenarioDraft& draft)
{
    if (!loaded_ || draft.applied != loaded_->scenario || draft.path != loaded_->path || draft.form == draft.applied)
        return;
    restoring_draft_ = true;
    scenario_panel_->showEdits(draft.form, draft.case_index);
    restoring_draft_ = false;
    saveDraft();
    if (scenario_panel_->hasUnappliedEdits())
        message_status_->setText(tr("the edits not applied when Wakebench last stopped are back in the form"));
}

QStringList MainWindow::recentScenarios() const
{
    return window_settings().value(QStringLiteral("recent")).toStringList();
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
    QSettings st = window_settings();
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

namespace {

// The session the scenario panel's form describes, applied or not, with the
// checks setScenario() makes; empty, with *why set, if it describes none.
std::optional<SessionSetup> form_session_setup(const ScenarioPanel& panel, const QString& path, QString* why)
{
    const Scenario s = panel.scenario();
    if (s.cases.empty()) {
        *why = QStringLiteral("/cases: expected at least one case");
        return std::nullopt;
    }
    try {
        const int case_index = std::clamp(panel.caseIndex(), 0, static_cast<int>(s.cases.size()) - 1);
        for (const ScenarioCase& c : s.cases)
            make_workload(c.workload);
        for (const std::string& p : s.policies)
            make_policy(p, "policy");
        return make_session_setup(s, path.toStdString(), static_cast<std::size_t>(case_index));
    } catch (const std::exception& e) {
        *why = QString::fromStdString(e.what());
        return std::nullopt;
    }
}

}  // namespace

// What the form shows, not only what was applied: the command reproduces the
// screen, edits included, or is empty when the edits describe no scenario.
QString MainWindow::wakesimCommand() const
{
    if (!loaded_)
        return {};
    QString why;
    const std::optional<SessionSetup> setup = form_session_setup(*scenario_panel_, loaded_->path, &why);
    if (!setup)
        return {};
    QStringList lines;
    for (const std::string& p : setup->policies)
        lines << QString::fromStdString(wakesim_run_command(*setup, p));
    const int runs = scenario_panel_->scenario().runs;
    if (setup->policies.size() > 1 || runs > 1)
        lines << QString::fromStdString(wakesim_compare_command(*setup, runs));
    return lines.join(QLatin1Char('\n'));
}

void MainWindow::applyPanel()
{
    setScenario(scenario_panel_->scenario(), loaded_ ? loaded_->path : QString(), scenario_panel_->caseIndex());
}

void MainWindow::openScenarioDialog()
{
    const QString dir = loaded_ && !loaded_->path.isEmpty()
                            ? QFileInfo(loaded_->path).absolutePath()
                            : QString::fromStdString(shipped_data_dir(kShippedScenarios));
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

bool MainWindow::adoptImportedMachine(const ImportResult& imported)
{
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
    message_status_->setText(imported.warnings.empty()
                                 ? tr("imported this host as %1").arg(path)
                                 : tr("imported as %1; %2").arg(path, QString::fromStdString(imported.warnings[0])));
    return true;
}

bool MainWindow::importHostMachine(const QString& sysfs_root)
{
    const QString keep = loaded_ ? tr("Still showing %1.").arg(QString::fromStdString(loaded_->setup.machine_spec))
                                 : tr("No machine is loaded.");
    try {
        return adoptImportedMachine(import_sysfs(sysfs_root.toStdString()));
    } catch (const std::exception& e) {
        fail(
            tr("Cannot import this host"),
            tr("Could not import the machine from %1. %2\n%3").arg(sysfs_root, keep, QString::fromStdString(e.what())));
        return false;
    }
}

bool MainWindow::importAndMeasureHost(qint64 budget_ms)
{
    if (measure_thread_)
        return false;
    // What the worker hands back; read by the window once the thread ended.
    struct Outcome {
        std::optional<ImportResult> imported;
        std::string error;
        bool cancelled = false;
    };
    auto outcome = std::make_shared<Outcome>();
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    measure_cancel_ = cancel;
    QPointer<QLabel> status = message_status_;
    measure_thread_ = QThread::create([outcome, cancel, status, budget_ms] {
        try {
            ImportResult r = import_sysfs("/");
            host::MeasureOptions options;
            options.budget_ns = budget_ms * 1'000'000;
            options.cancelled = [cancel] { return cancel->load(); };
            options.progress = [status](const std::string& line) {
                // The label lives on the window's thread: post the text there.
                QMetaObject::invokeMethod(
                    status,
                    [status, text = QString::fromStdString(line)] {
                        if (status)
                            status->setText(QObject::tr("measuring this host: %1").arg(text.trimmed()));
                    },
                    Qt::QueuedConnection);
            };
            host::measure_imported_host(r, options);
            outcome->imported = std::move(r);
        } catch (const host::MeasureCancelled&) {
            outcome->cancelled = true;
        } catch (const std::exception& e) {
            outcome->error = e.what();
        }
        handoff_release(outcome.get());  // Qt's queued `finished` orders this unseen by TSan
    });
    measure_thread_->setParent(this);  // freed with the window if it closes first
    connect(measure_thread_, &QThread::finished, this, [this, outcome] {
        handoff_acquire(outcome.get());
        measure_thread_->deleteLater();
        measure_thread_ = nullptr;
        measure_cancel_.reset();
        if (outcome->cancelled)
            return;
        try {
            if (outcome->imported) {
                adoptImportedMachine(*outcome->imported);
                return;
            }
        } catch (const std::exception& e) {
            outcome->error = e.what();
        }
        fail(tr("Cannot measure this host"),
             tr("The host benchmarks could not run.\n%1").arg(QString::fromStdString(outcome->error)));
    });
    message_status_->setText(tr("measuring this host (about %1 s) ...").arg(budget_ms / 1000));
    measure_thread_->start();
    return true;
}

void MainWindow::stopMeasuringHost()
{
    if (!measure_thread_)
        return;
    measure_cancel_->store(true);
    measure_thread_->wait();
}

void MainWindow::copyWakesimCommand()
{
    if (inTraceMode()) {
        QApplication::clipboard()->setText(traceCommand());
        message_status_->setText(tr("copied: %1").arg(traceCommand()));
        return;
    }
    const QString text = wakesimCommand();
    if (text.isEmpty() && loaded_) {
        QString why;
        form_session_setup(*scenario_panel_, loaded_->path, &why);
        message_status_->setText(tr("nothing copied: the form's edits are not a valid scenario: %1").arg(why));
        return;
    }
    QApplication::clipboard()->setText(text);
    const QString first = text.section(QLatin1Char('\n'), 0, 0);
    message_status_->setText(scenario_panel_->hasUnappliedEdits()
                                 ? tr("copied, with the unapplied edits: %1").arg(first)
                                 : tr("copied: %1").arg(first));
}

}  // namespace wb

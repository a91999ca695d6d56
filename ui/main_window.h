// SPDX-License-Identifier: Apache-2.0
//
// MainWindow: the workbench. A scenario (machine, one case's workload,
// one to four policies, features, seed) runs on the simulation thread
// (SimSession) and the window draws what it sends: one topology grid per
// policy side by side, each framed in its policy's colour, the decision
// diagram and the recent wakeups of the current record, the charts, and a
// status bar with simulated time, events per second, progress and the
// first divergence. Every panel is a dock. A scenario that fails to load is
// reported and the one shown stays.
//
// Its definitions are split by concern: main_window.cpp (building the
// window, selection, presentation, export), main_window_scenarios.cpp
// (scenarios and machines), main_window_plugins.cpp (policy plugins) and
// main_window_run.cpp (run controls and what the worker sends back) and
// main_window_trace.cpp (a recorded trace replayed, stepped wakeup by
// wakeup, and what every policy would choose at each) and
// main_window_what_if.cpp (the same question at a simulated wakeup).
#pragma once

#include <QHash>
#include <QIcon>
#include <QMainWindow>
#include <QString>
#include <QStringList>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "base/sim_time.h"
#include "decision/labelled_record.h"
#include "io/scenario_json.h"
#include "session/breakpoint.h"
#include "sim/sim_frame.h"

class QAction;
class QActionGroup;
class QDockWidget;
class QGridLayout;
class QLabel;
class QMenu;
class QProgressDialog;
class QSlider;
class QStackedWidget;
class QThread;
class QToolBar;

namespace wb {

struct Machine;
struct ImportResult;
struct ScenarioDraft;
struct Comparison;
struct SessionSetup;
class SchedDomains;
class TopologyView;
class DomainPanel;
class ScenarioPanel;
class PolicyGrid;
class SimSession;
class ComparisonJob;
class DecisionDiagram;
class RecentWakeups;
class ChartsPanel;
class RunKeys;
class TraceJob;
class WhatIfPanel;
struct LoadedTrace;
struct ReplayFrame;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // Shows an error. The window's own, and what an empty handler puts back,
    // is a modal dialog; start-up and tests install one that reads the
    // message without blocking.
    using ErrorHandler = std::function<void(const QString& title, const QString& message)>;

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // --- scenarios -------------------------------------------------------
    // False when the file cannot be read or run: the error handler was told
    // why (file:line:col: pointer: problem) and the previous scenario stays.
    bool openScenario(const QString& path);
    bool setScenario(const Scenario& scenario, const QString& path = {}, int case_index = 0);
    bool saveScenario(const QString& path);
    // The scenario of the last session (QSettings), or the default one.
    void restoreLastScenario();
    static Scenario defaultScenario();
    bool hasScenario() const;
    const Scenario& scenario() const;
    QString scenarioPath() const;
    int caseIndex() const;
    QStringList recentScenarios() const;
    // Off: nothing is written to the settings (headless pictures, tests).
    void setRemembering(bool on) { remember_ = on; }
    // Where the scenario on screen is kept, with its unapplied edits, at
    // every change (scenario_draft.h): the application's data folder.
    static QString draftFolder();
    // A machine by itself (a shipped name, a file, synthetic:...): the
    // current scenario with that machine.
    bool loadMachine(const QString& spec);
    // Imports the machine in front of the user from `sysfs_root`/sys (or a
    // copied tree), saves it as a machine file in the application's data
    // folder, so that wakesim can run the same scenario, and loads it. False
    // when it cannot: the error handler was told why, the scenario stays.
    bool importHostMachine(const QString& sysfs_root = QStringLiteral("/"));
    QString importedMachinePath() const { return imported_machine_path_; }
    // The same, with the host benchmarks run on a worker thread first
    // (docs/measuring.md); the window stays live and the status bar shows
    // their progress. Loads the measured machine when they are done. False if
    // a measurement is already running.
    bool importAndMeasureHost(qint64 budget_ms = 30000);
    bool isMeasuringHost() const { return measure_thread_ != nullptr; }

    bool hasMachine() const;
    const Machine& machine() const;  // only when hasMachine()
    const SchedDomains& schedDomains() const;
    QString machineSpec() const;
    // `wakesim run` for each policy shown and `wakesim compare` for all,
    // each with `--plugin PATH` for the plugins its policies come from.
    QString wakesimCommand() const;

    // --- policy plugins ------------------------------------------------------
    // Loads a plugin (wb::load_plugin): its policies join the scenario
    // panel's choices, and the window loads it again at its next start.
    // False when it cannot: the error handler was told why (the loader's
    // message names the file) and the policies stay as they were. A plugin
    // already loaded is loaded again, as reloadPlugins() does.
    bool loadPlugin(const QString& path);
    // Ctrl+R: every loaded plugin again from its file (a rebuilt one
    // replaces its policies), then the runs restart on the same scenario,
    // case and seed. The runs are stopped and dropped first, so nothing
    // still runs on the old builds' policies. False if a plugin failed to
    // load (reported; its old build stays) or the scenario no longer runs.
    bool reloadPlugins();
    // The plugins of the last session (QSettings), loaded again; one that
    // fails is reported once the event loop runs and is forgotten. False
    // when one failed. The window comes up either way.
    bool restorePlugins();
    // A plugin loaded before the window existed (wakebench --plugin):
    // remembered like one loaded from the menu.
    void rememberPlugin(const QString& path);
    // What the next start loads again: absolute paths, in the order loaded.
    QStringList rememberedPlugins() const;

    // --- the run -----------------------------------------------------------
    void runSimulation();
    void pauseSimulation();
    void toggleRun();
    void stepWakeup();
    void nextDivergence();
    void restartSimulation();
    // Simulated seconds per wall second; <= 0 as fast as possible.
    void setSpeed(double simulated_per_wall_second);
    double speed() const { return speed_; }
    void runTo(Time until);
    void addBreakpoint(const Breakpoint& bp);
    void clearBreakpoints();
    const std::vector<Breakpoint>& breakpoints() const { return breakpoints_; }
    void setBreakOnDivergence(bool on);
    // Runs the scenario's comparison (every policy x case x seed) in the
    // background for the headline chart and the exports.
    void startComparison();
    const Comparison* comparison() const { return comparison_.get(); }

    // --- recorded traces (main_window_trace.cpp) ------------------------------
    // File ▸ Open trace…: reads, parses and replays `path` on a worker
    // thread (a progress dialog with Cancel), asking `policies` (default:
    // the scenario's) at each wakeup in the state the kernel decided in, on
    // `machine`: empty for the scenario's, "lscpu:FILE" for `lscpu -p`
    // output, else a shipped machine or a machine file. When it is done
    // the window enters trace mode on its first wakeup (traceLoaded). False
    // when it cannot start (the machine or a policy does not load): the
    // error handler was told why. A trace that fails to read or replay is
    // reported the same way (traceLoadStopped); the scenario stays either way.
    bool openTrace(const QString& path, const QString& machine = {}, const QStringList& policies = {});
    void cancelTraceLoad();
    bool isLoadingTrace() const;
    // Back to the simulation, as it was left.
    void closeTrace();
    bool inTraceMode() const { return trace_ != nullptr; }
    const LoadedTrace* trace() const { return trace_.get(); }
    int traceFrameCount() const;
    int traceFrameIndex() const { return trace_index_; }
    const ReplayFrame* traceFrame() const;  // the wakeup shown, or null
    void showTraceFrame(int index);
    void stepTraceBack();
    // `wakesim trace replay` with the same trace, machine and policies.
    QString traceCommand() const;
    QString traceStatusText() const;
    WhatIfPanel* whatIfPanel() const { return what_if_; }
    int traceGridCount() const { return static_cast<int>(trace_grids_.size()); }

    // --- what if, for a simulated run (main_window_what_if.cpp) -----------
    // View ▸ What if: at each stepped wakeup, every policy's choice and
    // mainline's with each flipped feature, in the first run's state.
    void setWhatIfShown(bool on);
    bool whatIfShown() const;
    PolicyGrid* traceGrid(int i) const { return trace_grids_[static_cast<std::size_t>(i)]; }

    // --- views -------------------------------------------------------------
    void selectCpu(int cpu);  // -1 clears; in every grid
    void setErrorHandler(ErrorHandler handler);
    int gridCount() const { return static_cast<int>(grids_.size()); }
    PolicyGrid* grid(int i) const { return grids_[static_cast<std::size_t>(i)]; }
    TopologyView* topologyView() const;  // the first grid's
    DomainPanel* domainPanel() const { return domains_; }
    ScenarioPanel* scenarioPanel() const { return scenario_panel_; }
    DecisionDiagram* decisionDiagram() const { return diagram_; }
    RecentWakeups* recentWakeups() const { return recent_; }
    ChartsPanel* chartsPanel() const { return charts_; }
    SimSession* session() const { return session_; }
    QString statusText() const;     // the machine: "teaching-8 · 8 CPUs · 2 LLCs"
    QString simStatusText() const;  // time, events/s, progress, divergence
    // Frames drawn and the time spent restyling the grids, for the figures in docs/gui.md.
    struct FrameStats {
        int frames = 0;
        double total_ms = 0;
        double max_ms = 0;
    };
    const FrameStats& frameStats() const { return frame_stats_; }

    void setPresentationMode(bool on);
    bool presentationMode() const { return presenting_; }
    void setDarkTheme(bool dark);
    bool darkTheme() const { return dark_; }
    // Ctrl+E: the view with focus (a grid, the diagram or a chart) as PNG or SVG.
    bool exportView(QWidget* view, const QString& path);
    QWidget* focusedView() const;
    // Results ▸ Export the runs as a trace: each grid's run from its start to
    // the time it shows, as `wakesim run --time-limit T --trace` writes it
    // (.txt ftrace text, .json Chrome trace events); with several policies,
    // one file each, the policy's name before the extension. Returns the
    // files written; empty on failure (reported).
    QStringList exportRunTraces(const QString& path);

signals:
    void machineChanged();
    void scenarioChanged();
    void frameShown(quint64 serial);
    void traceLoaded();
    void traceLoadStopped(const QString& why);  // cancelled or failed

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    struct Loaded;

    void buildActions();
    void buildMenus();
    void buildToolbar();
    void buildDocks();
    void rebuildGrids(const SessionSetup& setup);
    void onFrame(const SimFrame& frame);
    void onStepped(const StepRecords& records);
    void onStateChanged(SimState state);
    void onStopped(const QString& why);
    void onRunFailed(const QString& message);
    void onCpuSelected(int cpu);
    void onDomainSelected(int domain_id);
    void showRecordInDiagram(int policy, const DecisionRecord& rec);
    void updateChartsFromFrame(const SimFrame& frame, bool full);
    void applyPanel();
    void openScenarioDialog();
    void saveScenarioDialog();
    void openMachineFileDialog();
    void exportFocused();
    void exportResults(const QString& format);
    void copyTextTable();
    void exportRunTracesDialog();
    void copyWakesimCommand();
    void loadPluginDialog();
    // The plugins' policies changed: the panel's choices and Reload follow.
    void pluginsChanged();
    void pushRecent(const QString& path);
    void rebuildRecentMenu();
    void rememberScenario();
    // The scenario on screen, unapplied edits included, kept in the data
    // folder (draftFolder()) at every change and put back at the next start.
    void saveDraft();
    void restoreDraft(const ScenarioDraft& draft);
    void pushBreakpoints();
    void updateSpeedLabel();
    void applyPace(qint64 first_wakeups_ns);
    void fail(const QString& title, const QString& message);
    // Saves an imported machine in the data folder and loads it.
    bool adoptImportedMachine(const ImportResult& imported);
    // Asks the host benchmarks to stop at their next step and waits for them.
    void stopMeasuringHost();
    // Trace mode (main_window_trace.cpp).
    void buildTraceMode();
    void openTraceDialog();
    void onTraceLoaded();
    void enterTraceMode(std::unique_ptr<LoadedTrace> trace);
    void nextTraceDifference();
    void updateTraceActions();
    // What if (main_window_what_if.cpp).
    void pushWhatIfCases();
    void showWhatIf(const StepRecords& records);
    void showWhatIfRow(int row);

    std::unique_ptr<Loaded> loaded_;
    QString imported_machine_path_;
    QThread* measure_thread_ = nullptr;
    std::shared_ptr<std::atomic<bool>> measure_cancel_;
    ErrorHandler on_error_;
    SimSession* session_ = nullptr;
    RunKeys* run_keys_ = nullptr;
    ComparisonJob* comparison_job_ = nullptr;
    std::unique_ptr<Comparison> comparison_;

    QStackedWidget* central_ = nullptr;  // the simulation's grids, or a trace's
    QWidget* grid_area_ = nullptr;
    QGridLayout* grid_layout_ = nullptr;
    std::vector<PolicyGrid*> grids_;
    ScenarioPanel* scenario_panel_ = nullptr;
    DomainPanel* domains_ = nullptr;
    DecisionDiagram* diagram_ = nullptr;
    RecentWakeups* recent_ = nullptr;
    ChartsPanel* charts_ = nullptr;
    QMenu* view_menu_ = nullptr;
    QMenu* recent_menu_ = nullptr;
    QMenu* break_menu_ = nullptr;
    QMenu* active_breaks_ = nullptr;
    std::vector<QDockWidget*> docks_;

    TraceJob* trace_job_ = nullptr;
    QProgressDialog* trace_progress_ = nullptr;
    std::unique_ptr<LoadedTrace> trace_;
    int trace_index_ = -1;
    QWidget* trace_area_ = nullptr;
    QGridLayout* trace_layout_ = nullptr;
    std::vector<PolicyGrid*> trace_grids_;
    WhatIfPanel* what_if_ = nullptr;
    QDockWidget* what_if_dock_ = nullptr;
    QAction* what_if_action_ = nullptr;
    QLabel* trace_status_ = nullptr;
    QLabel* trace_flag_ = nullptr;
    QAction* open_trace_ = nullptr;
    QAction* close_trace_ = nullptr;
    QAction* step_back_ = nullptr;
    LabelledRecords sim_diagram_;  // the simulation's diagram, put back when the trace closes

    QAction* open_ = nullptr;
    QAction* save_ = nullptr;
    QAction* run_ = nullptr;
    QAction* pause_ = nullptr;
    QAction* toggle_ = nullptr;
    QAction* step_ = nullptr;
    QAction* divergence_ = nullptr;
    QAction* restart_ = nullptr;
    QAction* reload_plugins_ = nullptr;
    QAction* present_ = nullptr;
    QAction* export_ = nullptr;
    QAction* decision_focus_ = nullptr;
    QAction* break_divergence_ = nullptr;
    QAction* break_idle_core_ = nullptr;
    QToolBar* run_toolbar_ = nullptr;
    QHash<QAction*, QIcon> light_icons_;  // the style's own, put back by the light theme
    QSlider* speed_slider_ = nullptr;
    QLabel* speed_label_ = nullptr;

    QLabel* machine_status_ = nullptr;
    QLabel* time_status_ = nullptr;
    QLabel* rate_status_ = nullptr;
    QLabel* progress_status_ = nullptr;
    QLabel* divergence_status_ = nullptr;
    QLabel* message_status_ = nullptr;

    std::vector<Breakpoint> breakpoints_;
    bool break_on_divergence_ = false;
    double speed_ = 200e-6;
    int diagram_policy_ = 0;                  // whose record the diagram shows: the grid last clicked
    std::vector<std::uint64_t> recent_seen_;  // per policy: records up to this seq are in the list
    std::vector<double> last_ops_;            // per policy, for throughput between frames
    std::vector<Time> last_time_;
    qint64 last_chart_ms_ = 0;
    FrameStats frame_stats_;
    bool presenting_ = false;
    bool dark_ = false;
    QFont normal_font_;
    bool was_maximized_ = false;
    bool remember_ = true;
    bool restoring_draft_ = false;
};

}  // namespace wb

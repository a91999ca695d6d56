// SPDX-License-Identifier: Apache-2.0
//
// wakebench: the workbench window. Options are checked before Qt starts a
// display connection, so a bad value is reported (exit 2) even where no
// display exists, and --screenshot needs none. --plugin loads policy
// plugins first, so that a --scenario may name their policies. --screenshot
// writes the window, or with --view one of its views composed for a slide
// (title, view, legend), at --size, as PNG or SVG.
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <exception>
#include <optional>
#include <string_view>
#include <vector>

#include "decision/decision_diagram.h"
#include "decision/what_if_panel.h"
#include "base/sim_time.h"
#include "export/export_format.h"
#include "export/export_frame.h"
#include "export/export_size.h"
#include "export/export_target.h"
#include "export/window_export.h"
#include "guarded_application.h"
#include "io/input_error.h"
#include "io/scenario_json.h"
#include "io/topology_library.h"
#include "main_window.h"
#include "plugin/plugin_loader.h"
#include "sched/features.h"
#include "sim/sim_session.h"
#include "sim/trace_job.h"
#include "topology/machine.h"
#include "version.h"

namespace {

constexpr int kBadUsage = 2;
constexpr int kScreenshotWidth = 1280;
constexpr int kScreenshotHeight = 800;
// The window's size while it lays out a view that --view exports alone:
// the view is laid out afresh at --size, so only the window's look counts.
constexpr QSize kWindowSize(kScreenshotWidth, kScreenshotHeight);

int usage_error(const QString& message)
{
    std::fprintf(stderr, "wakebench: %s\n", qPrintable(message));
    return kBadUsage;
}

struct Options {
    QStringList plugins;  // --plugin, loaded: absolute paths
    std::optional<wb::Scenario> scenario;
    QString scenario_path;
    int case_index = 0;
    QString machine_spec;  // --machine: the scenario (or the default one) on this machine
    std::optional<int> select_cpu;
    QString screenshot;
    wb::ExportTarget view = wb::ExportTarget::Window;
    QSize size = kWindowSize;
    std::optional<wb::Time> at;
    double frame_stats = 0;  // wall seconds of a flat-out run to measure, 0 off
    QString trace;           // --trace: a recorded trace to replay and step through
    QString trace_machine;   // --trace-machine: empty for the scenario's
    int trace_line = 0;      // --trace-line: the wakeup shown first, by its sched_waking's line
    bool what_if = false;    // --what-if: the What if dock, asked at each stepped wakeup
    QStringList flips;       // --flip: mainline with these features switched, a What if row each
};

// Returns an exit status when the program should stop before the GUI.
std::optional<int> parse_options(const QStringList& args, Options& out)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Wakebench: simulates the Linux kernel's fair-class wakeup placement on models of real "
                       "machines, one to four policies side by side."));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    const QCommandLineOption scenario(QStringLiteral("scenario"),
                                      QStringLiteral("Scenario file to open (the files wakesim run/compare read)."),
                                      QStringLiteral("FILE"));
    const QCommandLineOption case_option(QStringLiteral("case"),
                                         QStringLiteral("With --scenario: the case to show (default: the first)."),
                                         QStringLiteral("LABEL"));
    const QCommandLineOption machine(
        QStringLiteral("machine"),
        QStringLiteral("Run the scenario (or the default one) on this machine: a shipped machine's name, a machine "
                       "file or synthetic:..."),
        QStringLiteral("NAME|FILE|synthetic:..."));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Render the window (or --view) at --size into OUT and exit; OUT's suffix, .png or .svg, "
                       "picks the format."),
        QStringLiteral("OUT.png|OUT.svg"));
    const QCommandLineOption view(
        QStringLiteral("view"),
        QStringLiteral("With --screenshot: what the picture shows, one of %1 (default: window). Every view but the "
                       "window gets a title line and a legend of the policies and their figures.")
            .arg(wb::export_target_names().join(QStringLiteral(", "))),
        QStringLiteral("VIEW"));
    const QCommandLineOption size(QStringLiteral("size"),
                                  QStringLiteral("With --screenshot: the picture's size in pixels (default %1; "
                                                 "1920x1080 and 1280x720 suit slides).")
                                      .arg(wb::export_size_text(kWindowSize)),
                                  QStringLiteral("WIDTHxHEIGHT"));
    const QCommandLineOption at(QStringLiteral("at"),
                                QStringLiteral("Simulate to this time first (500us, 5ms, 2s); with --screenshot the "
                                               "picture then shows the next wakeup's decision."),
                                QStringLiteral("SIMULATED_TIME"));
    const QCommandLineOption select_cpu(QStringLiteral("select-cpu"), QStringLiteral("Select CPU N at start."),
                                        QStringLiteral("N"));
    const QCommandLineOption frame_stats(
        QStringLiteral("frame-stats"),
        QStringLiteral("Run flat out for SECONDS of wall time, then print frames per second, the longest stall of "
                       "the window's event loop and the time spent restyling the grids per frame, and exit."),
        QStringLiteral("SECONDS"));
    const QCommandLineOption plugin(
        QStringLiteral("plugin"),
        QStringLiteral("Load a policy plugin (a shared library built against the Wakebench SDK) first; repeatable. "
                       "Its policies join the choices, and the window loads it again at its next start."),
        QStringLiteral("PATH.so"));
    const QCommandLineOption trace(
        QStringLiteral("trace"),
        QStringLiteral("Replay a recorded trace (tracefs, trace-cmd or perf script text, gzipped or not) and step "
                       "through its wakeups, as File > Open trace... does."),
        QStringLiteral("FILE"));
    const QCommandLineOption trace_machine(
        QStringLiteral("trace-machine"),
        QStringLiteral("With --trace: the machine it was recorded on, a shipped machine's name, a machine file or "
                       "lscpu:FILE (the output of lscpu -p); default: the scenario's."),
        QStringLiteral("SPEC"));
    const QCommandLineOption trace_line(
        QStringLiteral("trace-line"),
        QStringLiteral("With --trace: show first the wakeup whose sched_waking is on this line of the trace."),
        QStringLiteral("N"));
    const QCommandLineOption what_if(
        QStringLiteral("what-if"),
        QStringLiteral("Show the What if dock: at each stepped wakeup (and with --screenshot --at, the one pictured), "
                       "what every policy of the scenario would choose in the same state."));
    const QCommandLineOption flip(
        QStringLiteral("flip"),
        QStringLiteral("With --what-if: add mainline with these scheduler features switched, a row each "
                       "(NO_SIS_UTIL,NO_WA_IDLE: the names of wakesim list features)."),
        QStringLiteral("FEATURES"));
    parser.addOptions({plugin, scenario, case_option, machine, screenshot, view, size, at, select_cpu, frame_stats,
                       trace, trace_machine, trace_line, what_if, flip});

    if (!parser.parse(args))
        return usage_error(parser.errorText() + QStringLiteral(" (see --help)"));
    if (parser.isSet(help)) {
        // Without a QCoreApplication the parser cannot know the program's name.
        QString text = parser.helpText();
        text.replace(QStringLiteral("<executable_name>"), QStringLiteral("wakebench"));
        std::fputs(qPrintable(text), stdout);
        return 0;
    }
    if (parser.isSet(version)) {
        std::puts(wb::version_line("wakebench").c_str());
        return 0;
    }
    if (!parser.positionalArguments().isEmpty())
        return usage_error(
            QStringLiteral("unexpected argument '%1' (see --help)").arg(parser.positionalArguments().constFirst()));

    // Before the scenario, whose policies may be the plugins'.
    for (const QString& path : parser.values(plugin)) {
        try {
            out.plugins << QString::fromStdString(wb::load_plugin(path.toStdString()).path);
        } catch (const std::exception& e) {
            return usage_error(
                QStringLiteral("--plugin %1: cannot load the plugin:\n%2").arg(path, QString::fromStdString(e.what())));
        }
    }
    if (parser.isSet(scenario)) {
        const QString path = parser.value(scenario);
        const QFileInfo file(path);
        if (!file.exists())
            return usage_error(QStringLiteral("--scenario: no such file: %1").arg(path));
        if (!file.isFile())
            return usage_error(QStringLiteral("--scenario: not a file: %1").arg(path));
        try {
            out.scenario = wb::load_scenario_file(path.toStdString());
        } catch (const wb::InputError& e) {
            return usage_error(QStringLiteral("--scenario %1: cannot use this scenario:\n%2")
                                   .arg(path, QString::fromStdString(e.what())));
        }
        out.scenario_path = path;
        if (parser.isSet(case_option)) {
            const QString wanted = parser.value(case_option);
            QStringList labels;
            out.case_index = -1;
            for (std::size_t i = 0; i < out.scenario->cases.size(); ++i) {
                labels << QString::fromStdString(out.scenario->cases[i].label);
                if (labels.back() == wanted && out.case_index < 0)
                    out.case_index = static_cast<int>(i);
            }
            if (out.case_index < 0)
                return usage_error(
                    QStringLiteral("--case '%1': expected one of %2").arg(wanted, labels.join(QStringLiteral(", "))));
        }
    } else if (parser.isSet(case_option)) {
        return usage_error(QStringLiteral("--case needs --scenario"));
    }
    int nr_cpus = 0;
    QString machine_name;
    if (parser.isSet(machine)) {
        out.machine_spec = parser.value(machine);
        try {
            const wb::Machine m = wb::resolve_machine(out.machine_spec.toStdString());
            nr_cpus = m.nr_cpus();
            machine_name = QString::fromStdString(m.name);
        } catch (const wb::InputError& e) {
            return usage_error(QStringLiteral("--machine %1: cannot load the machine:\n%2")
                                   .arg(out.machine_spec, QString::fromStdString(e.what())));
        }
    }
    if (parser.isSet(select_cpu)) {
        const QString value = parser.value(select_cpu);
        bool ok = false;
        const int cpu = value.toInt(&ok);
        // The machine is only known here when named; otherwise the window checks.
        const int last = nr_cpus > 0 ? nr_cpus - 1 : INT32_MAX;
        if (!ok || cpu < 0 || cpu > last)
            return usage_error(QStringLiteral("--select-cpu: expected a CPU of %1, from 0 to %2; found '%3'")
                                   .arg(machine_name.isEmpty() ? QStringLiteral("the machine") : machine_name)
                                   .arg(last)
                                   .arg(value));
        out.select_cpu = cpu;
    }
    if (parser.isSet(at)) {
        wb::Time t;
        const QString value = parser.value(at);
        if (!wb::parse_duration(value.toStdString(), t) || t < wb::Time())
            return usage_error(
                QStringLiteral("--at '%1': expected a simulated time with its unit, such as 500us, 5ms or 2s")
                    .arg(value));
        out.at = t;
    }
    if (parser.isSet(frame_stats)) {
        bool ok = false;
        out.frame_stats = parser.value(frame_stats).toDouble(&ok);
        if (!ok || out.frame_stats <= 0 || out.frame_stats > 3600)
            return usage_error(
                QStringLiteral("--frame-stats: expected seconds of wall time, from 0 to 3600; found '%1'")
                    .arg(parser.value(frame_stats)));
    }
    out.trace = parser.value(trace);
    out.trace_machine = parser.value(trace_machine);
    if (parser.isSet(trace_line)) {
        bool ok = false;
        out.trace_line = parser.value(trace_line).toInt(&ok);
        if (!ok || out.trace_line < 1)
            return usage_error(
                QStringLiteral("--trace-line: expected a line number; found '%1'").arg(parser.value(trace_line)));
    }
    out.what_if = parser.isSet(what_if);
    if (parser.isSet(flip)) {
        if (!out.what_if)
            return usage_error(QStringLiteral("--flip needs --what-if: it adds rows to the What if dock"));
        out.flips = parser.value(flip).split(QLatin1Char(','), Qt::SkipEmptyParts);
        for (const QString& f : out.flips) {
            const std::string problem = wb::FeatureSet().apply(f.toStdString());
            if (!problem.empty())
                return usage_error(QStringLiteral("--flip: %1").arg(QString::fromStdString(problem)));
        }
    }
    if (out.trace.isEmpty())
        for (const QCommandLineOption* trace_only : {&trace_machine, &trace_line})
            if (parser.isSet(*trace_only))
                return usage_error(QStringLiteral("--%1 needs --trace").arg(trace_only->names().constFirst()));
    if (parser.isSet(screenshot)) {
        out.screenshot = parser.value(screenshot);
        if (out.screenshot.isEmpty())
            return usage_error(QStringLiteral("--screenshot: expected an output file name"));
        if (!wb::image_format_for(out.screenshot))
            return usage_error(
                QStringLiteral("--screenshot '%1': expected a file name ending in .png or .svg").arg(out.screenshot));
    } else {
        for (const QCommandLineOption* picture_only : {&view, &size})
            if (parser.isSet(*picture_only))
                return usage_error(QStringLiteral("--%1 needs --screenshot: it describes the picture written")
                                       .arg(picture_only->names().constFirst()));
    }
    if (parser.isSet(view)) {
        const QString value = parser.value(view);
        const std::optional<wb::ExportTarget> target = wb::parse_export_target(value);
        if (!target)
            return usage_error(QStringLiteral("--view '%1': expected one of %2")
                                   .arg(value, wb::export_target_names().join(QStringLiteral(", "))));
        out.view = *target;
    }
    if (parser.isSet(size)) {
        const QString value = parser.value(size);
        const std::optional<QSize> pixels = wb::parse_export_size(value);
        if (!pixels)
            return usage_error(QStringLiteral("--size '%1': expected WIDTHxHEIGHT in pixels, each from %2 to %3, "
                                              "such as 1920x1080")
                                   .arg(value)
                                   .arg(wb::kMinExportSide)
                                   .arg(wb::kMaxExportSide));
        out.size = *pixels;
    }
    return std::nullopt;
}

// Runs the event loop until `signal` arrives; false after `timeout_ms`.
template <typename Sender, typename Signal>
bool wait_for(Sender* sender, Signal signal, int timeout_ms)
{
    QEventLoop loop;
    QTimer::singleShot(timeout_ms, &loop, [&] { loop.exit(1); });
    QObject::connect(sender, signal, &loop, [&] { loop.exit(0); });
    return loop.exec() == 0;
}

// Runs the event loop until `done()` holds; false after `timeout_ms`. For
// what the window announces by no signal of its own (the comparison).
template <typename Predicate>
bool wait_until(Predicate done, int timeout_ms)
{
    QElapsedTimer waited;
    waited.start();
    while (!done()) {
        if (waited.elapsed() > timeout_ms)
            return false;
        QEventLoop loop;
        QTimer::singleShot(20, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return true;
}

// The window's responsiveness while the runs go flat out: how many frames
// it shows a second, the longest the event loop was kept from its timers
// (restyling, painting, everything), and the restyling alone.
int measure_frames(wb::MainWindow& window, double seconds)
{
    wb::SimSession* session = window.session();
    if (!session->hasFrame() && !wait_for(session, &wb::SimSession::frameReady, 600000))
        return usage_error(QStringLiteral("--frame-stats: the simulation did not start"));
    QElapsedTimer wall;
    QElapsedTimer since_tick;
    qint64 worst_gap_ns = 0;
    QTimer ticker;
    ticker.setTimerType(Qt::PreciseTimer);
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        worst_gap_ns = std::max(worst_gap_ns, since_tick.nsecsElapsed());
        since_tick.restart();
    });
    const int frames_before = window.frameStats().frames;
    const double restyle_before = window.frameStats().total_ms;
    window.setSpeed(0);
    window.runSimulation();
    wall.start();
    since_tick.start();
    ticker.start(2);
    QEventLoop loop;
    QTimer::singleShot(static_cast<int>(seconds * 1000), &loop, &QEventLoop::quit);
    loop.exec();
    ticker.stop();
    const double elapsed = static_cast<double>(wall.nsecsElapsed()) / 1e9;
    const int frames = window.frameStats().frames - frames_before;
    const wb::SimFrame& last = session->lastFrame();
    std::printf(
        "machine %s, %d CPUs, %zu policies: %d frames in %.2f s = %.1f frames/s; longest event-loop stall "
        "%.1f ms; restyle %.2f ms/frame (max %.2f ms); simulated %s\n",
        window.machine().name.c_str(), window.machine().nr_cpus(), last.runs.size(), frames, elapsed, frames / elapsed,
        static_cast<double>(worst_gap_ns) / 1e6,
        frames > 0 ? (window.frameStats().total_ms - restyle_before) / frames : 0.0, window.frameStats().max_ms,
        last.runs.empty() ? "0" : wb::format_duration(last.runs.front().now).c_str());
    return 0;
}

// argv without the --plugin options (both --plugin PATH and --plugin=PATH),
// null-terminated as QApplication wants it; the strings stay argv's.
std::vector<char*> arguments_for_qt(int argc, char** argv)
{
    std::vector<char*> out;
    for (int i = 0; i < argc; ++i) {
        const std::string_view arg(argv[i]);
        if (i > 0 && (arg == "--plugin" || arg == "-plugin")) {
            ++i;  // and its value
            continue;
        }
        if (i > 0 && (arg.starts_with("--plugin=") || arg.starts_with("-plugin=")))
            continue;
        out.push_back(argv[i]);
    }
    out.push_back(nullptr);
    return out;
}

}  // namespace

int main(int argc, char** argv)
{
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    Options options;
    if (const std::optional<int> status = parse_options(args, options))
        return *status;
    const bool headless = !options.screenshot.isEmpty();

    // The same pixels on a desktop as on a headless CI machine.
    if (headless && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    // Qt takes -plugin and --plugin for itself (a generic input plugin to
    // load) and would warn "No such plugin": it sees the arguments without ours.
    std::vector<char*> qt_argv = arguments_for_qt(argc, argv);
    int qt_argc = static_cast<int>(qt_argv.size()) - 1;
    wb::GuardedApplication app(qt_argc, qt_argv.data());
    QApplication::setApplicationName(QStringLiteral("wakebench"));

    wb::MainWindow window;
    if (headless) {
        window.setAttribute(Qt::WA_DontShowOnScreen);
        // A picture must not depend on what this user opened last time.
        window.setRemembering(false);
    } else {
        // The last session's plugins before its scenario, which may name
        // their policies; one that no longer loads is reported once the
        // window is up, and forgotten.
        window.restorePlugins();
        for (const QString& path : options.plugins)
            window.rememberPlugin(path);
    }
    int error_status = 0;
    window.setErrorHandler([&](const QString& title, const QString& message) {
        std::fprintf(stderr, "wakebench: %s: %s\n", qPrintable(title), qPrintable(message));
        error_status = kBadUsage;
    });
    // The window is pictured at the picture's size; a view alone is laid
    // out afresh at that size by the export, in a window of the usual size.
    window.resize(options.view == wb::ExportTarget::Window ? options.size : kWindowSize);
    // Shown before the scenario is set, so the grids are laid out for the
    // views' real shape rather than a guess.
    window.show();
    QApplication::processEvents();

    wb::Scenario scenario;
    QString path;
    if (options.scenario) {
        scenario = *options.scenario;
        path = options.scenario_path;
    } else if (headless || !options.machine_spec.isEmpty()) {
        scenario = wb::MainWindow::defaultScenario();
    }
    if (!options.machine_spec.isEmpty())
        scenario.machine = options.machine_spec.toStdString();
    const bool loaded = scenario.cases.empty() ? (window.restoreLastScenario(), true)
                                               : window.setScenario(scenario, path, options.case_index);
    if (!loaded)
        return error_status ? error_status : 1;
    // The window reports problems in its dialogs from here on (an empty
    // handler puts the dialog back).
    if (!headless)
        window.setErrorHandler({});
    if (options.select_cpu) {
        if (*options.select_cpu >= window.machine().nr_cpus())
            return usage_error(QStringLiteral("--select-cpu: expected a CPU of %1, from 0 to %2; found '%3'")
                                   .arg(QString::fromStdString(window.machine().name))
                                   .arg(window.machine().nr_cpus() - 1)
                                   .arg(*options.select_cpu));
        window.selectCpu(*options.select_cpu);
    }

    if (options.what_if) {
        window.setWhatIfShown(true);
        window.whatIfPanel()->setFlips(options.flips);
    }

    wb::SimSession* session = window.session();
    if (!options.trace.isEmpty()) {
        // The simulation's first frame first: the trace then takes the window over it.
        if (!session->hasFrame() && !wait_for(session, &wb::SimSession::frameReady, 600000))
            return usage_error(QStringLiteral("--trace: the simulation did not start"));
        if (!window.openTrace(options.trace, options.trace_machine))
            return error_status ? error_status : 1;
        if (headless || options.trace_line > 0) {
            QEventLoop loop;
            QObject::connect(&window, &wb::MainWindow::traceLoaded, &loop, [&] { loop.exit(0); });
            QObject::connect(&window, &wb::MainWindow::traceLoadStopped, &loop, [&] { loop.exit(1); });
            if (loop.exec() != 0)
                return error_status ? error_status : 1;
            const auto& frames = window.trace()->frames;
            for (std::size_t i = 0; options.trace_line > 0 && i < frames.size(); ++i)
                if (frames[i].line >= options.trace_line) {
                    window.showTraceFrame(static_cast<int>(i));
                    break;
                }
        }
    }

    if (options.frame_stats > 0)
        return measure_frames(window, options.frame_stats);
    if (!headless) {
        if (options.at)
            window.runTo(*options.at);
        return QApplication::exec();
    }

    // Headless: the first frame, then (with --at) the run to that time and
    // one step, so that the picture shows a decision being made.
    constexpr int kWaitMs = 600000;
    if (!session->hasFrame() && !wait_for(session, &wb::SimSession::frameReady, kWaitMs))
        return usage_error(QStringLiteral("--screenshot: the simulation did not start"));
    if (options.at && *options.at > wb::Time()) {
        window.runTo(*options.at);
        if (!wait_for(session, &wb::SimSession::stopped, kWaitMs))
            return usage_error(QStringLiteral("--at: the run did not reach %1")
                                   .arg(QString::fromStdString(wb::format_duration(*options.at))));
        if (session->state() != wb::SimState::Finished) {
            window.stepWakeup();
            wait_for(session, &wb::SimSession::frameReady, kWaitMs);
        }
    }
    if (wb::export_target_needs_comparison(options.view) && !error_status) {
        // The full comparison can take minutes (every policy x case x seed):
        // say why nothing seems to happen.
        std::fprintf(stderr, "wakebench: --view %s: running the scenario's comparison first\n",
                     qPrintable(wb::export_target_name(options.view)));
        window.startComparison();
        if (!wait_until([&] { return window.comparison() || error_status; }, kWaitMs))
            return usage_error(
                QStringLiteral("--view %1: the comparison did not finish").arg(wb::export_target_name(options.view)));
    }
    if (error_status)
        return error_status;
    // Let the diagram finish its animation and the views repaint.
    window.decisionDiagram()->finishAnimation();
    QApplication::processEvents();
    QString error;
    if (!wb::write_export_frame(wb::window_export_frame(window, options.view), options.size, options.screenshot,
                                &error))
        return usage_error(QStringLiteral("--screenshot: %1").arg(error));
    return 0;
}

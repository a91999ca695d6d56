// SPDX-License-Identifier: Apache-2.0
//
// wakebench: the workbench window. Options are checked before Qt starts a
// display connection, so a bad value is reported (exit 2) even where no
// display exists, and --screenshot needs none.
#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QPixmap>
#include <QString>
#include <QStringList>
#include <cstdio>
#include <exception>
#include <optional>

#include "io/input_error.h"
#include "io/topology_library.h"
#include "main_window.h"
#include "topology/machine.h"

namespace {

constexpr int kBadUsage = 2;
constexpr int kScreenshotWidth = 1280;
constexpr int kScreenshotHeight = 800;
const char* const kDefaultMachine = "ampere-altra-80";

int usage_error(const QString& message)
{
    std::fprintf(stderr, "wakebench: %s\n", qPrintable(message));
    return kBadUsage;
}

struct Options {
    QString machine_spec;
    wb::Machine machine;
    std::optional<int> select_cpu;
    QString screenshot;
};

// Returns an exit status when the program should stop before the GUI.
std::optional<int> parse_options(const QStringList& args, Options& out)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Wakebench: simulates the Linux kernel's fair-class wakeup placement on models of real "
                       "machines."));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption machine(
        QStringLiteral("machine"),
        QStringLiteral("Machine to open: a shipped machine's name, a machine file or synthetic:... (default %1).")
            .arg(QLatin1String(kDefaultMachine)),
        QStringLiteral("NAME|FILE|synthetic:..."), QLatin1String(kDefaultMachine));
    const QCommandLineOption scenario(
        QStringLiteral("scenario"),
        QStringLiteral("Scenario file. Accepted for forward compatibility: scenarios are not supported yet."),
        QStringLiteral("FILE"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Render the window at %1x%2 into a PNG file and exit.")
                                            .arg(kScreenshotWidth)
                                            .arg(kScreenshotHeight),
                                        QStringLiteral("OUT.png"));
    const QCommandLineOption select_cpu(QStringLiteral("select-cpu"), QStringLiteral("Select CPU N at start."),
                                        QStringLiteral("N"));
    parser.addOptions({machine, scenario, screenshot, select_cpu});

    if (!parser.parse(args))
        return usage_error(parser.errorText() + QStringLiteral(" (see --help)"));
    if (parser.isSet(help)) {
        // Without a QCoreApplication the parser cannot know the program's name.
        QString text = parser.helpText();
        text.replace(QStringLiteral("<executable_name>"), QStringLiteral("wakebench"));
        std::fputs(qPrintable(text), stdout);
        return 0;
    }
    if (!parser.positionalArguments().isEmpty())
        return usage_error(
            QStringLiteral("unexpected argument '%1' (see --help)").arg(parser.positionalArguments().constFirst()));

    out.machine_spec = parser.value(machine);
    if (parser.isSet(scenario)) {
        const QString path = parser.value(scenario);
        const QFileInfo file(path);
        if (!file.exists())
            return usage_error(QStringLiteral("--scenario: no such file: %1").arg(path));
        if (!file.isFile())
            return usage_error(QStringLiteral("--scenario: not a file: %1").arg(path));
        std::fprintf(stderr, "wakebench: note: scenario files are not supported yet; ignoring %s and opening %s\n",
                     qPrintable(path), qPrintable(out.machine_spec));
    }
    try {
        out.machine = wb::resolve_machine(out.machine_spec.toStdString());
    } catch (const wb::InputError& e) {
        return usage_error(QStringLiteral("--machine %1: cannot load the machine:\n%2")
                               .arg(out.machine_spec, QString::fromStdString(e.what())));
    }
    if (parser.isSet(select_cpu)) {
        const QString value = parser.value(select_cpu);
        bool ok = false;
        const int cpu = value.toInt(&ok);
        const int last = out.machine.nr_cpus() - 1;
        if (!ok || cpu < 0 || cpu > last)
            return usage_error(QStringLiteral("--select-cpu: expected a CPU of %1, from 0 to %2; found '%3'")
                                   .arg(QString::fromStdString(out.machine.name))
                                   .arg(last)
                                   .arg(value));
        out.select_cpu = cpu;
    }
    if (parser.isSet(screenshot)) {
        out.screenshot = parser.value(screenshot);
        if (out.screenshot.isEmpty())
            return usage_error(QStringLiteral("--screenshot: expected an output file name"));
    }
    return std::nullopt;
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

    // The same pixels on a desktop as on a headless CI machine.
    if (!options.screenshot.isEmpty() && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("wakebench"));

    wb::MainWindow window;
    if (!options.screenshot.isEmpty())
        window.setAttribute(Qt::WA_DontShowOnScreen);
    window.resize(kScreenshotWidth, kScreenshotHeight);
    // Shown before the machine is set, so the grid is laid out for the
    // view's real shape rather than a guess.
    window.show();
    QApplication::processEvents();
    try {
        window.setMachine(std::move(options.machine), options.machine_spec);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "wakebench: internal error building the sched domains of %s: %s\n",
                     qPrintable(options.machine_spec), e.what());
        return 1;
    }
    if (options.select_cpu)
        window.selectCpu(*options.select_cpu);

    if (!options.screenshot.isEmpty()) {
        QApplication::processEvents();
        if (!window.grab().save(options.screenshot, "PNG"))
            return usage_error(QStringLiteral("--screenshot: cannot write %1").arg(options.screenshot));
        return 0;
    }
    return QApplication::exec();
}

// SPDX-License-Identifier: Apache-2.0
//
// MainWindow: policy plugins — loaded from the menu or the command line,
// remembered for the next start, reloaded after a rebuild (Ctrl+R).
#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QSettings>
#include <QStringList>
#include <QTimer>
#include <exception>
#include <vector>

#include "io/input_error.h"
#include "main_window.h"
#include "main_window_loaded.h"
#include "plugin/plugin_loader.h"
#include "policies/registry.h"
#include "sim/comparison_job.h"
#include "sim/sim_session.h"
#include "widgets/scenario_panel.h"
#include "window_text.h"

namespace wb {

namespace {

const QString kPluginsKey = QStringLiteral("plugins");

QString loader_message(const std::exception& e, const QString& path)
{
    // The loader's InputError names the file; anything else is ours to name.
    if (dynamic_cast<const InputError*>(&e))
        return QString::fromStdString(e.what());
    return QStringLiteral("%1: internal error: %2").arg(path, QString::fromStdString(e.what()));
}

bool is_loaded(const QString& path)
{
    for (const LoadedPlugin& p : loaded_plugins())
        if (QString::fromStdString(p.path) == path)
            return true;
    return false;
}

QString policy_list(const LoadedPlugin& p)
{
    QStringList names;
    for (const std::string& n : p.policies)
        names << QString::fromStdString(n);
    return names.join(QStringLiteral(", "));
}

}  // namespace

bool MainWindow::loadPlugin(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (is_loaded(QDir::cleanPath(absolute))) {
        // The same file again is a rebuild: nothing may still run on the old one.
        rememberPlugin(QDir::cleanPath(absolute));
        return reloadPlugins();
    }
    LoadedPlugin plugin;
    try {
        plugin = load_plugin(path.toStdString());
    } catch (const std::exception& e) {
        fail(tr("Cannot load plugin"),
             tr("Could not load %1. The policies stay as they were.\n%2").arg(path, loader_message(e, path)));
        return false;
    }
    rememberPlugin(QString::fromStdString(plugin.path));
    pluginsChanged();
    message_status_->setText(
        tr("loaded %1: %2").arg(QFileInfo(QString::fromStdString(plugin.path)).fileName(), policy_list(plugin)));
    return true;
}

bool MainWindow::reloadPlugins()
{
    const std::vector<LoadedPlugin> plugins = loaded_plugins();
    if (plugins.empty()) {
        message_status_->setText(tr("no policy plugin is loaded (File ▸ Load policy plugin…)"));
        return true;
    }
    // The runs and the comparison built from the old builds' policies stop
    // and go before those policies are replaced. What is on screen keeps
    // pointing into the old copies, which are never unloaded.
    comparison_job_->cancel();
    session_->dropRuns();

    QStringList problems;
    QStringList reloaded;
    for (const LoadedPlugin& p : plugins) {
        const QString path = QString::fromStdString(p.path);
        try {
            reloaded << QFileInfo(path).fileName() + QStringLiteral(" (") + policy_list(load_plugin(p.path)) +
                            QLatin1Char(')');
        } catch (const std::exception& e) {
            problems << loader_message(e, path);
        }
    }
    pluginsChanged();
    if (!problems.isEmpty())
        fail(tr("Cannot reload plugin"), tr("Some plugins could not be loaded again; their previous builds stay.\n%1")
                                             .arg(problems.join(QLatin1Char('\n'))));
    if (!loaded_)
        return problems.isEmpty();
    // A rebuild may have renamed a policy or a switch: the runs then stay
    // stopped and the form keeps the scenario to correct.
    try {
        for (const std::string& spec : loaded_->setup.policies)
            make_policy(spec, "policy");
    } catch (const std::exception& e) {
        message_status_->setText(tr("the runs stopped: after the reload the scenario's policies do not all exist"));
        fail(tr("Cannot restart the runs"),
             tr("After the reload, a policy of the scenario no longer exists; the runs stopped and the scenario "
                "stays in the form.\n%1")
                 .arg(QString::fromStdString(e.what())));
        return false;
    }
    // The same scenario, case and seed, at the speed chosen: a restart, on
    // the new builds. The comparison was of the old ones.
    comparison_.reset();
    restartSimulation();
    message_status_->setText(tr("reloaded %1; the runs restarted").arg(reloaded.join(QStringLiteral(", "))));
    return problems.isEmpty();
}

bool MainWindow::restorePlugins()
{
    const QStringList remembered = rememberedPlugins();
    QStringList kept;
    QStringList problems;
    for (const QString& path : remembered) {
        if (is_loaded(path)) {  // given again with --plugin
            kept << path;
            continue;
        }
        try {
            load_plugin(path.toStdString());
            kept << path;
        } catch (const std::exception& e) {
            problems << loader_message(e, path);
        }
    }
    pluginsChanged();
    if (problems.isEmpty())
        return true;
    if (remember_)
        window_settings().setValue(kPluginsKey, kept);
    // Told once the window is up: at start-up the error handler may still be
    // the command line's, and the scenario's loading clears the status bar.
    QTimer::singleShot(0, this, [this, problems] {
        message_status_->setText(
            tr("forgot %1 that did not load")
                .arg(plural(static_cast<int>(problems.size()), "remembered plugin", "remembered plugins")));
        fail(tr("Cannot load a remembered plugin"),
             tr("The window loads the last session's plugins again; these did not load and are forgotten.\n%1")
                 .arg(problems.join(QLatin1Char('\n'))));
    });
    return false;
}

void MainWindow::rememberPlugin(const QString& path)
{
    if (!remember_)
        return;
    QStringList list = rememberedPlugins();
    if (list.contains(path))
        return;
    list << path;
    window_settings().setValue(kPluginsKey, list);
}

QStringList MainWindow::rememberedPlugins() const
{
    return window_settings().value(kPluginsKey).toStringList();
}

void MainWindow::loadPluginDialog()
{
    const std::vector<LoadedPlugin> plugins = loaded_plugins();
    const QString dir = plugins.empty() ? QString() : QFileInfo(QString::fromStdString(plugins.back().path)).path();
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Load policy plugin"), dir, tr("Policy plugins (*.so);;All files (*)"));
    if (!path.isEmpty())
        loadPlugin(path);
}

void MainWindow::pluginsChanged()
{
    scenario_panel_->refreshPolicyChoices();
    reload_plugins_->setEnabled(!loaded_plugins().empty());
}

}  // namespace wb

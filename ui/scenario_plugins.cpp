// SPDX-License-Identifier: Apache-2.0
#include "scenario_plugins.h"

#include <QDir>
#include <QFileInfo>
#include <algorithm>

#include "policies/registry.h"

namespace wb {

namespace {

// The shell quoting of the commands core writes (session/scenario_session.cpp):
// a plain word stays as it is, anything else goes in single quotes.
QString shell_word(const QString& word)
{
    static const QString kPlain = QStringLiteral("-_./=:,+");
    const bool plain = !word.isEmpty() && std::all_of(word.begin(), word.end(), [](QChar c) {
        return (c.unicode() < 128 && c.isLetterOrNumber()) || kPlain.contains(c);
    });
    if (plain)
        return word;
    QString out = word;
    out.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + out + QLatin1Char('\'');
}

// The folder a scenario's relative paths are read against: its file's, or
// the working directory's for a scenario that has no file (parse_scenario_json).
QString scenario_folder(const QString& path)
{
    return path.isEmpty() ? QDir::currentPath() : QFileInfo(path).absolutePath();
}

QString absolute_in(const QString& folder, const QString& entry)
{
    return QDir::cleanPath(QDir(folder).absoluteFilePath(entry));
}

}  // namespace

QStringList plugins_of_policies(const std::vector<std::string>& specs)
{
    QStringList out;
    for (const std::string& spec : specs) {
        for (const QString& part : QString::fromStdString(spec).split(QLatin1Char('+'))) {
            const QString name = part.section(QLatin1Char(':'), 0, 0);
            const QString plugin = QString::fromStdString(policy_plugin(name.toStdString()));
            if (!plugin.isEmpty() && !out.contains(plugin))
                out << plugin;
        }
    }
    return out;
}

QString with_plugin_options(const QString& command, const QStringList& plugins)
{
    if (plugins.isEmpty())
        return command;
    const qsizetype space = command.indexOf(QLatin1Char(' '));
    QString options;
    for (const QString& p : plugins)
        options += QStringLiteral(" --plugin ") + shell_word(p);
    return space < 0 ? command + options : command.left(space) + options + command.mid(space);
}

std::vector<std::string> plugins_to_save(const Scenario& scenario, const QString& from_path, const QString& to_path)
{
    const QString from = scenario_folder(from_path);
    const QString to = scenario_folder(to_path);
    const bool same_folder = QDir(from) == QDir(to);
    std::vector<std::string> out;
    QStringList named;  // the files the entries name, absolute
    for (const std::string& entry : scenario.plugins) {
        const QString text = QString::fromStdString(entry);
        const QString file = absolute_in(from, text);
        named << file;
        out.push_back(same_folder || QDir::isAbsolutePath(text) ? entry : file.toStdString());
    }
    const QString inside = QDir::cleanPath(to) + QLatin1Char('/');
    for (const QString& plugin : plugins_of_policies(scenario.policies)) {
        if (named.contains(QDir::cleanPath(plugin)))
            continue;
        named << QDir::cleanPath(plugin);
        out.push_back((plugin.startsWith(inside) ? QDir(to).relativeFilePath(plugin) : plugin).toStdString());
    }
    return out;
}

}  // namespace wb

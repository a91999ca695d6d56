// SPDX-License-Identifier: Apache-2.0
#include "scenario_plugins.h"

#include <QDir>
#include <QFileInfo>

#include "policies/registry.h"

namespace wb {

namespace {

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
    for (const std::string& file : policy_plugins(scenario.policies)) {
        const QString plugin = QString::fromStdString(file);
        if (named.contains(QDir::cleanPath(plugin)))
            continue;
        named << QDir::cleanPath(plugin);
        out.push_back((plugin.startsWith(inside) ? QDir(to).relativeFilePath(plugin) : plugin).toStdString());
    }
    return out;
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "scenario_draft.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <exception>

namespace wb {

namespace {

constexpr int kDraftVersion = 1;

QString draft_file(const QString& folder)
{
    return QDir(folder).filePath(QStringLiteral("draft-scenario.json"));
}

QJsonObject object_of(const Scenario& s)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(scenario_to_json(s))).object();
}

Scenario scenario_of(const QJsonValue& v, const QString& label)
{
    const QByteArray text = QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
    return parse_scenario_json(text.toStdString(), label.toStdString());
}

}  // namespace

bool save_scenario_draft(const QString& folder, const ScenarioDraft& draft)
{
    if (!QDir().mkpath(folder))
        return false;
    QJsonObject o;
    o[QStringLiteral("version")] = kDraftVersion;
    o[QStringLiteral("path")] = draft.path;
    o[QStringLiteral("case")] = draft.case_index;
    o[QStringLiteral("applied")] = object_of(draft.applied);
    o[QStringLiteral("form")] = object_of(draft.form);
    QSaveFile file(draft_file(folder));
    if (!file.open(QIODevice::WriteOnly))
        return false;
    file.write(QJsonDocument(o).toJson());
    return file.commit();
}

std::optional<ScenarioDraft> load_scenario_draft(const QString& folder)
{
    QFile file(draft_file(folder));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
    if (o.value(QStringLiteral("version")).toInt() != kDraftVersion)
        return std::nullopt;
    try {
        ScenarioDraft d;
        d.path = o.value(QStringLiteral("path")).toString();
        d.case_index = o.value(QStringLiteral("case")).toInt();
        // Named by its file, if it had one: a scenario's plugins are read
        // against that file's folder.
        const QString label = d.path.isEmpty() ? file.fileName() : d.path;
        d.applied = scenario_of(o.value(QStringLiteral("applied")), label);
        d.form = scenario_of(o.value(QStringLiteral("form")), label);
        return d;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// What the window's tests share: a clean settings store (no test sees what
// another, or the user, opened last), the small teaching scenario, and
// writing a file to open.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QString>

#include "io/scenario_json.h"

namespace wb::test {

// Call from initTestCase(), before any window exists.
inline void use_clean_settings()
{
    QStandardPaths::setTestModeEnabled(true);
    QSettings(QSettings::IniFormat, QSettings::UserScope, QStringLiteral("wakebench"), QStringLiteral("wakebench"))
        .clear();
}

// teaching-8 (8 CPUs, 2 LLCs, SMT): small enough to follow every wakeup.
inline Scenario teaching_scenario()
{
    Scenario s;
    s.name = "teaching";
    s.machine = "teaching-8";
    s.cases = {{"pipe", "pipe:loops=300"}, {"pinned", "pipe:loops=300,cpus=3"}};
    s.policies = {"baseline", "sync-waker-v3"};
    return s;
}

inline bool write_file(const QString& path, const QByteArray& text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
}

}  // namespace wb::test

// SPDX-License-Identifier: Apache-2.0
//
// What the window has loaded: the scenario, where it came from, the case
// shown and the runs' setup. Private to the MainWindow's source files.
#pragma once

#include <QSettings>
#include <QString>

#include "io/scenario_json.h"
#include "main_window.h"
#include "session/scenario_session.h"
#include "topology/sched_domains.h"

namespace wb {

struct MainWindow::Loaded {
    Scenario scenario;
    QString path;
    int case_index = 0;
    SessionSetup setup;
    SchedDomains domains;
};

// The window's settings: the last scenario, recent files, remembered plugins.
QSettings window_settings();

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
//
// ScenarioDraft: the scenario on screen, kept on disk as it changes, so
// that a crash or a kill loses none of it: the scenario the runs were built
// from (applied), the form with any edits not yet applied, the case shown
// and the file it came from. Written whole into a new file that replaces
// the old one (QSaveFile), so a kill mid-write leaves the previous draft.
// Unlike QSettings, which a killed process may never have flushed.
#pragma once

#include <QString>
#include <optional>

#include "io/scenario_json.h"

namespace wb {

struct ScenarioDraft {
    Scenario applied;
    Scenario form;
    int case_index = 0;
    QString path;  // the scenario's file, empty when it has none
};

// `folder`/draft-scenario.json; false if it could not be written.
bool save_scenario_draft(const QString& folder, const ScenarioDraft& draft);
// The draft in `folder`, or nullopt when there is none or it does not read
// (a draft is a convenience: a bad one is ignored, never an error).
std::optional<ScenarioDraft> load_scenario_draft(const QString& folder);

}  // namespace wb

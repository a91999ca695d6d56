// SPDX-License-Identifier: Apache-2.0
//
// One policy's decision record for a wakeup, with the name and colour the
// decision views label it by: what the diagram and its details pane show,
// one per policy of the run.
#pragma once

#include <QColor>
#include <QString>
#include <vector>

#include "sched/decision.h"

namespace wb {

struct LabelledRecord {
    QString policy;  // empty: a record shown by itself, unlabelled
    QColor colour;
    DecisionRecord record;
};

using LabelledRecords = std::vector<LabelledRecord>;

}  // namespace wb

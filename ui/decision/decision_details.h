// SPDX-License-Identifier: Apache-2.0
//
// DecisionDetails: the pane under (or beside) the decision diagram that
// lists every step of the records shown in full, one list per policy in its
// colour: function, branch, the values that decided it and the CPU it
// returned, then the chosen CPU. Where the diagram's nodes wrap, this reads
// as a plain list, and with two policies it says at which step their paths
// part.
#pragma once

#include <QString>
#include <QTextBrowser>

#include "decision/labelled_record.h"

namespace wb {

// The pane's text as HTML: what showRecords() sets.
QString decision_details_html(const LabelledRecords& records);
// The first step (0-based) where two records take different branches; the
// shorter record's length when one is a prefix of the other; -1 when they
// take the same path.
int first_parting_step(const DecisionRecord& a, const DecisionRecord& b);

class DecisionDetails : public QTextBrowser {
    Q_OBJECT

public:
    explicit DecisionDetails(QWidget* parent = nullptr);

    void showRecords(const LabelledRecords& records);
};

}  // namespace wb

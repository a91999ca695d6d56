// SPDX-License-Identifier: Apache-2.0
//
// A comparison's results in the forms wakesim writes them, so that what
// the window exports is byte for byte what `wakesim compare` prints: CSV
// (comparison_to_csv), JSON (io/comparison_json.h) and the plain text table
// for a mailing-list post (format_comparison). No formatting of its own.
#pragma once

#include <QString>

namespace wb {

struct Comparison;

QString results_csv(const Comparison& comparison);
// `machine` is the machine's name as the JSON records it.
QString results_json(const Comparison& comparison, const QString& machine = {});
QString text_table(const Comparison& comparison);

// Writes `text` as UTF-8. False, with *error naming the file and the
// reason, when it cannot.
bool write_text_file(const QString& path, const QString& text, QString* error);

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "export/results_export.h"

#include <QFile>

#include "io/comparison_json.h"
#include "metrics/comparison.h"

namespace wb {

QString results_csv(const Comparison& comparison)
{
    return QString::fromStdString(comparison_to_csv(comparison));
}

QString results_json(const Comparison& comparison, const QString& machine)
{
    return QString::fromStdString(comparison_to_json(comparison, machine.toStdString()));
}

QString text_table(const Comparison& comparison)
{
    return QString::fromStdString(format_comparison(comparison));
}

bool write_text_file(const QString& path, const QString& text, QString* error)
{
    QFile file(path);
    const QByteArray bytes = text.toUtf8();
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(bytes) != bytes.size() || !file.flush()) {
        if (error)
            *error = QStringLiteral("cannot write '%1': %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

}  // namespace wb

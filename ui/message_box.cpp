// SPDX-License-Identifier: Apache-2.0
#include "message_box.h"

#include <QMessageBox>
#include <QStringList>
#include <algorithm>

namespace wb {

namespace {

// A message box taller than the screen hides its OK button; the rest goes
// into "Show Details...".
constexpr int kMaxProblemsShown = 12;

}  // namespace

void show_message_box(QWidget* parent, const QString& title, const QString& message)
{
    QStringList lines = message.split(QLatin1Char('\n'));
    QMessageBox box(QMessageBox::Warning, title, QStringLiteral("<b>%1</b>").arg(lines.takeFirst().toHtmlEscaped()),
                    QMessageBox::Ok, parent);
    if (lines.size() > kMaxProblemsShown)
        box.setDetailedText(lines.join(QLatin1Char('\n')));
    QString items;
    for (qsizetype i = 0; i < std::min<qsizetype>(lines.size(), kMaxProblemsShown); ++i)
        items += QStringLiteral("<li>%1</li>").arg(lines[i].toHtmlEscaped());
    if (lines.size() > kMaxProblemsShown)
        items += QObject::tr("<li>… and %1 more (Show Details)</li>").arg(lines.size() - kMaxProblemsShown);
    box.setInformativeText(QStringLiteral("<ul style='margin-left:-24px'>%1</ul>").arg(items));
    box.exec();
}

}  // namespace wb

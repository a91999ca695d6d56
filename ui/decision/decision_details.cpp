// SPDX-License-Identifier: Apache-2.0
#include "decision/decision_details.h"

#include <QStringList>
#include <algorithm>

#include "decision/decision_text.h"

namespace wb {

namespace {

QString qstr(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString esc(const QString& s)
{
    return s.toHtmlEscaped();
}

QString policy_label(const LabelledRecord& r)
{
    return r.policy.isEmpty() ? QStringLiteral("record") : r.policy;
}

QString step_html(const DecisionStep& s)
{
    QString line = QStringLiteral("<b>%1</b>: %2").arg(esc(qstr(s.function)), esc(qstr(s.branch)));
    if (!s.detail.empty())
        line += QStringLiteral(" \u2014 ") + esc(QString::fromStdString(s.detail));
    if (s.result != kNoCpu)
        line += QStringLiteral(" \u2192 <b>%1</b>").arg(cpu_text(s.result));
    return line;
}

QString step_name(const DecisionRecord& r, int step)
{
    if (step >= static_cast<int>(r.steps.size()))
        return QStringLiteral("no further step");
    const DecisionStep& s = r.steps[static_cast<std::size_t>(step)];
    return qstr(s.function) + QStringLiteral(": ") + qstr(s.branch);
}

}  // namespace

int first_parting_step(const DecisionRecord& a, const DecisionRecord& b)
{
    const std::size_t n = std::min(a.steps.size(), b.steps.size());
    for (std::size_t i = 0; i < n; ++i)
        if (a.steps[i].function != b.steps[i].function || a.steps[i].branch != b.steps[i].branch)
            return static_cast<int>(i);
    return a.steps.size() == b.steps.size() ? -1 : static_cast<int>(n);
}

QString decision_details_html(const LabelledRecords& records)
{
    if (records.empty())
        return QStringLiteral("<p>No wakeup shown. Step one wakeup (. or Right) or pick one in Recent wakeups.</p>");
    QString html;
    // Where the policies part, first: the question the comparison asks.
    for (std::size_t i = 1; i < records.size(); ++i) {
        const LabelledRecord& a = records.front();
        const LabelledRecord& b = records[i];
        if (a.record.seq != b.record.seq) {
            html += QStringLiteral(
                        "<p>%1's wakeup #%2 and %3's #%4 are different wakeups: the runs have drifted "
                        "apart since they first diverged.</p>")
                        .arg(esc(policy_label(a)))
                        .arg(a.record.seq)
                        .arg(esc(policy_label(b)))
                        .arg(b.record.seq);
            continue;
        }
        const int at = first_parting_step(a.record, b.record);
        if (at < 0) {
            html +=
                QStringLiteral("<p>%1 and %2 take the same path.</p>").arg(esc(policy_label(a)), esc(policy_label(b)));
            continue;
        }
        html += QStringLiteral("<p>The paths part at step %1: %2 takes <i>%3</i>, %4 takes <i>%5</i>.</p>")
                    .arg(at + 1)
                    .arg(esc(policy_label(a)), esc(step_name(a.record, at)), esc(policy_label(b)),
                         esc(step_name(b.record, at)));
    }
    for (const LabelledRecord& r : records) {
        const DecisionRecord& rec = r.record;
        html += QStringLiteral(
                    "<p><b style=\"color:%1\">\u25a0 %2</b> wakeup #%3 at %4: %5 on %6 wakes %7, prev %8, %9</p>")
                    .arg(r.colour.name(), esc(policy_label(r)))
                    .arg(rec.seq)
                    .arg(time_text(rec.time), esc(waker_text(rec)), cpu_text(rec.waker_cpu), task_text(rec.wakee),
                         cpu_text(rec.prev_cpu), wake_flags_text(rec.wake_flags));
        html += QStringLiteral("<ol style=\"margin-top:0\">");
        for (const DecisionStep& s : rec.steps)
            html += QStringLiteral("<li>") + step_html(s) + QStringLiteral("</li>");
        html += QStringLiteral("</ol>");
        html += QStringLiteral("<p>chosen <b>%1</b> via %2; from waker %3: %4; from prev %5: %6</p>")
                    .arg(cpu_text(rec.chosen), esc(qstr(wake_path_name(rec.path))), cpu_text(rec.waker_cpu),
                         esc(qstr(distance_class_name(rec.from_waker))), cpu_text(rec.prev_cpu),
                         esc(qstr(distance_class_name(rec.from_prev))));
    }
    return html;
}

DecisionDetails::DecisionDetails(QWidget* parent) : QTextBrowser(parent)
{
    setOpenLinks(false);
    showRecords({});
}

void DecisionDetails::showRecords(const LabelledRecords& records)
{
    setHtml(decision_details_html(records));
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "divergence_text.h"

#include <QStringList>
#include <ranges>

namespace wb {

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// A policy's steps carry its name; a spec may join several ("a+b") and add
// switches ("a:x=off").
bool is_policy_step(const DecisionStep& step, const QString& policy)
{
    const QString function = qs(step.function);
    for (const QString& part : policy.split(QLatin1Char('+')))
        if (part.section(QLatin1Char(':'), 0, 0) == function)
            return true;
    return false;
}

}  // namespace

QString choice_reason(const DecisionRecord& rec, const QString& policy)
{
    const auto returned = [&](const DecisionStep& s) { return s.result == rec.chosen; };
    auto found = std::ranges::find_if(rec.steps | std::views::reverse, returned);
    if (found == rec.steps.rend()) {
        if (rec.steps.empty())
            return {};
        found = rec.steps.rbegin();
    }
    return is_policy_step(*found, policy) ? qs(found->function) : qs(found->branch);
}

QString divergence_text(std::uint64_t wakeup, const std::vector<PolicyChoice>& choices)
{
    QStringList parts;
    for (const PolicyChoice& c : choices) {
        if (!c.record)
            continue;
        const QString reason = choice_reason(*c.record, c.policy);
        QString part = QStringLiteral("%1 → CPU %2").arg(c.policy).arg(c.record->chosen);
        if (!reason.isEmpty())
            part += QStringLiteral(" (%1)").arg(reason);
        parts << part;
    }
    return QStringLiteral("#%1: %2").arg(wakeup).arg(parts.join(QStringLiteral(", ")));
}

}  // namespace wb

// SPDX-License-Identifier: Apache-2.0
#include "decision/decision_text.h"

#include <QStringList>
#include <array>
#include <utility>

#include "topology/sd_flags.h"

namespace wb {

QString wake_flags_text(unsigned int wake_flags)
{
    static const std::array<std::pair<unsigned int, const char*>, 7> names{{
        {WF_EXEC, "WF_EXEC"},
        {WF_FORK, "WF_FORK"},
        {WF_TTWU, "WF_TTWU"},
        {WF_SYNC, "WF_SYNC"},
        {WF_MIGRATED, "WF_MIGRATED"},
        {WF_CURRENT_CPU, "WF_CURRENT_CPU"},
        {WF_RQ_SELECTED, "WF_RQ_SELECTED"},
    }};
    QStringList parts;
    unsigned int rest = wake_flags;
    for (const auto& [bit, name] : names) {
        if (wake_flags & bit) {
            parts << QLatin1String(name);
            rest &= ~bit;
        }
    }
    if (rest)
        parts << QStringLiteral("0x%1").arg(rest, 0, 16);
    return parts.isEmpty() ? QStringLiteral("0") : parts.join(QLatin1Char('|'));
}

QString task_text(TaskId task)
{
    return task == kNoTask ? QStringLiteral("irq") : QStringLiteral("task %1").arg(task);
}

QString waker_text(const DecisionRecord& rec)
{
    if (rec.waker != kNoTask || (rec.wake_flags & WF_TTWU))
        return task_text(rec.waker);
    return QStringLiteral("no task");
}

QString cpu_text(CpuId cpu)
{
    return cpu == kNoCpu ? QStringLiteral("-") : QStringLiteral("cpu %1").arg(cpu);
}

QString time_text(Time t)
{
    return QStringLiteral("%1 us").arg(t.to_us(), 0, 'f', 3);
}

}  // namespace wb

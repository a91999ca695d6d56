// SPDX-License-Identifier: Apache-2.0
#include "export/export_target.h"

#include <array>
#include <utility>

namespace wb {

namespace {

constexpr std::array<std::pair<ExportTarget, const char*>, 7> kTargets{{
    {ExportTarget::Window, "window"},
    {ExportTarget::Grids, "grids"},
    {ExportTarget::Decision, "decision"},
    {ExportTarget::Throughput, "throughput"},
    {ExportTarget::Latency, "latency"},
    {ExportTarget::Headline, "headline"},
    {ExportTarget::Placement, "placement"},
}};

}  // namespace

QStringList export_target_names()
{
    QStringList names;
    for (const auto& [target, name] : kTargets)
        names << QLatin1String(name);
    return names;
}

QString export_target_name(ExportTarget target)
{
    for (const auto& [t, name] : kTargets)
        if (t == target)
            return QLatin1String(name);
    return {};
}

std::optional<ExportTarget> parse_export_target(const QString& name)
{
    for (const auto& [target, n] : kTargets)
        if (name == QLatin1String(n))
            return target;
    return std::nullopt;
}

bool export_target_needs_comparison(ExportTarget target)
{
    return target == ExportTarget::Headline;
}

}  // namespace wb

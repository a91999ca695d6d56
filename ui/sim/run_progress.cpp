// SPDX-License-Identifier: Apache-2.0
#include "sim/run_progress.h"

#include <QString>
#include <algorithm>

#include "engine/sim_time.h"
#include "session/run_snapshot.h"
#include "workload/workload_spec.h"

namespace wb {

double progress_of(const std::string& spec, const RunSnapshot& snap)
{
    const QString text = QString::fromStdString(spec);
    const QString name = text.section(QLatin1Char(':'), 0, 0);
    auto param = [&](const QString& key) -> QString {
        for (const QString& piece : text.section(QLatin1Char(':'), 1).split(QLatin1Char(',')))
            if (piece.startsWith(key + QLatin1Char('=')))
                return piece.mid(key.size() + 1);
        for (const WorkloadInfo& info : workload_catalog())
            if (QString::fromStdString(info.name) == name)
                for (const WorkloadParam& p : info.params)
                    if (QString::fromStdString(p.name) == key)
                        return QString::fromStdString(p.default_value);
        return {};
    };
    if (snap.finished)
        return 1.0;
    if (name == QLatin1String("pipe")) {
        const double loops = param(QStringLiteral("loops")).toDouble();
        return loops > 0 ? snap.ops / loops : -1;
    }
    for (const char* key : {"runtime", "timeout"}) {
        Time limit;
        if (parse_duration(param(QLatin1String(key)).toStdString(), limit) && limit > Time())
            return std::min(1.0, static_cast<double>(snap.now.ns()) / static_cast<double>(limit.ns()));
    }
    return -1;
}

}  // namespace wb

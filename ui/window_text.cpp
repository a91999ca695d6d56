// SPDX-License-Identifier: Apache-2.0
#include "window_text.h"

#include <QObject>

namespace wb {

QString plural(int n, const char* one, const char* many)
{
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}

QString duration_text(Time t)
{
    const double ns = static_cast<double>(t.ns());
    if (ns < 1e3)
        return QStringLiteral("%1 ns").arg(t.ns());
    if (ns < 1e6)
        return QStringLiteral("%1 µs").arg(ns / 1e3, 0, 'f', 1);
    if (ns < 1e9)
        return QStringLiteral("%1 ms").arg(ns / 1e6, 0, 'f', 3);
    return QStringLiteral("%1 s").arg(ns / 1e9, 0, 'f', 4);
}

QString speed_text(double s)
{
    if (s <= 0)
        return QObject::tr("max");
    return QObject::tr("%1/s").arg(duration_text(Time::s(s)));
}

QString events_text(double per_second)
{
    if (per_second >= 1e6)
        return QObject::tr("%1 M events/s").arg(per_second / 1e6, 0, 'f', 1);
    if (per_second >= 1e3)
        return QObject::tr("%1 k events/s").arg(per_second / 1e3, 0, 'f', 1);
    return QObject::tr("%1 events/s").arg(per_second, 0, 'f', 0);
}

}  // namespace wb

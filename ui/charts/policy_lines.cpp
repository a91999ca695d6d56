// SPDX-License-Identifier: Apache-2.0
#include "charts/policy_lines.h"

#include <QChart>
#include <QLineSeries>
#include <QPen>

#include "decision/palette.h"

namespace wb {

void reset_policy_lines(QChart* chart, std::vector<QLineSeries*>& series, const QStringList& names,
                        const QList<QColor>& colours, QAbstractAxis* x, QAbstractAxis* y)
{
    for (QLineSeries* s : series) {
        chart->removeSeries(s);
        delete s;
    }
    series.clear();
    for (int i = 0; i < names.size(); ++i) {
        auto* s = new QLineSeries;
        s->setName(names[i]);
        QPen pen(i < colours.size() ? colours[i] : palette::policy_colour(i));
        pen.setWidthF(2);
        s->setPen(pen);
        chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
        series.push_back(s);
    }
}

}  // namespace wb
